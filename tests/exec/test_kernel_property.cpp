// Property: on random relations, the kernel (arrangement + batched probe,
// serial and 2-thread) emits exactly what the naive nested loop over
// key_equal emits, row for row and in order. Keys include NULLs, duplicates,
// NaN, -0.0, dense and sparse integers (both layouts), strings and empty sides.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <joinery/core/key.hpp>
#include <joinery/exec/equi_join.hpp>
#include <joinery/exec/prefetch_build.hpp>
#include <joinery/exec/threads.hpp>

namespace jy = joinery;
namespace ex = jy::exec;

namespace {
using pairs = std::vector<std::pair<std::size_t, std::size_t>>;

template <ex::join_kind K, class V>
void check_kind(const std::vector<std::optional<V>>& l, const std::vector<std::optional<V>>& r, std::size_t salt) {
  using key_t = jy::canonical_key_t<V>;
  auto key_of = [](const std::vector<std::optional<V>>& side) {
    return [&side](std::size_t i) -> std::optional<key_t> {
      if (!side[i]) return std::nullopt;
      return jy::canonical(*side[i]);
    };
  };
  // A residual condition on half the pairs, so accept() matters too.
  auto accept = [salt](std::size_t i, std::size_t j) { return (i * 3 + j + salt) % 4 != 0; };
  pairs expect;
  ex::nested_loop<K>(
      l.size(), r.size(),
      [&](std::size_t i, std::size_t j) { return l[i] && r[j] && jy::key_equal(*l[i], *r[j]) && accept(i, j); },
      [&](std::size_t i, std::size_t j) { expect.emplace_back(i, j); });

  ex::arrangement<key_t> a;
  a.build(r.size(), key_of(r));
  pairs serial, threaded;
  ex::probe<K>(a, l.size(), key_of(l), accept, [&](std::size_t i, std::size_t j) { serial.emplace_back(i, j); });
  ex::probe<K>(ex::threads(2, 1), a, l.size(), key_of(l), accept,
               [&](std::size_t i, std::size_t j) { threaded.emplace_back(i, j); });
  REQUIRE(serial == expect);
  REQUIRE(threaded == expect);
  // The same through `prefetch_build`, with a column large enough that pairs are held back.
  static const std::vector<std::int64_t> values(std::size_t{1} << 17);
  pairs held_back;
  auto w = ex::prefetch_build([&](std::size_t i, std::size_t j) { held_back.emplace_back(i, j); }, values);
  REQUIRE(w.prefetching());
  ex::probe<K>(a, l.size(), key_of(l), accept, w);
  REQUIRE(held_back == expect);
}

template <class V, class Gen>
void run_cases(std::size_t cases, std::uint32_t seed, Gen gen) {
  std::mt19937 rng(seed);
  for (std::size_t c = 0; c < cases; ++c) {
    // Empty sides are frequent; sizes up to 80 cross several prefetch windows.
    const std::size_t nl = rng() % 6 == 0 ? 0 : rng() % 80;
    const std::size_t nr = rng() % 6 == 0 ? 0 : rng() % 60;
    const unsigned null_pct = rng() % 3 == 0 ? 0 : rng() % 40;
    const std::size_t domain = 1 + rng() % 40;
    std::vector<std::optional<V>> l(nl), r(nr);
    for (auto* side : {&l, &r})
      for (auto& v : *side)
        if (rng() % 100 >= null_pct) v = gen(rng, domain);
    INFO("case " << c << " seed " << seed);
    check_kind<ex::join_kind::inner>(l, r, c);
    check_kind<ex::join_kind::left>(l, r, c);
    check_kind<ex::join_kind::semi>(l, r, c);
    check_kind<ex::join_kind::anti>(l, r, c);
  }
}
}  // namespace

