// exec::probe: exact emission per join kind, in canonical order, with the
// batched probe crossing several prefetch windows.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include <joinery/exec/equi_join.hpp>
#include <joinery/exec/threads.hpp>

namespace jy = joinery;
namespace ex = jy::exec;

namespace {
using opt = std::optional<std::int64_t>;
using pairs = std::vector<std::pair<std::size_t, std::size_t>>;
constexpr std::size_t U = ex::unmatched;

template <ex::join_kind K>
pairs run(const std::vector<opt>& probe_keys, const std::vector<opt>& build_keys,
          bool (*accept)(std::size_t, std::size_t) = nullptr) {
  ex::arrangement<std::int64_t> a;
  a.build(build_keys.size(), [&](std::size_t i) { return build_keys[i]; });
  pairs out;
  ex::probe<K>(
      a, probe_keys.size(), [&](std::size_t i) { return probe_keys[i]; },
      [&](std::size_t i, std::size_t j) { return accept ? accept(i, j) : true; },
      [&](std::size_t i, std::size_t j) { out.emplace_back(i, j); });
  return out;
}
}  // namespace

TEST_CASE("joinery.exec.probe.inner_order") {
  const std::vector<opt> build{10, 20, 10, std::nullopt, 30, 10};
  const std::vector<opt> probe{20, std::nullopt, 10, 40, 30, 10};
  CHECK(run<ex::join_kind::inner>(probe, build) ==
        pairs{{0, 1}, {2, 0}, {2, 2}, {2, 5}, {4, 4}, {5, 0}, {5, 2}, {5, 5}});
}

TEST_CASE("joinery.exec.probe.left_semi_anti") {
  const std::vector<opt> build{10, 20, 10};
  const std::vector<opt> probe{20, std::nullopt, 10, 40};
  CHECK(run<ex::join_kind::left>(probe, build) == pairs{{0, 1}, {1, U}, {2, 0}, {2, 2}, {3, U}});
  CHECK(run<ex::join_kind::semi>(probe, build) == pairs{{0, U}, {2, U}});
  CHECK(run<ex::join_kind::anti>(probe, build) == pairs{{1, U}, {3, U}});
}

TEST_CASE("joinery.exec.probe.residual_condition") {
  // The residual (j even) drops candidates; a left row with none left is
  // unmatched, a semi row needs one accepted candidate.
  const std::vector<opt> build{10, 10, 20, 20};
  const std::vector<opt> probe{10, 20, 20};
  auto even_j = +[](std::size_t, std::size_t j) { return j % 2 == 0; };
  auto odd_i = +[](std::size_t i, std::size_t) { return i % 2 == 1; };
  CHECK(run<ex::join_kind::inner>(probe, build, even_j) == pairs{{0, 0}, {1, 2}, {2, 2}});
  CHECK(run<ex::join_kind::left>(probe, build, odd_i) == pairs{{0, U}, {1, 2}, {1, 3}, {2, U}});
  CHECK(run<ex::join_kind::semi>(probe, build, odd_i) == pairs{{1, U}});
  CHECK(run<ex::join_kind::anti>(probe, build, odd_i) == pairs{{0, U}, {2, U}});
}

TEST_CASE("joinery.exec.probe.many_rows_cross_prefetch_windows") {
  // 1000 probe rows (many prefetch windows), unique sparse build keys: every
  // probe row in order, each with its one match.
  const std::size_t n = 1000, m = 97;
  std::vector<opt> build(m), probe(n);
  for (std::size_t j = 0; j < m; ++j) build[j] = static_cast<std::int64_t>(j) * 1000003;
  for (std::size_t i = 0; i < n; ++i)
    probe[i] = i % 7 == 3 ? opt{} : opt(static_cast<std::int64_t>((i * 31) % (m + 5)) * 1000003);
  pairs expect;
  for (std::size_t i = 0; i < n; ++i)
    if (probe[i] && *probe[i] / 1000003 < static_cast<std::int64_t>(m))
      expect.emplace_back(i, static_cast<std::size_t>(*probe[i] / 1000003));
  CHECK(run<ex::join_kind::inner>(probe, build) == expect);
}

