// exec::prefetch_build: an emit wrapped with the build-side columns it reads
// sees exactly the bare emit's pairs in the same order, through every probe
// form, whether its columns are large enough to be prefetched or not.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/exec/equi_join.hpp>
#include <joinery/exec/prefetch_build.hpp>
#include <probe_keys.hpp>

namespace jy = joinery;
namespace ex = jy::exec;

namespace {
using opt = std::optional<std::int64_t>;
using pairs = std::vector<std::pair<std::size_t, std::size_t>>;
constexpr std::size_t U = ex::unmatched;

struct recorder {
  pairs out;
  void operator()(std::size_t i, std::size_t j) { out.emplace_back(i, j); }
};

/// A build side of `m` rows whose value column is `m` int64s (>= 1 MiB from
/// 131072 rows): keys as `test::build_keys` makes them.
struct build_side {
  std::vector<opt> keys;
  std::vector<std::int64_t> values;
};
build_side make_build(std::size_t m, std::size_t dup, bool dense) {
  build_side b{jy::test::build_keys(m, dup, dense), std::vector<std::int64_t>(m)};
  for (std::size_t j = 0; j < m; ++j) b.values[j] = static_cast<std::int64_t>(j % 1000);
  return b;
}
using jy::test::probe_keys;

template <ex::join_kind K, class Emit>
void probe_into(const ex::arrangement<std::int64_t>& a, const std::vector<opt>& probe, Emit&& emit) {
  ex::probe<K>(
      a, probe.size(), [&](std::size_t i) { return probe[i]; },
      [](std::size_t i, std::size_t j) { return (i + j) % 13 != 0; }, emit);
}

template <ex::join_kind K>
void check_kind(const ex::arrangement<std::int64_t>& a, const std::vector<opt>& probe,
                const std::vector<std::int64_t>& values) {
  recorder bare;
  probe_into<K>(a, probe, bare);
  auto wrapped = ex::prefetch_build(recorder{}, values);
  probe_into<K>(a, probe, wrapped);
  CHECK(wrapped.base().out == bare.out);
  CHECK(!bare.out.empty());
}

template <ex::join_kind K>
void check_all_layouts(std::size_t m) {
  for (const std::size_t dup : {std::size_t{1}, std::size_t{3}}) {
    for (const bool dense : {false, true}) {
      CAPTURE(m, dup, dense);
      const build_side b = make_build(m, dup, dense);
      ex::arrangement<std::int64_t> a;
      a.build(m, [&](std::size_t j) { return b.keys[j]; });
      check_kind<K>(a, probe_keys(3000, m, dup, dense), b.values);
    }
  }
  // The identity layout (keys 0..m-1 in row order), which holds more pairs back.
  CAPTURE(m);
  build_side b = make_build(m, 1, true);
  for (std::size_t j = 0; j < m; ++j) b.keys[j] = static_cast<std::int64_t>(j);
  ex::arrangement<std::int64_t> a;
  a.build(m, [&](std::size_t j) { return b.keys[j]; });
  REQUIRE(a.index_layout() == ex::arrangement<std::int64_t>::layout::identity);
  check_kind<K>(a, probe_keys(3000, m, 1, true), b.values);
}
}  // namespace

TEST_CASE("joinery.exec.prefetch_build.same_pairs_in_the_same_order") {
  // 140000 values (1.1 MB): held back and prefetched; 1000 values: straight through.
  for (const std::size_t m : {std::size_t{140000}, std::size_t{1000}}) {
    check_all_layouts<ex::join_kind::inner>(m);
    check_all_layouts<ex::join_kind::left>(m);
    check_all_layouts<ex::join_kind::semi>(m);
    check_all_layouts<ex::join_kind::anti>(m);
  }
}

