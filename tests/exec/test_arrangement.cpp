// The arrangement: groups in first-appearance order, positions in input
// order, NULL keys excluded, the layout choices, and work counts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/exec/arrangement.hpp>

namespace jy = joinery;
using jy::exec::arrangement;
using jy::exec::no_group;
using jy::exec::row_pos;

namespace {
using opt = std::optional<std::int64_t>;
using layout = arrangement<std::int64_t>::layout;

template <class K>
arrangement<K> build_of(const std::vector<std::optional<K>>& keys) {
  arrangement<K> a;
  a.build(keys.size(), [&](std::size_t i) { return keys[i]; });
  return a;
}
std::vector<row_pos> to_vec(std::span<const row_pos> s) { return {s.begin(), s.end()}; }
/// n distinct sparse keys (hashed layout): row i holds (i * stride) * 1000003 + offset.
std::vector<opt> spread_keys(std::size_t n, std::size_t stride, std::size_t offset) {
  std::vector<opt> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<std::int64_t>(i * stride * 1000003 + offset);
  return keys;
}
opt key_is_row(std::size_t i) { return static_cast<std::int64_t>(i); }
/// 200 rows: key (i % 40) * scale at row i, NULL where i % 7 == 1.
std::vector<opt> forty_keys_some_null(std::int64_t scale) {
  std::vector<opt> keys(200);
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (i % 7 != 1) keys[i] = static_cast<std::int64_t>(i % 40) * scale;
  return keys;
}
}  // namespace

TEST_CASE("joinery.exec.arrangement.groups_in_first_appearance_order") {
  // Sparse keys (hashed layout) and dense keys (direct layout) must agree.
  for (std::int64_t scale : {std::int64_t{1}, std::int64_t{1000003}}) {
    const std::vector<opt> keys{5 * scale, 3 * scale, std::nullopt, 5 * scale, 7 * scale, 3 * scale, 5 * scale};
    auto a = build_of(keys);
    CHECK(a.index_layout() == (scale == 1 ? layout::direct : layout::hashed));
    REQUIRE(a.group_count() == 3);
    CHECK(a.group_key(0) == 5 * scale);
    CHECK(a.group_key(1) == 3 * scale);
    CHECK(a.group_key(2) == 7 * scale);
    CHECK(to_vec(a.rows(0)) == std::vector<row_pos>{0, 3, 6});
    CHECK(to_vec(a.rows(1)) == std::vector<row_pos>{1, 5});
    CHECK(to_vec(a.rows(2)) == std::vector<row_pos>{4});
    CHECK(a.group_size(0) == 3);
    CHECK(a.group_size(2) == 1);
    CHECK(a.group_of_row(2) == no_group);
    CHECK(a.group_of_row(6) == 0);
    CHECK(a.group_of_row(5) == 1);
    CHECK(a.find(3 * scale) == 1);
    CHECK(a.find(4 * scale) == no_group);
    CHECK(to_vec(a.matches(5 * scale)) == std::vector<row_pos>{0, 3, 6});
    CHECK(a.matches(99 * scale).empty());
    CHECK(a.keyed_rows() == 6);
    CHECK(a.built_rows() == 7);
    CHECK(!a.unique());
    CHECK(a.duplicate_group_count() == 2);
  }
}

TEST_CASE("joinery.exec.arrangement.unique_build_fast_path") {
  for (std::int64_t scale : {std::int64_t{1}, std::int64_t{1000003}}) {
    // With and without NULLs: group ids skip NULL rows, rows stay right.
    const std::vector<opt> with_null{9 * scale, std::nullopt, 4 * scale, 6 * scale};
    auto a = build_of(with_null);
    CHECK(a.unique());
    CHECK(a.duplicate_group_count() == 0);
    CHECK(a.group_count() == 3);
    CHECK(to_vec(a.rows(a.find(4 * scale))) == std::vector<row_pos>{2});
    CHECK(to_vec(a.matches(6 * scale)) == std::vector<row_pos>{3});
    CHECK(a.group_of_row(0) == 0);
    CHECK(a.group_of_row(1) == no_group);
    CHECK(a.group_of_row(2) == 1);
    CHECK(a.group_of_row(3) == 2);
    CHECK(a.group_size(1) == 1);

    const std::vector<opt> no_null{9 * scale, 4 * scale, 6 * scale};
    auto b = build_of(no_null);
    CHECK(b.unique());
    CHECK(b.group_of_row(1) == 1);
    CHECK(b.group_of_row(2) == 2);
    CHECK(to_vec(b.matches(9 * scale)) == std::vector<row_pos>{0});
  }
}

TEST_CASE("joinery.exec.arrangement.direct_layout_bounds") {
  // Keys below the minimum or above the maximum of a direct layout miss.
  const std::vector<opt> keys{-3, -1, 0, 2, -3};
  auto a = build_of(keys);
  CHECK(a.index_layout() == layout::direct);
  CHECK(a.find(-4) == no_group);
  CHECK(a.find(3) == no_group);
  CHECK(a.find(-2) == no_group);
  CHECK(a.find(-3) == 0);
  CHECK(a.find(2) == 3);
  CHECK(to_vec(a.matches(-3)) == std::vector<row_pos>{0, 4});
  // Extreme values take the hashed layout (the range would not fit).
  const std::vector<opt> wide{INT64_MIN, INT64_MAX, 0};
  auto b = build_of(wide);
  CHECK(b.index_layout() == layout::hashed);
  CHECK(b.find(INT64_MIN) == 0);
  CHECK(b.find(INT64_MAX) == 1);
  CHECK(b.find(1) == no_group);
}

TEST_CASE("joinery.exec.arrangement.empty_and_all_null") {
  auto e = build_of(std::vector<opt>{});
  CHECK(e.group_count() == 0);
  CHECK(e.find(1) == no_group);
  CHECK(e.matches(1).empty());
  CHECK(e.unique());
  auto n = build_of(std::vector<opt>{std::nullopt, std::nullopt});
  CHECK(n.group_count() == 0);
  CHECK(n.keyed_rows() == 0);
  CHECK(n.built_rows() == 2);
  CHECK(n.group_of_row(1) == no_group);
  CHECK(n.find(0) == no_group);
}