TEST_CASE("joinery.exec.property.kernel_equals_nested_loop_doubles") {
  // NaN payloads differ, -0.0 and 0.0 are one key.
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(), -std::nan("3"), -0.0, 0.0, 1.5,
                             -1.5, std::numeric_limits<double>::infinity()};
  run_cases<double>(400, 11, [&](std::mt19937& rng, std::size_t domain) {
    if (rng() % 3 == 0) return specials[rng() % 7];
    return static_cast<double>(rng() % domain) * 0.25;
  });
}

TEST_CASE("joinery.exec.property.kernel_equals_nested_loop_dense_ints") {
  // Small ranges: the direct layout (including negative keys).
  run_cases<int>(400, 12, [](std::mt19937& rng, std::size_t domain) {
    return static_cast<int>(rng() % domain) - 5;
  });
}

TEST_CASE("joinery.exec.property.kernel_equals_nested_loop_sparse_ints") {
  // Spread keys: the hashed layout, incl. unique builds (large domain).
  run_cases<std::int64_t>(400, 13, [](std::mt19937& rng, std::size_t domain) {
    const std::uint64_t spread = rng() % 2 ? domain : domain * 1000;
    return static_cast<std::int64_t>(rng() % spread) * 1000003 - 7;
  });
}

TEST_CASE("joinery.exec.property.kernel_equals_nested_loop_strings") {
  run_cases<std::string>(200, 14, [](std::mt19937& rng, std::size_t domain) {
    // Long strings too (heap-allocated, compared by content).
    return std::string(rng() % 2 ? 1 : 24, 'k') + std::to_string(rng() % domain);
  });
}

TEST_CASE("joinery.exec.property.group_structure") {
  // rows(g) partitions the keyed build rows, in input order, groups in order
  // of first appearance; duplicate_group_count and unique() agree.
  std::mt19937 rng(15);
  for (int c = 0; c < 300; ++c) {
    const std::size_t n = rng() % 100;
    const std::uint64_t domain = 1 + rng() % 120;
    const std::int64_t spread = rng() % 2 ? 1 : 1000003;
    std::vector<std::optional<std::int64_t>> k(n);
    for (auto& v : k)
      if (rng() % 10) v = static_cast<std::int64_t>(rng() % domain) * spread;
    ex::arrangement<std::int64_t> a;
    a.build(n, [&](std::size_t i) { return k[i]; });
    std::vector<std::int64_t> first_seen;
    std::vector<std::vector<ex::row_pos>> groups;
    for (std::size_t i = 0; i < n; ++i) {
      if (!k[i]) {
        REQUIRE(a.group_of_row(i) == ex::no_group);
        continue;
      }
      std::size_t g = 0;
      while (g < first_seen.size() && first_seen[g] != *k[i]) ++g;
      if (g == first_seen.size()) {
        first_seen.push_back(*k[i]);
        groups.emplace_back();
      }
      groups[g].push_back(static_cast<ex::row_pos>(i));
      REQUIRE(a.group_of_row(i) == g);
    }
    REQUIRE(a.group_count() == first_seen.size());
    std::size_t dups = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const auto rows = a.rows(static_cast<ex::group_id>(g));
      REQUIRE(std::vector<ex::row_pos>(rows.begin(), rows.end()) == groups[g]);
      REQUIRE(a.group_key(static_cast<ex::group_id>(g)) == first_seen[g]);
      REQUIRE(a.group_size(static_cast<ex::group_id>(g)) == groups[g].size());
      dups += groups[g].size() > 1;
    }
    REQUIRE(a.duplicate_group_count() == dups);
    REQUIRE(a.unique() == (dups == 0));
  }
}