TEST_CASE("joinery.exec.probe.semi_anti_keep_rows_across_batches") {
  // Kept rows go to the emit in batches of `kept_batch`: thousands of rows,
  // hit or miss at random, on a unique build (one candidate per row) and on
  // one with duplicate keys, with a residual; every kept row once, in order.
  const std::size_t n = 5000;
  std::mt19937 rng(7);
  std::vector<opt> probe(n), unique_build(400), dup_build(400);
  for (std::size_t j = 0; j < unique_build.size(); ++j) {
    unique_build[j] = static_cast<std::int64_t>(j) * 1000003;
    dup_build[j] = static_cast<std::int64_t>(j % 150) * 1000003;
  }
  for (auto& k : probe) k = rng() % 10 == 0 ? opt{} : opt(static_cast<std::int64_t>(rng() % 800) * 1000003);
  auto accept = +[](std::size_t i, std::size_t j) { return (i + j) % 3 != 0; };
  for (const auto* build : {&unique_build, &dup_build}) {
    pairs semi, anti;
    for (std::size_t i = 0; i < n; ++i) {
      bool any = false;
      for (std::size_t j = 0; j < build->size(); ++j)
        any = any || (probe[i] && (*build)[j] == probe[i] && accept(i, j));
      (any ? semi : anti).emplace_back(i, U);
    }
    REQUIRE(semi.size() > 3 * ex::detail::kept_batch);
    REQUIRE(anti.size() > 3 * ex::detail::kept_batch);
    CHECK(run<ex::join_kind::semi>(probe, *build, accept) == semi);
    CHECK(run<ex::join_kind::anti>(probe, *build, accept) == anti);

    ex::arrangement<std::int64_t> a;
    a.build(build->size(), [&](std::size_t j) { return (*build)[j]; });
    pairs threaded;
    ex::probe<ex::join_kind::semi>(
        ex::threads(2, 1), a, n, [&](std::size_t i) { return probe[i]; }, accept,
        [&](std::size_t i, std::size_t j) { threaded.emplace_back(i, j); });
    CHECK(threaded == semi);
  }
}

TEST_CASE("joinery.exec.probe.semi_emit_exception_stops_at_the_throwing_row") {
  // The emit throws at the 200th kept row (inside the second batch): the
  // rows before it were emitted, in order, and no row after it.
  std::vector<opt> build, probe;
  for (std::int64_t k = 0; k < 10; ++k) build.emplace_back(k);
  for (std::size_t i = 0; i < 1000; ++i) probe.emplace_back(static_cast<std::int64_t>(i % 20));
  ex::arrangement<std::int64_t> a;
  a.build(build.size(), [&](std::size_t j) { return build[j]; });
  std::vector<std::size_t> seen;
  CHECK_THROWS_AS(ex::probe<ex::join_kind::semi>(
                      a, probe.size(), [&](std::size_t i) { return probe[i]; },
                      [](std::size_t, std::size_t) { return true; },
                      [&](std::size_t i, std::size_t) {
                        if (seen.size() == 199) throw std::runtime_error("stop");
                        seen.push_back(i);
                      }),
                  std::runtime_error);
  REQUIRE(seen.size() == 199);
  for (std::size_t k = 0; k < seen.size(); ++k) CHECK(seen[k] == (k / 10) * 20 + k % 10);
}

TEST_CASE("joinery.exec.probe.counts_work") {
  const std::vector<opt> build{1, 2, 2, 3};
  const std::vector<opt> probe{2, std::nullopt, 9, 2, 3};
  ex::arrangement<std::int64_t> a;
  a.build(build.size(), [&](std::size_t i) { return build[i]; });
  a.reset_counters();
  std::size_t emitted = 0;
  ex::probe<ex::join_kind::inner>(
      a, probe.size(), [&](std::size_t i) { return probe[i]; }, [](std::size_t, std::size_t) { return true; },
      [&](std::size_t, std::size_t) { ++emitted; });
  CHECK(emitted == 5);
  CHECK(a.counters().probes == 4);   // NULL keys are not looked up
  CHECK(a.counters().emitted == 5);  // candidates handed out
  CHECK(a.counters().inserts == 0);
}

TEST_CASE("joinery.exec.probe.emit_exception_propagates") {
  const std::vector<opt> build{1, 2};
  const std::vector<opt> probe{1, 2, 1};
  ex::arrangement<std::int64_t> a;
  a.build(build.size(), [&](std::size_t i) { return build[i]; });
  std::vector<std::size_t> seen;
  CHECK_THROWS_AS(ex::probe<ex::join_kind::inner>(
                      a, probe.size(), [&](std::size_t i) { return probe[i]; },
                      [](std::size_t, std::size_t) { return true; },
                      [&](std::size_t i, std::size_t) {
                        if (i == 1) throw std::runtime_error("stop");
                        seen.push_back(i);
                      }),
                  std::runtime_error);
  CHECK(seen == std::vector<std::size_t>{0});
}

TEST_CASE("joinery.exec.nested_loop.canonical_order") {
  pairs out;
  ex::nested_loop<ex::join_kind::left>(
      3, 3, [](std::size_t i, std::size_t j) { return i + j == 2 && i != 1; },
      [&](std::size_t i, std::size_t j) { out.emplace_back(i, j); });
  CHECK(out == pairs{{0, 2}, {1, U}, {2, 0}});
}