TEST_CASE("joinery.exec.arrangement.string_and_tuple_keys") {
  using T = std::tuple<std::int64_t, std::string>;
  const std::vector<std::optional<std::string>> s{"b", "a", "b", std::nullopt, "c"};
  auto a = build_of(s);
  CHECK(a.group_count() == 3);
  CHECK(to_vec(a.matches("b")) == std::vector<row_pos>{0, 2});
  CHECK(a.find("z") == no_group);
  const std::vector<std::optional<T>> t{T{1, "x"}, T{1, "y"}, T{1, "x"}};
  auto b = build_of(t);
  CHECK(b.group_count() == 2);
  CHECK(to_vec(b.matches(T{1, "x"})) == std::vector<row_pos>{0, 2});
  CHECK(b.duplicate_group_count() == 1);
}

TEST_CASE("joinery.exec.arrangement.rebuild_clears_previous_state") {
  arrangement<std::int64_t> a;
  const std::vector<opt> first{1, 1, 2};
  a.build(first.size(), [&](std::size_t i) { return first[i]; });
  CHECK(!a.unique());
  const std::vector<opt> second{5000000000, 7};
  a.build(second.size(), [&](std::size_t i) { return second[i]; });
  CHECK(a.unique());
  CHECK(a.group_count() == 2);
  CHECK(a.find(1) == no_group);
  CHECK(to_vec(a.matches(7)) == std::vector<row_pos>{1});
}

TEST_CASE("joinery.exec.arrangement.work_is_linear") {
  // Build and probe work grow with the row counts, not their product: every
  // keyed row is inserted once, every probe is one lookup, and the key
  // comparisons stay a small constant per lookup (load factor <= 7/10).
  for (std::size_t n : {std::size_t{1000}, std::size_t{100000}}) {
    arrangement<std::int64_t> a;
    a.build(n, [](std::size_t i) -> opt {
      if (i % 10 == 0) return std::nullopt;
      return static_cast<std::int64_t>((i % (i / 3 + 1)) * 1000003);  // duplicates, sparse
    });
    const auto& c = a.counters();
    CHECK(c.inserts == n - n / 10);
    CHECK(c.comparisons <= 4 * c.inserts);
    a.reset_counters();
    for (std::size_t i = 0; i < n; ++i) (void)a.find(static_cast<std::int64_t>(i * 7919));
    CHECK(a.counters().probes == n);
    CHECK(a.counters().comparisons <= 4 * n);
    CHECK(a.counters().emitted == 0);
  }
  // A direct layout compares no keys at all.
  arrangement<std::int64_t> d;
  d.build(1000, [](std::size_t i) { return opt(static_cast<std::int64_t>(i / 2)); });
  CHECK(d.index_layout() == layout::direct);
  CHECK(d.counters().comparisons == 0);
  CHECK(d.duplicate_group_count() == 500);
  CHECK(d.group_count() == 500);
}

TEST_CASE("joinery.exec.arrangement.group_of_row_on_every_path") {
  // The unique fast path stores no per-row map; group_of_row still answers.
  const std::size_t n = 100000;
  arrangement<std::int64_t> u, dup;
  u.build(n, [](std::size_t i) { return opt(static_cast<std::int64_t>(i) * 1000003); });
  dup.build(n, [](std::size_t i) { return opt(static_cast<std::int64_t>(i / 2) * 1000003); });
  CHECK(u.unique());
  CHECK(!dup.unique());
  CHECK(u.group_of_row(n - 1) == n - 1);
  CHECK(dup.group_of_row(n - 1) == n / 2 - 1);
}

TEST_CASE("joinery.exec.arrangement.repeat_or_null_in_the_middle_of_a_batch") {
  // Past the sample (4096 rows) a build inserts each batch of distinct keys
  // at once and hands the rest of the batch, from its first repeated or
  // NULL key, to the row-by-row insert: the groups, rows and row map must
  // come out as if every row had been inserted alone.
  const std::size_t n = 10000;
  for (const bool null_first : {false, true}) {
    std::vector<opt> keys = spread_keys(n, 1, 17);
    // Row 5003 sits in the middle of a batch (5003 - 4096 = 28 * 32 + 11).
    if (null_first) {
      keys[5003] = std::nullopt;
      keys[6010] = keys[4500];
    } else {
      keys[5003] = keys[4500];
      keys[6010] = std::nullopt;
    }
    keys[7777] = keys[6000];
    const auto a = build_of(keys);
    CHECK(a.index_layout() == layout::hashed);
    CHECK(a.counters().inserts == n - 1);
    CHECK(a.keyed_rows() == n - 1);
    CHECK(a.group_count() == n - 3);
    CHECK(!a.unique());
    CHECK(a.duplicate_group_count() == 2);
    const std::size_t repeat = null_first ? 6010 : 5003, null_row = null_first ? 5003 : 6010;
    CHECK(to_vec(a.matches(*keys[4500])) == std::vector<row_pos>{4500, static_cast<row_pos>(repeat)});
    CHECK(to_vec(a.matches(*keys[6000])) == std::vector<row_pos>{6000, 7777});
    CHECK(a.group_of_row(null_row) == no_group);
    CHECK(a.group_of_row(repeat) == 4500);
    CHECK(a.group_of_row(5002) == 5002);
    CHECK(a.group_of_row(5004) == 5003);  // one row before it founded no group
    CHECK(a.group_of_row(6011) == 6009);
    CHECK(a.group_of_row(7777) == a.group_of_row(6000));
    CHECK(a.group_of_row(n - 1) == n - 4);  // the last of n - 3 groups
    CHECK(a.group_key(n - 4) == *keys[n - 1]);
    CHECK(a.find(*keys[5004]) == 5003);
    CHECK(a.counters().comparisons <= 4 * (n - 1));
  }
  // Keys moved into the table (strings): the repeated one is not moved
  // out of the batch before the row-by-row insert reads it.
  std::vector<std::optional<std::string>> words(6000);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = "key " + std::to_string(i * 7919);
  words[5000] = words[4321];
  const auto w = build_of(words);
  CHECK(w.group_count() == 5999);
  CHECK(to_vec(w.matches("key " + std::to_string(4321 * 7919))) == std::vector<row_pos>{4321, 5000});
  CHECK(w.group_key(5000) == "key " + std::to_string(5001 * 7919));
}