TEST_CASE("joinery.exec.prefetch_build.prefetches_from_one_mebibyte") {
  const std::vector<std::int64_t> small(131071), large(131072);
  const std::vector<std::int32_t> medium(262144);
  recorder r;
  CHECK_FALSE(ex::prefetch_build(r, small).prefetching());
  CHECK(ex::prefetch_build(r, large).prefetching());
  CHECK(ex::prefetch_build(r, small, medium).prefetching());  // any one column suffices
  CHECK(ex::prefetch_build(r, medium, small).prefetching());
}

TEST_CASE("joinery.exec.prefetch_build.fewer_pairs_than_held") {
  // Fewer pairs than `prefetch_depth`, and none at all: every pair held back
  // reaches the emit when the rows are done.
  const build_side b = make_build(140000, 1, false);
  ex::arrangement<std::int64_t> a;
  a.build(b.keys.size(), [&](std::size_t j) { return b.keys[j]; });
  const std::vector<opt> probe{b.keys[7], opt(5), b.keys[9], opt{}, b.keys[7]};
  auto w = ex::prefetch_build(recorder{}, b.values);
  REQUIRE(w.prefetching());
  ex::probe<ex::join_kind::left>(
      a, probe.size(), [&](std::size_t i) { return probe[i]; }, [](std::size_t, std::size_t) { return true; }, w);
  CHECK(w.base().out == pairs{{0, 7}, {1, U}, {2, 9}, {3, U}, {4, 7}});
  auto none = ex::prefetch_build(recorder{}, b.values);
  ex::probe<ex::join_kind::left>(
      a, 0, [&](std::size_t i) { return probe[i]; }, [](std::size_t, std::size_t) { return true; }, none);
  CHECK(none.base().out.empty());
  // Exactly one ring's worth, and one more.
  for (const std::size_t n : {ex::prefetch_depth, ex::prefetch_depth + 1}) {
    auto exact = ex::prefetch_build(recorder{}, b.values);
    ex::probe<ex::join_kind::inner>(
        a, n, [&](std::size_t i) { return b.keys[i + 10]; }, [](std::size_t, std::size_t) { return true; },
        exact);
    pairs expect;
    for (std::size_t i = 0; i < n; ++i)
      if (b.keys[i + 10]) expect.emplace_back(i, i + 10);
    CHECK(exact.base().out == expect);
  }
}

TEST_CASE("joinery.exec.prefetch_build.holds_pairs_back_only_when_prefetching") {
  // `accept` runs as each pair is found: the emit sees pair k once pair
  // k + held_pairs(build) was found (or the rows are done); below the size
  // limit, at once. An identity build (keys 0..m-1 in row order: the probe
  // reads no slot) holds `prefetch_depth_unprobed` pairs, the others
  // `prefetch_depth`.
  const build_side big = make_build(140000, 1, false), small = make_build(1000, 1, false);
  const build_side identity = [&] {
    build_side b{std::vector<opt>(140000), big.values};
    for (std::size_t j = 0; j < b.keys.size(); ++j) b.keys[j] = static_cast<std::int64_t>(j);
    return b;
  }();
  for (const auto* b : {&big, &small, &identity}) {
    CAPTURE(b->keys.size(), b == &identity);
    ex::arrangement<std::int64_t> a;
    a.build(b->keys.size(), [&](std::size_t j) { return b->keys[j]; });
    using layout = ex::arrangement<std::int64_t>::layout;
    REQUIRE((a.index_layout() == layout::identity) == (b == &identity));
    CHECK(ex::held_pairs(a) == (b == &identity ? ex::prefetch_depth_unprobed : ex::prefetch_depth));
    std::vector<std::size_t> rows;  // probe rows whose key is present: one match each
    for (std::size_t j = 0; j < b->keys.size() && rows.size() < 500; ++j)
      if (b->keys[j]) rows.push_back(j);
    const std::size_t n = rows.size();
    std::size_t found = 0;
    std::vector<std::size_t> found_when_emitted;
    std::vector<std::size_t> emitted;
    auto emit = [&](std::size_t, std::size_t j) {
      found_when_emitted.push_back(found);
      emitted.push_back(j);
    };
    auto w = ex::prefetch_build(emit, b->values);
    ex::probe<ex::join_kind::inner>(
        a, n, [&](std::size_t i) { return b->keys[rows[i]]; },
        [&](std::size_t, std::size_t) {
          ++found;
          return true;
        },
        w);
    REQUIRE(found_when_emitted.size() == n);
    CHECK(emitted == rows);
    const std::size_t lag = w.prefetching() ? ex::held_pairs(a) : 0;
    CHECK(lag == (b == &small ? 0 : b == &identity ? ex::prefetch_depth_unprobed : ex::prefetch_depth));
    for (std::size_t k = 0; k < n; ++k) {
      CAPTURE(k);
      CHECK(found_when_emitted[k] == std::min(k + 1 + lag, n));
    }
  }
}