TEST_CASE("joinery.exec.property.large_builds_match_a_map_reference") {
  // Builds past the sizing sample and across many batches (hashed and direct,
  // unique and with duplicates), checked against a std::map reference; then a
  // probe of every key and of absent keys.
  std::mt19937_64 rng(16);
  for (int c = 0; c < 12; ++c) {
    const std::size_t n = c % 2 ? 50000 : 7000;
    const std::uint64_t domain = c % 3 == 0 ? n * 8 : (c % 3 == 1 ? n / 7 : 50);
    const std::int64_t spread = c % 4 < 2 ? 1 : 1000003;
    std::vector<std::optional<std::int64_t>> k(n);
    for (auto& v : k)
      if (rng() % 50) v = static_cast<std::int64_t>(rng() % domain) * spread - 17;
    if (c == 0)  // one unique build: a permutation of 0..n-1, spread
      for (std::size_t i = 0; i < n; ++i) k[i] = static_cast<std::int64_t>((i * 7919) % n) * spread;
    if (c == 4)  // a surrogate key: min, min + 1, ... in row order (the identity layout)
      for (std::size_t i = 0; i < n; ++i) k[i] = static_cast<std::int64_t>(i) - 17;
    ex::arrangement<std::int64_t> a;
    a.build(n, [&](std::size_t i) { return k[i]; });
    std::map<std::int64_t, std::vector<ex::row_pos>> ref;
    std::vector<std::int64_t> order;
    for (std::size_t i = 0; i < n; ++i) {
      if (!k[i]) continue;
      auto& rows = ref[*k[i]];
      if (rows.empty()) order.push_back(*k[i]);
      rows.push_back(static_cast<ex::row_pos>(i));
    }
    INFO("case " << c);
    REQUIRE(a.group_count() == order.size());
    // Compared as whole vectors: one assertion per property, not per row.
    std::size_t dups = 0;
    std::vector<std::int64_t> keys;
    std::vector<std::vector<ex::row_pos>> got_rows, ref_rows;
    for (std::size_t g = 0; g < order.size(); ++g) {
      keys.push_back(a.group_key(static_cast<ex::group_id>(g)));
      const auto rows = a.rows(static_cast<ex::group_id>(g));
      got_rows.emplace_back(rows.begin(), rows.end());
      ref_rows.push_back(ref[order[g]]);
      dups += ref[order[g]].size() > 1;
    }
    REQUIRE(keys == order);
    REQUIRE(got_rows == ref_rows);
    REQUIRE(a.duplicate_group_count() == dups);
    REQUIRE(a.unique() == (dups == 0));
    if (c == 0) REQUIRE(a.unique());
    if (c == 4) REQUIRE(a.index_layout() == ex::arrangement<std::int64_t>::layout::identity);
    std::vector<ex::group_id> by_row, by_find;
    for (std::size_t i = 0; i < n; ++i) {
      by_row.push_back(a.group_of_row(i));
      by_find.push_back(k[i] ? a.find(*k[i]) : ex::no_group);
    }
    REQUIRE(by_row == by_find);
    // Probe: keys present and absent, in order, through the batched loop.
    std::vector<std::optional<std::int64_t>> p(domain < 1000 ? 300 : n / 2);  // bounded output
    for (auto& v : p)
      if (rng() % 20) v = static_cast<std::int64_t>(rng() % (domain + domain / 4)) * spread - 17;
    pairs got, expect;
    ex::probe<ex::join_kind::inner>(
        a, p.size(), [&](std::size_t i) { return p[i]; }, [](std::size_t, std::size_t) { return true; },
        [&](std::size_t i, std::size_t j) { got.emplace_back(i, j); });
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (!p[i]) continue;
      auto it = ref.find(*p[i]);
      if (it == ref.end()) continue;
      for (auto j : it->second) expect.emplace_back(i, j);
    }
    REQUIRE(got == expect);
    // And with the build's values prefetched (held back from 2^17 int64s).
    std::vector<std::int64_t> values(std::max(n, std::size_t{1} << 17));
    pairs held_back;
    ex::probe<ex::join_kind::inner>(
        a, p.size(), [&](std::size_t i) { return p[i]; }, [](std::size_t, std::size_t) { return true; },
        ex::prefetch_build([&](std::size_t i, std::size_t j) { held_back.emplace_back(i, j); }, values));
    REQUIRE(held_back == expect);
  }
}