TEST_CASE("joinery.exec.arrangement.stage_ahead_order") {
  // The loop of a fold and of the bucket probes: every row of [from, n)
  // staged once and resolved once, in order, `stage_lead` rows after it was
  // staged (or all staged at once when fewer remain), and its ring entry
  // not staged again before it is resolved.
  namespace d = jy::exec::detail;
  for (const std::size_t from : {std::size_t{0}, std::size_t{5}, std::size_t{4096}}) {
    for (const std::size_t count : {std::size_t{0}, std::size_t{1}, d::stage_lead - 1, d::stage_lead,
                                    d::stage_lead + 1, d::stage_ring, std::size_t{1000}}) {
      const std::size_t n = from + count;
      INFO("from " << from << " count " << count);
      std::vector<std::size_t> staged_at(n, 0), resolved_at(n, 0), ring(d::stage_ring, n);
      std::size_t step = 0, next_resolved = from;
      bool entries_kept = true;
      auto stage = [&](std::size_t t, std::size_t i) {
        staged_at[i] = ++step;
        entries_kept = entries_kept && t == i % d::stage_ring && ring[t] == n;  // the entry is free
        ring[t] = i;
      };
      auto resolve = [&](std::size_t t, std::size_t i) {
        resolved_at[i] = ++step;
        entries_kept = entries_kept && i == next_resolved++ && ring[t] == i;
        ring[t] = n;
      };
      d::stage_ahead(from, n, stage, resolve);
      CHECK(entries_kept);
      CHECK(next_resolved == n);
      for (std::size_t i = from; i < n; ++i) {
        REQUIRE(staged_at[i] != 0);
        REQUIRE(staged_at[i] < resolved_at[i]);
        // Staged with the first rows, or just before row i - stage_lead was resolved.
        if (i >= from + d::stage_lead) REQUIRE(staged_at[i] + 1 == resolved_at[i - d::stage_lead]);
        else REQUIRE(staged_at[i] == i - from + 1);
      }
    }
  }
}

TEST_CASE("joinery.exec.arrangement.build_groups_skips_positions") {
  for (std::int64_t scale : {std::int64_t{1}, std::int64_t{1000003}}) {
    const std::vector<opt> keys{5 * scale, 3 * scale, std::nullopt, 5 * scale, 7 * scale};
    arrangement<std::int64_t> a;
    a.build_groups(keys.size(), [&](std::size_t i) { return keys[i]; });
    CHECK(!a.has_rows());
    CHECK(a.group_count() == 3);
    CHECK(a.group_of_row(3) == 0);
    CHECK(a.group_of_row(2) == no_group);
    CHECK(a.group_size(0) == 2);
    CHECK(a.group_size(2) == 1);
    CHECK(a.find(7 * scale) == 2);
    CHECK(a.duplicate_group_count() == 1);
    CHECK(a.rows(0).empty());
    a.build(keys.size(), [&](std::size_t i) { return keys[i]; });
    CHECK(a.has_rows());
    CHECK(to_vec(a.rows(0)) == std::vector<row_pos>{0, 3});
  }
  // A unique grouping still answers rows() (they are the founding rows).
  const std::vector<opt> u{4, 8};
  arrangement<std::int64_t> b;
  b.build_groups(u.size(), [&](std::size_t i) { return u[i]; });
  CHECK(b.has_rows());
  CHECK(to_vec(b.matches(8)) == std::vector<row_pos>{1});
}

TEST_CASE("joinery.exec.arrangement.identity_layout") {
  // Keys min, min+1, ... in row order (a surrogate key): no index array at all.
  const std::vector<opt> keys{-2, -1, 0, 1, 2};
  auto a = build_of(keys);
  CHECK(a.index_layout() == layout::identity);
  CHECK(a.unique());
  CHECK(a.group_count() == 5);
  CHECK(a.find(-3) == no_group);
  CHECK(a.find(3) == no_group);
  CHECK(a.find(0) == 2);
  CHECK(a.group_key(4) == 2);
  CHECK(to_vec(a.matches(1)) == std::vector<row_pos>{3});
  CHECK(a.group_of_row(3) == 3);
  // Not identity: a gap, an order change, a NULL, a wrap-around.
  CHECK(build_of(std::vector<opt>{0, 2, 3}).index_layout() == layout::direct);
  CHECK(build_of(std::vector<opt>{1, 0, 2}).index_layout() == layout::direct);
  CHECK(build_of(std::vector<opt>{0, std::nullopt, 2}).index_layout() == layout::direct);
  auto w = build_of(std::vector<opt>{INT64_MAX, INT64_MIN});
  CHECK(w.index_layout() == layout::identity);  // consecutive modulo 2^64: still one step apart
  CHECK(w.find(INT64_MIN) == 1);
  CHECK(w.find(INT64_MAX) == 0);
  CHECK(w.find(0) == no_group);
}