TEST_CASE("joinery.exec.prefetch_build.lvalue_emit_by_reference") {
  recorder r;
  const std::vector<std::int64_t> col(131072);
  auto w = ex::prefetch_build(r, col);
  static_assert(std::is_same_v<decltype(w.base()), recorder&>);
  CHECK(&w.base() == &r);
  auto owned = ex::prefetch_build(recorder{}, col);
  static_assert(std::is_same_v<decltype(owned), ex::prefetched_emit<recorder, std::int64_t>>);
}

TEST_CASE("joinery.exec.prefetch_build.threads") {
  const build_side b = make_build(140000, 3, false);
  ex::arrangement<std::int64_t> a;
  a.build(b.keys.size(), [&](std::size_t j) { return b.keys[j]; });
  const std::vector<opt> probe = probe_keys(5000, b.keys.size(), 3, false);
  auto key_at = [&](std::size_t i) { return probe[i]; };
  auto accept = [](std::size_t, std::size_t) { return true; };
  recorder serial;
  ex::probe<ex::join_kind::left>(a, probe.size(), key_at, accept, serial);
  for (const unsigned t : {2U, 3U}) {
    CAPTURE(t);
    // One wrapped sink per part, concatenated in part order.
    auto parts = ex::probe_parts<ex::join_kind::left>(ex::threads(t, 64), a, probe.size(), key_at, accept,
                                                       [&](std::size_t) { return ex::prefetch_build(recorder{}, b.values); });
    REQUIRE(parts.size() == t);
    pairs joined;
    for (const auto& p : parts) joined.insert(joined.end(), p.base().out.begin(), p.base().out.end());
    CHECK(joined == serial.out);
    // Found on threads, emitted on this one.
    auto w = ex::prefetch_build(recorder{}, b.values);
    ex::probe<ex::join_kind::left>(ex::threads(t, 64), a, probe.size(), key_at, accept, w);
    CHECK(w.base().out == serial.out);
  }
}

TEST_CASE("joinery.exec.prefetch_build.emit_throws") {
  // The exception reaches the caller; the emit saw a prefix of the pairs.
  const build_side b = make_build(140000, 1, false);
  ex::arrangement<std::int64_t> a;
  a.build(b.keys.size(), [&](std::size_t j) { return b.keys[j]; });
  recorder bare;
  const std::size_t n = 200;
  auto key_at = [&](std::size_t i) { return b.keys[i]; };
  auto accept = [](std::size_t, std::size_t) { return true; };
  ex::probe<ex::join_kind::inner>(a, n, key_at, accept, bare);
  pairs seen;
  auto emit = [&](std::size_t i, std::size_t j) {
    if (seen.size() == 50) throw std::runtime_error("emit full");
    seen.emplace_back(i, j);
  };
  auto w = ex::prefetch_build(emit, b.values);
  CHECK_THROWS_WITH(ex::probe<ex::join_kind::inner>(a, n, key_at, accept, w), "emit full");
  CHECK(seen == pairs(bare.out.begin(), bare.out.begin() + 50));
}