TEST_CASE("joinery.exec.arrangement.key_filter_on_large_tables") {
  // 800k sparse keys: the table (2^21 slots, 32 MiB) exceeds
  // filter_min_table_bytes, half the 32 MiB the tests fix as the cache.
  REQUIRE(arrangement<std::int64_t>::filter_min_table_bytes() == std::size_t{16} << 20);
  constexpr std::size_t n = 800'000;
  const std::vector<opt> build_keys = spread_keys(n, 2, 7);  // even multiples
  const auto a = build_of(build_keys);
  REQUIRE(a.index_layout() == layout::hashed);
  REQUIRE(a.has_filter());
  // Nor is it probed without guessing (a filter and the guessless lookup
  // were not measured together).
  CHECK(!a.resolves_without_guessing());
  // The build makes no bits: the first probe loop that misses does.
  CHECK(!a.filter_built());
  CHECK(a.filter_size_bits() == 0);
  // A probe loop whose keys all match resolves every probe at its slot and
  // leaves the filter unbuilt (a join whose keys match never pays for it).
  {
    jy::exec::work_counters hits;
    std::size_t found_hits = 0;
    a.probe_rows(
        0, 5000, [&](std::size_t i) { return build_keys[(i * 7919) % n]; },
        [&](std::size_t i, std::span<const row_pos> found) {
          found_hits += found.size() == 1 && found[0] == static_cast<row_pos>((i * 7919) % n);
        },
        hits);
    CHECK(found_hits == 5000);
    CHECK(hits.comparisons >= 5000);
    CHECK(!a.filter_built());
  }
  // The same build without positions (group-by, cardinality checks) has no filter.
  arrangement<std::int64_t> g;
  g.build_groups(n, [&](std::size_t i) { return build_keys[i]; });
  CHECK(!g.has_filter());
  // Small tables have none.
  CHECK(!build_of(std::vector<opt>{1000003, 2000006}).has_filter());

  // Probes: present keys (row i), absent keys (odd multiples), NULLs, in a mixed order.
  auto probe_key = [](std::size_t i) -> opt {
    if (i % 5 == 4) return std::nullopt;
    const std::size_t r = (i * 7919) % n;
    return static_cast<std::int64_t>(r * 2 * 1000003 + 7 + (i % 2 == 0 ? 0 : 1000003));  // odd i: absent
  };
  auto expected = [](std::size_t i) -> std::optional<row_pos> {
    if (i % 5 == 4 || i % 2 == 1) return std::nullopt;
    return static_cast<row_pos>((i * 7919) % n);
  };
  constexpr std::size_t m = 200'000;
  jy::exec::work_counters w;
  std::size_t wrong = 0, present = 0;
  a.probe_rows(
      0, m, probe_key,
      [&](std::size_t i, std::span<const row_pos> found) {
        const auto e = expected(i);
        present += e.has_value();
        if (e ? (found.size() != 1 || found[0] != *e) : !found.empty()) ++wrong;
      },
      w);
  CHECK(wrong == 0);
  CHECK(present == 80'000);
  CHECK(w.probes == m - m / 5);
  // Half its probes missed: that loop built the filter, 8 bits per key.
  REQUIRE(a.filter_built());
  CHECK(a.filter_size_bits() == std::size_t{1} << 23);
  // Absent keys alone: the filter rules out about 8 in 9, which then compare
  // nothing (without it, an absent key meets ~0.8 occupied slots here).
  jy::exec::work_counters absent;
  a.probe_rows(
      0, m, [&](std::size_t i) { return opt(static_cast<std::int64_t>(((i * 7919) % n) * 2 * 1000003 + 7 + 1000003)); },
      [&](std::size_t, std::span<const row_pos> found) { wrong += !found.empty(); }, absent);
  CHECK(wrong == 0);
  CHECK(absent.probes == m);
  CHECK(absent.comparisons * 5 < absent.probes);
  for (std::size_t i = 0; i < 1000; ++i) {
    const auto k = probe_key(i);
    if (!k) continue;
    CHECK((a.find(*k) == no_group) == !expected(i).has_value());
  }

  // All probes present: the loop stops reading the filter and still finds every row.
  std::size_t found_all = 0;
  a.probe_rows(
      0, n, [&](std::size_t i) { return build_keys[(i * 7919) % n]; },
      [&](std::size_t i, std::span<const row_pos> found) {
        found_all += found.size() == 1 && found[0] == static_cast<row_pos>((i * 7919) % n);
      },
      w);
  CHECK(found_all == n);

  // A sample that underestimates the keys (its 4096 rows hold 4085 keys:
  // 11 repeats, so about 766k keys are expected): the table is presized
  // for the estimate and grows as 1.4M keys arrive; the filter, built by the
  // first probe loop that misses, is sized for the keys there are.
  std::vector<opt> more(1'400'000);
  for (std::size_t i = 0; i < more.size(); ++i)
    more[i] = static_cast<std::int64_t>((i < 4096 ? i % 4085 : i) * 2 * 1000003 + 7);
  arrangement<std::int64_t> under;
  under.build_groups(4096, [&](std::size_t i) { return more[i]; });
  REQUIRE(under.estimated_group_count(more.size()) > 700'000);
  REQUIRE(under.estimated_group_count(more.size()) < 1'000'000);
  const auto b = build_of(more);
  REQUIRE(b.group_count() == more.size() - 11);
  CHECK(!b.filter_built());
  std::size_t missed = 0;
  for (std::size_t i = 0; i < more.size(); i += 97) missed += b.find(*more[i]) == no_group;
  CHECK(missed == 0);
  jy::exec::work_counters wb;
  std::size_t absent_found = 0;
  b.probe_rows(
      0, 1000, [&](std::size_t i) { return opt(static_cast<std::int64_t>(i * 2 * 1000003 + 8)); },  // never a key
      [&](std::size_t, std::span<const row_pos> found) { absent_found += found.size(); }, wb);
  CHECK(absent_found == 0);
  CHECK(b.filter_size_bits() == std::size_t{1} << 24);
  missed = 0;
  for (std::size_t i = 0; i < more.size(); i += 97) missed += b.find(*more[i]) == no_group;
  CHECK(missed == 0);
}

TEST_CASE("joinery.exec.arrangement.key_filter_for_mostly_missing_probes") {
  // 200k sparse keys: 2^19 slots (8 MiB), from 4 MiB up to the 16 MiB of
  // filter_min_table_bytes: a filter only for probe loops that mostly miss.
  using arr = arrangement<std::int64_t>;
  REQUIRE(arr::filter_mostly_misses_min_table_bytes == std::size_t{4} << 20);
  REQUIRE(arr::filter_min_table_bytes() == std::size_t{16} << 20);
  constexpr std::size_t n = 200'000;
  const std::vector<opt> build_keys = spread_keys(n, 2, 7);  // even multiples
  auto a = build_of(build_keys);
  const auto twin = build_of(build_keys);  // probed only without a filter
  REQUIRE(a.index_layout() == layout::hashed);
  REQUIRE(a.hashed_extent() == std::size_t{1} << 19);
  CHECK(!a.has_filter());
  CHECK(a.has_filter_for_misses());
  CHECK(!a.filter_built());
  CHECK(a.filter_size_bits() == 0);

  // Row i probes key r(i): present (row r) unless `absent(i)`, an odd multiple.
  auto row_of = [](std::size_t i) { return (i * 7919) % n; };
  auto probe = [&](const arr& on, std::size_t m, auto absent) {
    jy::exec::work_counters w;
    std::size_t wrong = 0, found_rows = 0;
    on.probe_rows(
        0, m,
        [&](std::size_t i) {
          return opt(static_cast<std::int64_t>(row_of(i) * 2 * 1000003 + 7 + (absent(i) ? 1000003 : 0)));
        },
        [&](std::size_t i, std::span<const row_pos> found) {
          found_rows += found.size();
          if (absent(i) ? !found.empty() : (found.size() != 1 || found[0] != static_cast<row_pos>(row_of(i)))) ++wrong;
        },
        w);
    CHECK(wrong == 0);
    CHECK(w.probes == m);
    return std::pair{w, found_rows};
  };
  auto half = [](std::size_t i) { return i % 2 == 1; };
  auto seven_in_eight = [](std::size_t i) { return i % 8 != 0; };
  auto all = [](std::size_t) { return true; };

  // Half the probes missing: not enough to build it.
  CHECK(probe(a, 20'000, half).second == 10'000);
  CHECK(!a.filter_built());
  // Seven in eight missing: that loop builds it, 8 bits per key.
  CHECK(probe(a, 20'000, seven_in_eight).second == 2'500);
  REQUIRE(a.filter_built());
  CHECK(a.filter_size_bits() == std::size_t{1} << 21);
  CHECK(!a.has_filter());  // still the kind kept for mostly-missing probes
  // Absent keys alone: about 8 in 9 ruled out, which compare nothing
  // (without it, an absent key meets ~0.8 occupied slots here).
  const auto [absent_work, absent_found] = probe(a, 20'000, all);
  CHECK(absent_found == 0);
  CHECK(absent_work.comparisons * 5 < absent_work.probes);
  // Half missing again: the filter rules out under half of the first
  // probes (about 4 in 9), and the loop stops reading it (it saved only
  // the few comparisons of those; read throughout, it would save
  // thousands).
  const auto with_bits = probe(a, 20'000, half).first.comparisons;
  const auto without = probe(twin, 20'000, half).first.comparisons;
  CHECK(with_bits <= without);
  CHECK(with_bits + 500 > without);
  CHECK(!twin.filter_built());
  // A copy keeps the kind and the bits.
  const auto copy = a;
  CHECK(copy.has_filter_for_misses());
  CHECK(copy.filter_built());

  // Below 4 MiB (50k keys: 2^17 slots, 2 MiB) and without positions: none.
  const auto small = build_of(spread_keys(50'000, 2, 7));
  REQUIRE(small.hashed_extent() == std::size_t{1} << 17);
  CHECK(!small.has_filter());
  CHECK(!small.has_filter_for_misses());
  jy::exec::work_counters ws;
  small.probe_rows(
      0, 5'000, [&](std::size_t i) { return opt(static_cast<std::int64_t>(i * 2 * 1000003 + 8)); },
      [&](std::size_t, std::span<const row_pos> found) { CHECK(found.empty()); }, ws);
  CHECK(!small.filter_built());
  arrangement<std::int64_t> g;
  g.build_groups(n, [&](std::size_t i) { return build_keys[i]; });
  CHECK(!g.has_filter());
  CHECK(!g.has_filter_for_misses());
}

TEST_CASE("joinery.exec.arrangement.key_filter_built_once_by_concurrent_probes") {
  // Two threads probe one const arrangement with keys that mostly miss:
  // both ask for the filter at once; it is built once, and every probe
  // finds exactly its row (or none). A copy keeps the built bits; a copy
  // made before any probe builds its own.
  constexpr std::size_t n = 800'000;
  const std::vector<opt> build_keys = spread_keys(n, 3, 5);
  const auto a = build_of(build_keys);
  const auto unbuilt_copy = a;
  REQUIRE(a.has_filter());
  REQUIRE(!a.filter_built());
  // Row r of the probe: a key of build row (r * 31) % n when r % 4 == 0, an absent key otherwise.
  auto probe_key = [](std::size_t r) -> opt {
    const std::size_t b = (r * 31) % n;
    return static_cast<std::int64_t>(b * 3 * 1000003 + 5 + (r % 4 == 0 ? 0 : 1));
  };
  constexpr std::size_t m = 400'000;
  std::size_t wrong[2] = {0, 0}, hits[2] = {0, 0};
  jy::exec::work_counters w[2];
  auto part = [&](int p) {
    const std::size_t begin = p == 0 ? 0 : m / 2, end = p == 0 ? m / 2 : m;
    a.probe_rows(
        begin, end, probe_key,
        [&](std::size_t r, std::span<const row_pos> found) {
          const bool present = r % 4 == 0;
          hits[p] += found.size();
          if (present ? (found.size() != 1 || found[0] != static_cast<row_pos>((r * 31) % n)) : !found.empty())
            ++wrong[p];
        },
        w[p]);
  };
  std::thread other(part, 1);
  part(0);
  other.join();
  CHECK(wrong[0] + wrong[1] == 0);
  CHECK(hits[0] + hits[1] == m / 4);
  CHECK(w[0].probes + w[1].probes == m);
  REQUIRE(a.filter_built());
  CHECK(a.filter_size_bits() == std::size_t{1} << 23);
  // With the filter, an absent key compares about 1 time in 9 (without it,
  // about once per occupied slot met): 3 in 4 probes here are absent.
  CHECK((w[0].comparisons + w[1].comparisons) * 2 < m);

  const auto built_copy = a;
  CHECK(built_copy.filter_built());
  CHECK(built_copy.filter_size_bits() == a.filter_size_bits());
  CHECK(!unbuilt_copy.filter_built());
  CHECK(unbuilt_copy.has_filter());
  std::size_t copy_wrong = 0;
  for (std::size_t r = 0; r < 2000; ++r) {
    const auto g = built_copy.find(*probe_key(r));
    copy_wrong += (g != no_group) != (r % 4 == 0);
  }
  CHECK(copy_wrong == 0);
}

TEST_CASE("joinery.exec.arrangement.unique_probe_without_guessing") {
  // A unique hashed build that fits in cache (no filter), probed by a caller
  // that stores the outcome (`probe_rows<true>`): a stream in which hits and
  // misses alternate at random is resolved at the home slot without
  // branching (resolve_unique), one that mostly hits or mostly misses with
  // the ordinary walk. Either way each probe finds what `find` finds, with
  // the same comparisons (occupied slots met, home first).
  constexpr std::size_t n = 50'000;
  const std::vector<opt> build_keys = spread_keys(n, 2, 11);
  const auto a = build_of(build_keys);
  REQUIRE(a.index_layout() == layout::hashed);
  REQUIRE(a.unique());
  REQUIRE(!a.has_filter());
  REQUIRE(a.resolves_without_guessing());
  // Only a unique hashed build without a key filter whose table is within
  // the core's cache (the tests fix it at 32 MiB) is resolved so.
  REQUIRE(arrangement<std::int64_t>::guessless_max_table_bytes() == std::size_t{32} << 20);
  CHECK(!build_of(std::vector<opt>{1000003, 1000003, 2000006}).resolves_without_guessing());  // a duplicate
  CHECK(!build_of(std::vector<opt>{0, 2, 3}).resolves_without_guessing());                    // direct
  CHECK(!build_of(std::vector<opt>{5, 6, 7}).resolves_without_guessing());                    // identity
  // 800k keys: a 32 MiB table, within the limit but with a key filter
  // (key_filter_on_large_tables); 200k keys: at most 8 MiB, no filter.
  const auto beyond = build_of(spread_keys(800'000, 2, 11));
  REQUIRE(beyond.index_layout() == layout::hashed);
  REQUIRE(beyond.hashed_extent() * 16 == arrangement<std::int64_t>::guessless_max_table_bytes());
  REQUIRE(beyond.has_filter());
  CHECK(!beyond.resolves_without_guessing());
  CHECK(build_of(spread_keys(200'000, 2, 11)).resolves_without_guessing());

  std::uint64_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 33;
  };
  // Blocks of 320 probes: a coin toss, then all hits, then all misses, then
  // a coin toss again, ... so the loop switches between its two resolutions.
  constexpr std::size_t m = 64'000;
  std::vector<opt> probes(m);
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t regime = (i / 320) % 3;  // 0: coin toss, 1: hits, 2: misses
    const bool hit = regime == 1 || (regime == 0 && next() % 2 == 0);
    const std::size_t r = next() % n;
    if (i % 97 == 5) probes[i] = std::nullopt;
    else probes[i] = static_cast<std::int64_t>(r * 2 * 1000003 + 11 + (hit ? 0 : 1000003));
  }
  jy::exec::work_counters w;
  std::size_t wrong = 0, hits = 0, calls = 0;
  a.reset_counters();
  a.probe_rows<true>(
      0, m, [&](std::size_t i) { return probes[i]; },
      [&](std::size_t i, std::span<const row_pos> found) {
        wrong += i != calls++;  // in order, once each
        const auto g = probes[i] ? a.find(*probes[i]) : no_group;
        const auto want = to_vec(a.rows(g));
        wrong += to_vec(found) != want;
        hits += !found.empty();
      },
      w);
  CHECK(calls == m);
  CHECK(wrong == 0);
  CHECK(hits > m / 3);
  CHECK(hits < 2 * m / 3);
  CHECK(w.emitted == hits);
  // `find` ran once per keyed probe: the same probes and comparisons.
  CHECK(w.probes == a.counters().probes);
  CHECK(w.comparisons == a.counters().comparisons);
  CHECK(w.comparisons > w.probes / 4);  // collisions were walked

  // The ordinary loop (a caller that branches on the outcome) does the same work.
  jy::exec::work_counters ordinary;
  std::size_t same = 0;
  a.probe_rows(
      0, m, [&](std::size_t i) { return probes[i]; },
      [&](std::size_t i, std::span<const row_pos> found) {
        same += to_vec(found) == to_vec(a.rows(probes[i] ? a.find(*probes[i]) : no_group));
      },
      ordinary);
  CHECK(same == m);
  CHECK(ordinary.comparisons == w.comparisons);
  CHECK(ordinary.emitted == w.emitted);
}

TEST_CASE("joinery.exec.arrangement.for_each_group_visits_groups_in_order") {
  // Key i % 40 (scaled) at row i, NULL where i % 7 == 1: 40 groups (more
  // than the stretch the hashed pass reads ahead). Keys 1, 8, 15, 22, 29
  // and 36 are NULL at their first row, so they are founded one lap later
  // (rows 41, 48, ..., 76) and come last.
  std::vector<std::int64_t> order;
  std::vector<row_pos> leaders;
  for (std::int64_t m = 0; m < 40; ++m)
    if (m % 7 != 1) order.push_back(m), leaders.push_back(static_cast<row_pos>(m));
  for (std::int64_t m = 1; m < 40; m += 7) order.push_back(m), leaders.push_back(static_cast<row_pos>(m + 40));
  for (std::int64_t scale : {std::int64_t{1}, std::int64_t{1000003}}) {
    const std::vector<opt> keys = forty_keys_some_null(scale);
    auto a = build_of(keys);
    CHECK(a.index_layout() == (scale == 1 ? layout::direct : layout::hashed));
    std::vector<std::int64_t> seen_keys;
    std::vector<row_pos> seen_leaders;
    std::size_t next = 0;
    a.for_each_group([&](jy::exec::group_id g, const std::int64_t& k, row_pos leader) {
      CHECK(g == next++);
      seen_keys.push_back(k / scale);
      seen_leaders.push_back(leader);
    });
    CHECK(seen_keys == order);
    CHECK(seen_leaders == leaders);
  }
  // The identity layout (row g holds key 100 + g) and an empty build.
  auto id = build_of(std::vector<opt>{100, 101, 102});
  REQUIRE(id.index_layout() == layout::identity);
  std::vector<std::pair<std::int64_t, row_pos>> seen;
  id.for_each_group([&](jy::exec::group_id, const std::int64_t& k, row_pos leader) { seen.emplace_back(k, leader); });
  CHECK(seen == std::vector<std::pair<std::int64_t, row_pos>>{{100, 0}, {101, 1}, {102, 2}});
  arrangement<std::int64_t> none;
  none.build(0, [](std::size_t) { return opt{}; });
  none.for_each_group([](jy::exec::group_id, const std::int64_t&, row_pos) { FAIL("an empty build has no group"); });
}

TEST_CASE("joinery.exec.arrangement.for_each_group_in_slot_order_visits_every_group_once") {
  // The keys and NULLs of the test above: each group once, with its own
  // key and leader, in any order (slot order for the hashed layout, group
  // order for the direct one), and nothing for an empty build.
  for (std::int64_t scale : {std::int64_t{1}, std::int64_t{1000003}}) {
    const std::vector<opt> keys = forty_keys_some_null(scale);
    auto a = build_of(keys);
    REQUIRE(a.index_layout() == (scale == 1 ? layout::direct : layout::hashed));
    using visit = std::tuple<jy::exec::group_id, std::int64_t, row_pos>;
    std::vector<visit> in_order, in_slots;
    a.for_each_group([&](jy::exec::group_id g, const std::int64_t& k, row_pos l) { in_order.emplace_back(g, k, l); });
    std::vector<jy::exec::group_id> slot_groups;
    a.for_each_group_in_slot_order([&](jy::exec::group_id g, const std::int64_t& k, row_pos l) {
      in_slots.emplace_back(g, k, l);
      slot_groups.push_back(g);
    });
    REQUIRE(in_slots.size() == 40);
    if (scale == 1) {
      CHECK(in_slots == in_order);
    } else {
      // Slot order: the groups' home slots do not ascend with their ids.
      std::vector<std::size_t> slots;
      for (const jy::exec::group_id g : slot_groups) slots.push_back(a.home_slot_of(a.group_key(g)));
      CHECK(std::is_sorted(slots.begin(), slots.end()));
      CHECK_FALSE(std::is_sorted(slot_groups.begin(), slot_groups.end()));
      std::sort(in_slots.begin(), in_slots.end());
      CHECK(in_slots == in_order);
    }
  }
  arrangement<std::int64_t> none;
  none.build(0, [](std::size_t) { return opt{}; });
  none.for_each_group_in_slot_order(
      [](jy::exec::group_id, const std::int64_t&, row_pos) { FAIL("an empty build has no group"); });
}

TEST_CASE("joinery.exec.arrangement.find_each_finds_as_find_does") {
  // Keys looked up past the stretch read ahead (100 of them), every
  // second one absent, in every layout: the same group as `find`, each key
  // once and in order, and one probe counted per key.
  for (std::int64_t scale : {std::int64_t{1}, std::int64_t{1000003}}) {
    std::vector<opt> built(300);
    for (std::size_t i = 0; i < built.size(); ++i)
      if (i % 5 != 3) built[i] = static_cast<std::int64_t>(i % 60) * 2 * scale;
    for (const bool identity : {false, true}) {
      if (identity && scale != 1) continue;
      std::vector<opt> keys = built;
      if (identity)
        for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<std::int64_t>(i);
      auto a = build_of(keys);
      CHECK(a.index_layout() == (identity ? layout::identity : scale == 1 ? layout::direct : layout::hashed));
      std::vector<std::int64_t> wanted(100);
      for (std::size_t l = 0; l < wanted.size(); ++l)
        wanted[l] = static_cast<std::int64_t>((l * 37) % 100) * (identity ? 4 : scale);  // odd multiples: absent
      std::vector<jy::exec::group_id> expected, seen;
      std::vector<std::size_t> order;
      for (const std::int64_t k : wanted) expected.push_back(a.find(k));
      a.reset_counters();
      a.find_each(
          wanted.size(), [&](std::size_t l) -> const std::int64_t& { return wanted[l]; },
          [&](std::size_t l, jy::exec::group_id g) {
            order.push_back(l);
            seen.push_back(g);
          });
      CHECK(seen == expected);
      CHECK(order.size() == wanted.size());
      CHECK(std::is_sorted(order.begin(), order.end()));
      CHECK(a.counters().probes == wanted.size());
      const auto found = static_cast<std::size_t>(std::count_if(seen.begin(), seen.end(),
                                                                [](jy::exec::group_id g) { return g != no_group; }));
      CHECK(found == (identity ? 75 : 40));  // keys 2m with m % 5 != 3, m < 50; rows 0..299
      // A key returned by value, and no key at all.
      std::vector<jy::exec::group_id> by_value;
      a.find_each(
          wanted.size(), [&](std::size_t l) { return wanted[l]; },
          [&](std::size_t, jy::exec::group_id g) { by_value.push_back(g); });
      CHECK(by_value == expected);
      a.find_each(0, [&](std::size_t) -> std::int64_t { FAIL("no key to read"); return 0; },
                  [](std::size_t, jy::exec::group_id) { FAIL("no key to find"); });
    }
  }
  // An empty build finds nothing.
  arrangement<std::int64_t> none;
  none.build(0, [](std::size_t) { return opt{}; });
  std::vector<jy::exec::group_id> seen;
  none.find_each(3, [](std::size_t l) { return static_cast<std::int64_t>(l); },
                 [&](std::size_t, jy::exec::group_id g) { seen.push_back(g); });
  CHECK(seen == std::vector<jy::exec::group_id>(3, no_group));
}

TEST_CASE("joinery.exec.arrangement.for_each_group_by_key_visits_the_direct_layout_in_key_order") {
  using visit = std::tuple<std::size_t, jy::exec::group_id, row_pos>;
  auto visits = [](const arrangement<std::int64_t>& a) {
    std::vector<visit> seen;
    a.for_each_group_by_key([&](std::size_t x, jy::exec::group_id g, row_pos leader) { seen.emplace_back(x, g, leader); });
    return seen;
  };
  // Keys 10..14 in shuffled rows, none NULL: row r founded group r.
  auto own = build_of(std::vector<opt>{12, 10, 14, 11, 13});
  REQUIRE(own.index_layout() == layout::direct);
  CHECK(visits(own) == std::vector<visit>{{0, 1, 1}, {1, 3, 3}, {2, 0, 0}, {3, 4, 4}, {4, 2, 2}});
  // A NULL row and a repeated key: groups are founded by the first row of
  // their key (key 12 at row 1, founding group 0 there; key 20 at row 4 is
  // group 2); keys 14..19 have no row and are skipped.
  auto shared = build_of(std::vector<opt>{opt{}, 12, 13, 12, 20, 13});
  REQUIRE(shared.index_layout() == layout::direct);
  CHECK(visits(shared) == std::vector<visit>{{0, 0, 1}, {1, 1, 2}, {8, 2, 4}});
  // Distinct keys after a NULL: every group's leader is one row after it.
  auto after_null = build_of(std::vector<opt>{opt{}, 7, 5, 6});
  CHECK(visits(after_null) == std::vector<visit>{{0, 1, 2}, {1, 2, 3}, {2, 0, 1}});
  // Nothing for the identity or a hashed layout.
  auto id = build_of(std::vector<opt>{100, 101, 102});
  REQUIRE(id.index_layout() == layout::identity);
  CHECK(visits(id).empty());
  auto hashed = build_of(std::vector<opt>{0, 1000003, 2000006});
  REQUIRE(hashed.index_layout() == layout::hashed);
  CHECK(visits(hashed).empty());
}

TEST_CASE("joinery.exec.arrangement.estimated_group_count_from_a_sample") {
  // 100 sampled rows, every other one NULL, the others distinct: 1000 rows
  // are expected to hold 500 keyed rows, hence at most 500 groups.
  std::vector<opt> half_null(100);
  for (std::size_t i = 0; i < half_null.size(); i += 2) half_null[i] = static_cast<std::int64_t>(i) * 1000003;
  arrangement<std::int64_t> a;
  a.build_groups(half_null.size(), [&](std::size_t i) { return half_null[i]; });
  CHECK(a.estimated_group_count(1000) == 500);
  // No NULL, all distinct: every row a group.
  std::vector<opt> distinct(100);
  for (std::size_t i = 0; i < distinct.size(); ++i) distinct[i] = static_cast<std::int64_t>(i) * 1000003;
  a.build_groups(distinct.size(), [&](std::size_t i) { return distinct[i]; });
  CHECK(a.estimated_group_count(1000) == 1000);
  // 100 rows over 10 keys: 90 repeats, d + s^2/(2r) = 10 + 10000/180 = 65, below the 1000 keyed rows.
  std::vector<opt> ten(100);
  for (std::size_t i = 0; i < ten.size(); ++i) ten[i] = static_cast<std::int64_t>(i % 10) * 1000003;
  a.build_groups(ten.size(), [&](std::size_t i) { return ten[i]; });
  CHECK(a.estimated_group_count(1000) == 65);
}

TEST_CASE("joinery.exec.arrangement.probe_rows_calls_an_lvalue_on_itself") {
  // The loop works on its own copy of a small closure only when the caller
  // cannot see the difference: an `on` the caller passes by name, holding
  // its state by value, must be the object the rows reach.
  for (std::int64_t scale : {std::int64_t{1}, std::int64_t{1000003}}) {  // direct, hashed
    std::vector<opt> keys;
    for (std::int64_t k = 0; k < 100; ++k) keys.push_back(k * 2 * scale);
    const auto a = build_of(keys);
    struct tally {
      std::size_t rows = 0, hits = 0;
      row_pos last = 0;
      void operator()(std::size_t, std::span<const row_pos> found) {
        ++rows;
        hits += found.size();
        if (!found.empty()) last = found[0];
      }
    };
    static_assert(std::is_trivially_copyable_v<tally>);
    tally on;
    jy::exec::work_counters w;
    // Probe keys 0, 1, ..., 299 (times scale): the even ones below 200 hit row k / 2.
    a.probe_rows(0, 300, [scale](std::size_t i) { return opt(static_cast<std::int64_t>(i) * scale); }, on, w);
    CHECK(on.rows == 300);
    CHECK(on.hits == 100);
    CHECK(on.last == 99);
    CHECK(w.probes == 300);
    CHECK(w.emitted == 100);
  }
  // A plain function as `key_at` is called by reference.
  const auto a = build_of(std::vector<opt>{0, 2, 4});
  std::size_t hits = 0;
  jy::exec::work_counters w;
  a.probe_rows(0, 6, key_is_row, [&](std::size_t, std::span<const row_pos> found) { hits += found.size(); }, w);
  CHECK(hits == 3);
}

TEST_CASE("joinery.exec.arrangement.fold_calls_a_changing_fold_itself") {
  // A fold whose call operator is not const may keep state in itself: the
  // loop must call that object, not a copy (direct and hashed layouts).
  for (std::int64_t scale : {std::int64_t{1}, std::int64_t{1000003}}) {
    struct counting_fold {
      std::size_t calls = 0;
      void operator()(std::int64_t& acc, std::size_t i) {
        ++calls;
        acc += static_cast<std::int64_t>(i);
      }
    };
    static_assert(std::is_trivially_copyable_v<counting_fold>);
    counting_fold fold;
    arrangement<std::int64_t> a;
    // Keys 0, 1, 2, 0, 1, 2, ... (times scale) over 3000 rows, every 7th NULL.
    const auto acc = a.fold_groups(
        3000, [scale](std::size_t i) { return i % 7 == 6 ? opt() : opt(static_cast<std::int64_t>(i % 3) * scale); },
        std::int64_t{0}, fold);
    std::size_t keyed = 0;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < 3000; ++i)
      if (i % 7 != 6) ++keyed, total += static_cast<std::int64_t>(i);
    CHECK(fold.calls == keyed);
    REQUIRE(acc.size() == 3);
    CHECK(acc[0] + acc[1] + acc[2] == total);
  }
}
