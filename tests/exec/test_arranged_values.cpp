// exec::arrange_values / with_values: an emit handed the build-side values of
// each match sees exactly the pairs a bare emit sees, in the same order, with
// the values the columns hold at j, whether the values were laid out by key
// (a direct layout of distinct keys beyond the cache), in buckets (a hashed
// layout of distinct keys) or read at j.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/exec/arranged_values.hpp>
#include <joinery/exec/equi_join.hpp>
#include <probe_keys.hpp>

namespace jy = joinery;
namespace ex = jy::exec;

namespace {
using opt = std::optional<std::int64_t>;
using arrangement = ex::arrangement<std::int64_t>;
using layout = arrangement::layout;
constexpr std::size_t U = ex::unmatched;

struct recorder {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  void operator()(std::size_t i, std::size_t j) { out.emplace_back(i, j); }
};
using valued_row = std::tuple<std::size_t, std::size_t, std::int64_t, double>;
struct valued_recorder {
  std::vector<valued_row> out;
  void operator()(std::size_t i, std::size_t j, std::int64_t v, double d) { out.emplace_back(i, j, v, d); }
};

/// A build side of `m` rows (keys as `test::build_keys` makes them) and two value columns.
struct build_side {
  std::vector<opt> keys;
  std::vector<std::int64_t> values;
  std::vector<double> weights;
};
build_side make_build(std::size_t m, std::size_t dup, bool dense) {
  build_side b{jy::test::build_keys(m, dup, dense), std::vector<std::int64_t>(m), std::vector<double>(m)};
  for (std::size_t j = 0; j < m; ++j) {
    b.values[j] = static_cast<std::int64_t>(j % 1000) - 500;
    b.weights[j] = static_cast<double>(j) / 4;
  }
  return b;
}
/// Probe keys with some below the smallest build key (negative for a dense build).
std::vector<opt> make_probe(std::size_t n, std::size_t m, std::size_t dup, bool dense) {
  return jy::test::probe_keys(n, m, dup, dense, /*below=*/true);
}

auto residual = [](std::size_t i, std::size_t j) { return (i + j) % 13 != 0; };

/// What `with_values` must hand over: the bare emit's pairs with the columns' values at j.
std::vector<valued_row> expected(const recorder& bare, const build_side& b) {
  std::vector<valued_row> rows;
  for (const auto& [i, j] : bare.out)
    rows.emplace_back(i, j, j == U ? 0 : b.values[j], j == U ? 0.0 : b.weights[j]);
  return rows;
}

template <ex::join_kind K>
void check_kind(const arrangement& a, const build_side& b, const std::vector<opt>& probe, bool laid_out,
                bool in_buckets, bool without_holes = false) {
  auto key_at = [&](std::size_t i) { return probe[i]; };
  recorder bare;
  a.reset_counters();
  ex::probe<K>(a, probe.size(), key_at, residual, bare);
  const ex::work_counters bare_work = a.counters();
  REQUIRE(!bare.out.empty());

  const auto values = ex::arrange_values(a, b.values, b.weights);
  CHECK(values.laid_out() == laid_out);
  CHECK_FALSE(values.laid_out_in_buckets());  // by a probe loop long enough to pay for them only
  CHECK(values.laid_out_without_holes() == without_holes);
  const std::size_t pays = values.bucket_min_probes_per_key * a.group_count();
  if (probe.size() < pays) {
    // Too short a loop reads the slots and the columns at j.
    auto short_loop = ex::with_values(valued_recorder{}, values);
    ex::probe<K>(a, probe.size(), key_at, residual, short_loop);
    CHECK(short_loop.base().out == expected(bare, b));
    CHECK_FALSE(values.laid_out_in_buckets());
  }
  // Laid out as for a long loop: the probes below read the buckets.
  CHECK(values.lay_out_in_buckets_for(pays) == in_buckets);
  CHECK(values.laid_out_in_buckets() == in_buckets);
  auto valued = ex::with_values(valued_recorder{}, values);
  a.reset_counters();
  ex::probe<K>(a, probe.size(), key_at, residual, valued);
  CHECK(valued.base().out == expected(bare, b));
  CHECK(a.counters().probes == bare_work.probes);
  CHECK(a.counters().emitted == bare_work.emitted);
  // The same walk (with a key filter the bare probe's first rows ran
  // before the filter's bits existed, and compared more). In buckets, one
  // comparison per bucket read: at least one per keyed row, and fewer than
  // the slots' walk, which compares about one key and a half per hit.
  if (values.laid_out_in_buckets()) {
    CHECK(a.counters().comparisons >= a.counters().probes);
    CHECK(a.counters().comparisons < bare_work.comparisons);
  } else if (!a.has_filter()) {
    CHECK(a.counters().comparisons == bare_work.comparisons);
  }

  // Two threads, each part into its own emit, and the threaded probe into one.
  auto parts = ex::probe_parts<K>(ex::threads(2, 1000), a, probe.size(), key_at, residual,
                                  [&](std::size_t) { return ex::with_values(valued_recorder{}, values); });
  REQUIRE(parts.size() == 2);
  std::vector<valued_row> joined;
  for (const auto& p : parts) joined.insert(joined.end(), p.base().out.begin(), p.base().out.end());
  CHECK(joined == expected(bare, b));
  valued_recorder threaded;
  ex::probe<K>(ex::threads(2, 1000), a, probe.size(), key_at, residual, ex::with_values(threaded, values));
  CHECK(threaded.out == expected(bare, b));
}

template <ex::join_kind K>
void check_layouts(std::size_t m) {
  // Laid out by key for a direct layout of distinct keys, in buckets for a
  // hashed layout of distinct keys (with a key filter or not: see
  // laid_out_in_buckets_also_where_the_build_keeps_a_key_filter), whatever the columns' size (140000
  // int64s reach `prefetch_min_column_bytes`; 1000 do not). Other builds
  // read the columns at j, prefetched beyond that size.
  const bool large = m * sizeof(std::int64_t) >= ex::prefetch_min_column_bytes;
  for (const std::size_t dup : {std::size_t{1}, std::size_t{3}}) {
    for (const bool dense : {false, true}) {
      CAPTURE(m, dup, dense);
      const build_side b = make_build(m, dup, dense);
      arrangement a;
      a.build(m, [&](std::size_t j) { return b.keys[j]; });
      REQUIRE(a.index_layout() == (dense ? layout::direct : layout::hashed));
      REQUIRE(!a.has_filter());
      check_kind<K>(a, b, make_probe(5000, m, dup, dense), dense && dup == 1, !dense && dup == 1);
      CHECK(ex::arrange_values(a, b.values).columns_beyond_cache() == large);
    }
  }
  // Keys 0..m-1 in shuffled rows, none NULL: a direct layout without a
  // hole, whose values are laid out alone in key order.
  {
    CAPTURE(m);
    build_side b = make_build(m, 1, true);
    for (std::size_t j = 0; j < m; ++j) b.keys[j] = static_cast<std::int64_t>((j * 7919) % m);
    arrangement a;
    a.build(m, [&](std::size_t j) { return b.keys[j]; });
    REQUIRE(a.index_layout() == layout::direct);
    REQUIRE(a.group_count() == a.direct_extent());
    check_kind<K>(a, b, make_probe(5000, m, 1, true), false, false, true);
  }
  // The identity layout (keys 0..m-1 in row order): the columns are already in key order.
  CAPTURE(m);
  build_side b = make_build(m, 1, true);
  for (std::size_t j = 0; j < m; ++j) b.keys[j] = static_cast<std::int64_t>(j);
  arrangement a;
  a.build(m, [&](std::size_t j) { return b.keys[j]; });
  REQUIRE(a.index_layout() == layout::identity);
  check_kind<K>(a, b, make_probe(5000, m, 1, true), false, false);
}
}  // namespace

TEST_CASE("joinery.exec.arranged_values.same_pairs_with_their_values") {
  for (const std::size_t m : {std::size_t{140000}, std::size_t{1000}}) {
    check_layouts<ex::join_kind::inner>(m);
    check_layouts<ex::join_kind::left>(m);
  }
}

TEST_CASE("joinery.exec.arranged_values.entries_hold_each_keys_row_and_values") {
  // Keys 10..140009 in shuffled rows, key 10+5 missing (row 5's key is NULL).
  const std::size_t m = 140000;
  std::vector<opt> keys(m);
  std::vector<std::int64_t> values(m);
  for (std::size_t j = 0; j < m; ++j) {
    keys[j] = j == 5 ? opt{} : opt(static_cast<std::int64_t>((j * 7919) % m) + 10);
    values[j] = static_cast<std::int64_t>(j) * 3;
  }
  arrangement a;
  a.build(m, [&](std::size_t j) { return keys[j]; });
  REQUIRE(a.index_layout() == layout::direct);
  const auto v = ex::arrange_values(a, values);
  REQUIRE(v.laid_out());
  REQUIRE(v.entries().size() == a.direct_extent());
  CHECK(v.memory_bytes() >= a.direct_extent() * 16);
  std::size_t holes = 0;
  for (std::size_t j = 0; j < m; ++j) {
    if (!keys[j]) continue;
    const auto& e = v.entries()[static_cast<std::size_t>(a.direct_index_of(*keys[j]))];
    CHECK(e.row == j);
    CHECK(std::get<0>(e.values) == values[j]);
  }
  for (const auto& e : v.entries()) holes += e.row == decltype(v)::entry::no_row;
  CHECK(holes == a.direct_extent() - (m - 1));
}

TEST_CASE("joinery.exec.arranged_values.values_by_key_hold_each_keys_row_and_values") {
  // Keys 10..140009 in shuffled rows, every one present: no hole, so the
  // values are laid out alone (8 bytes a key) and the rows beside them.
  const std::size_t m = 140000;
  std::vector<opt> keys(m);
  std::vector<std::int64_t> values(m);
  for (std::size_t j = 0; j < m; ++j) {
    keys[j] = opt(static_cast<std::int64_t>((j * 7919) % m) + 10);
    values[j] = static_cast<std::int64_t>(j) * 3;
  }
  arrangement a;
  a.build(m, [&](std::size_t j) { return keys[j]; });
  REQUIRE(a.index_layout() == layout::direct);
  const auto v = ex::arrange_values(a, values);
  CHECK_FALSE(v.laid_out());
  REQUIRE(v.laid_out_without_holes());
  REQUIRE(v.values_by_key().size() == m);
  REQUIRE(v.rows_by_key().size() == m);
  CHECK(v.memory_bytes() >= m * (sizeof(std::int64_t) + sizeof(ex::row_pos)));
  for (std::size_t j = 0; j < m; ++j) {
    const auto x = static_cast<std::size_t>(a.direct_index_of(*keys[j]));
    CHECK(x == static_cast<std::size_t>(*keys[j] - 10));
    CHECK(v.rows_by_key()[x] == j);
    CHECK(std::get<0>(v.values_by_key()[x]) == values[j]);
  }
  // The probe reads the laid-out values, not the columns: a column changed
  // after the lay-out (outside the contract, which wants it unchanged)
  // shows which one was read.
  std::vector<std::int64_t> changed = values;
  const auto laid = ex::arrange_values(a, changed);
  std::fill(changed.begin(), changed.end(), -1);
  const std::vector<opt> probe{keys[3], opt(9), opt{}, keys[m - 1], opt(140010)};
  for (const bool left : {false, true}) {
    CAPTURE(left);
    std::vector<std::tuple<std::size_t, std::size_t, std::int64_t>> seen;
    auto record = ex::with_values(
        [&](std::size_t i, std::size_t j, std::int64_t x) { seen.emplace_back(i, j, x); }, laid);
    auto key_at = [&](std::size_t i) { return probe[i]; };
    auto all = [](std::size_t, std::size_t) { return true; };
    if (left) ex::probe<ex::join_kind::left>(a, probe.size(), key_at, all, record);
    else ex::probe<ex::join_kind::inner>(a, probe.size(), key_at, all, record);
    using row = std::tuple<std::size_t, std::size_t, std::int64_t>;
    const std::vector<row> want = left ? std::vector<row>{{0, 3, 9}, {1, U, 0}, {2, U, 0}, {3, m - 1, values[m - 1]}, {4, U, 0}}
                                       : std::vector<row>{{0, 3, 9}, {3, m - 1, values[m - 1]}};
    CHECK(seen == want);
  }
  // One key fewer (row 5's NULL): a hole, and entries that say which keys have a row.
  keys[5] = opt{};
  arrangement holed;
  holed.build(m, [&](std::size_t j) { return keys[j]; });
  const auto e = ex::arrange_values(holed, values);
  CHECK(e.laid_out());
  CHECK_FALSE(e.laid_out_without_holes());
}

TEST_CASE("joinery.exec.arranged_values.buckets_hold_each_keys_row_and_values") {
  // Distinct sparse keys in shuffled rows (a hashed layout), row 5's key NULL.
  const std::size_t m = 3000;
  std::vector<opt> keys(m);
  std::vector<std::int64_t> values(m);
  for (std::size_t j = 0; j < m; ++j) {
    keys[j] = j == 5 ? opt{} : opt(static_cast<std::int64_t>((j * 7919) % m) * 1000003 - 7);
    values[j] = static_cast<std::int64_t>(j) * 3;
  }
  arrangement a;
  a.build(m, [&](std::size_t j) { return keys[j]; });
  REQUIRE(a.index_layout() == layout::hashed);
  REQUIRE(a.unique());
  const auto v = ex::arrange_values(a, values);
  using bucket = decltype(v)::bucket;
  CHECK_FALSE(v.laid_out());
  CHECK_FALSE(v.lay_out_in_buckets_for(v.bucket_min_probes_per_key * a.group_count() - 1));
  CHECK_FALSE(v.laid_out_in_buckets());
  REQUIRE(v.lay_out_in_buckets_for(v.bucket_min_probes_per_key * a.group_count()));
  REQUIRE(v.laid_out_in_buckets());
  CHECK(v.lay_out_in_buckets_for(0));  // once laid out, for any loop
  const std::size_t count = v.buckets().size();
  REQUIRE((count & (count - 1)) == 0);
  // A lane per slot while the table is at most half full, else two.
  const std::size_t extent = a.hashed_extent();
  CHECK(count * bucket::lanes == ((m - 1) * 2 <= extent ? extent : 2 * extent));
  REQUIRE(v.bucket_rows().size() == count * bucket::lanes);
  CHECK(v.memory_bytes() >= count * sizeof(bucket));
  // The least key is 0 * 1000003 - 7 (row 0): the mark of an unfilled lane is one below.
  CHECK(v.empty_key() == -8);
  // Each key is found by the walk from its bucket, past full buckets only, with its row and value.
  std::size_t spilled = 0;
  std::vector<std::size_t> walked_past;  // the buckets some key's walk passed
  for (std::size_t j = 0; j < m; ++j) {
    if (!keys[j]) continue;
    CAPTURE(j);
    std::size_t b = v.bucket_of(*keys[j]);
    const std::size_t home = b;
    // The probe's one shift of the hash gives the same bucket.
    CHECK(((a.hash_function()(*keys[j]) >> v.in_buckets().hash_shift) & (count - 1)) == home);
    auto lane_of = [&](std::size_t at) {
      const auto& ks = v.buckets()[at].keys;
      return static_cast<std::size_t>(std::find(std::begin(ks), std::end(ks), *keys[j]) - std::begin(ks));
    };
    while (lane_of(b) == bucket::lanes) {
      REQUIRE(v.buckets()[b].keys[bucket::lanes - 1] != v.empty_key());  // walked past a full bucket only
      REQUIRE(v.buckets()[b].walked_past(v.empty_key()));                 // which says so
      walked_past.push_back(b);
      b = (b + 1) & (count - 1);
    }
    spilled += b != home;
    const std::size_t lane = lane_of(b);
    CHECK(v.bucket_rows()[b * bucket::lanes + lane] == j);
    CHECK(std::get<0>(v.buckets()[b].values[lane]) == values[j]);
  }
  CHECK(spilled > 0);  // the walk past a full bucket is exercised
  // Only those say a key walked past them: a miss stops at any other.
  std::sort(walked_past.begin(), walked_past.end());
  std::size_t full = 0;
  for (std::size_t b = 0; b < count; ++b) {
    CAPTURE(b);
    full += v.buckets()[b].keys[bucket::lanes - 1] != v.empty_key();
    CHECK(v.buckets()[b].walked_past(v.empty_key()) == std::binary_search(walked_past.begin(), walked_past.end(), b));
  }
  CHECK(full > static_cast<std::size_t>(std::unique(walked_past.begin(), walked_past.end()) - walked_past.begin()));
  // Lanes fill in order; the filled ones are the keys.
  std::size_t filled = 0;
  for (const bucket& b : v.buckets()) {
    for (std::size_t l = 0; l < bucket::lanes; ++l) {
      const bool here = b.keys[l] != v.empty_key();
      filled += here;
      if (l > 0 && here) CHECK(b.keys[l - 1] != v.empty_key());
    }
  }
  CHECK(filled == m - 1);
  // Every slot visited in slot order; the occupied ones are those `for_each_slot` visits.
  std::vector<std::size_t> visited, occupied;
  a.for_each_slot([&](std::size_t s, std::int64_t key, ex::row_pos j) {
    visited.push_back(s);
    CHECK(keys[j] == key);
  });
  std::size_t every = 0;
  a.for_every_slot([&](std::size_t s, std::int64_t key, ex::row_pos j, bool is_occupied) {
    CHECK(s == every++);
    if (!is_occupied) return;
    occupied.push_back(s);
    CHECK(keys[j] == key);
  });
  CHECK(every == extent);
  CHECK(visited.size() == m - 1);
  CHECK(visited == occupied);

  // A direct layout has no slots: nothing to visit, nothing laid out in buckets.
  arrangement direct;
  direct.build(m, [&](std::size_t j) { return keys[j] ? opt(*keys[j] % 5000) : opt{}; });
  REQUIRE(direct.index_layout() == layout::direct);
  CHECK(direct.hashed_extent() == 0);
  std::size_t direct_slots = 0;
  direct.for_each_slot([&](std::size_t, std::int64_t, ex::row_pos) { ++direct_slots; });
  direct.for_every_slot([&](std::size_t, std::int64_t, ex::row_pos, bool) { ++direct_slots; });
  CHECK(direct_slots == 0);
  const auto direct_values = ex::arrange_values(direct, values);
  CHECK_FALSE(direct_values.lay_out_in_buckets_for(std::size_t{1} << 40));
  CHECK_FALSE(direct_values.laid_out_in_buckets());
}

TEST_CASE("joinery.exec.arranged_values.laid_out_in_buckets_by_a_probe_loop_long_enough_to_pay_for_them") {
  // Distinct sparse keys (some rows NULL): a loop of fewer probe rows than
  // 3 a key reads the slots and the columns at j; one of 3 a key lays the
  // buckets out and reads them. A threaded loop counts the rows of all its
  // parts. The pairs and values are the same either way.
  const std::size_t m = 3000;
  const build_side b = make_build(m, 1, false);
  arrangement a;
  a.build(m, [&](std::size_t j) { return b.keys[j]; });
  REQUIRE(a.index_layout() == layout::hashed);
  REQUIRE(a.unique());
  using values_type = decltype(ex::arrange_values(a, b.values, b.weights));
  const std::size_t pays = values_type::bucket_min_probes_per_key * a.group_count();
  for (const bool threaded : {false, true}) {
    CAPTURE(threaded);
    const auto values = ex::arrange_values(a, b.values, b.weights);
    for (const std::size_t rows : {pays - 1, pays}) {
      CAPTURE(rows);
      const std::vector<opt> probe = make_probe(rows, m, 1, false);
      auto key_at = [&](std::size_t i) { return probe[i]; };
      recorder bare;
      ex::probe<ex::join_kind::left>(a, probe.size(), key_at, residual, bare);
      a.reset_counters();
      std::vector<valued_row> got;
      if (threaded) {
        auto parts = ex::probe_parts<ex::join_kind::left>(
            ex::threads(2, 1000), a, probe.size(), key_at, residual,
            [&](std::size_t) { return ex::with_values(valued_recorder{}, values); });
        REQUIRE(parts.size() == 2);
        for (const auto& p : parts) got.insert(got.end(), p.base().out.begin(), p.base().out.end());
      } else {
        auto valued = ex::with_values(valued_recorder{}, values);
        ex::probe<ex::join_kind::left>(a, probe.size(), key_at, residual, valued);
        got = valued.base().out;
      }
      CHECK(got == expected(bare, b));
      CHECK(values.laid_out_in_buckets() == (rows == pays));
      // A bucket read is one comparison a keyed row, and more only past a full bucket.
      if (rows == pays) CHECK(a.counters().comparisons < a.counters().probes * 5 / 4);
    }
  }
}

TEST_CASE("joinery.exec.arranged_values.the_unfilled_lanes_key_is_one_no_row_has") {
  // Sparse keys reaching the least int64: the mark is one above the
  // greatest; reaching both ends, no key is free and the columns are read
  // at j. A probe key equal to the mark is no match, and a left join hands
  // it over unmatched.
  constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
  for (const bool both_ends : {false, true}) {
    CAPTURE(both_ends);
    const std::size_t m = 500;
    std::vector<opt> keys(m);
    std::vector<std::int64_t> values(m);
    for (std::size_t j = 0; j < m; ++j) {
      keys[j] = opt(static_cast<std::int64_t>(j) * 1000003 + 11);
      values[j] = static_cast<std::int64_t>(j) + 100;
    }
    keys[7] = lo;
    if (both_ends) keys[9] = hi;
    arrangement a;
    a.build(m, [&](std::size_t j) { return keys[j]; });
    REQUIRE(a.index_layout() == layout::hashed);
    const auto v = ex::arrange_values(a, values);
    CHECK(v.lay_out_in_buckets_for(v.bucket_min_probes_per_key * a.group_count()) == !both_ends);
    CHECK(v.laid_out_in_buckets() == !both_ends);
    const std::int64_t greatest = both_ends ? hi : static_cast<std::int64_t>(m - 1) * 1000003 + 11;
    if (!both_ends) CHECK(v.empty_key() == greatest + 1);
    const std::vector<opt> probe{keys[3], opt(both_ends ? hi : greatest + 1), opt(lo), opt{}, opt(lo + 1), keys[m - 1]};
    auto key_at = [&](std::size_t i) { return probe[i]; };
    auto all = [](std::size_t, std::size_t) { return true; };
    std::vector<std::tuple<std::size_t, std::size_t, std::int64_t>> inner, left;
    ex::probe<ex::join_kind::inner>(
        a, probe.size(), key_at, all,
        ex::with_values([&](std::size_t i, std::size_t j, std::int64_t x) { inner.emplace_back(i, j, x); }, v));
    ex::probe<ex::join_kind::left>(
        a, probe.size(), key_at, all,
        ex::with_values([&](std::size_t i, std::size_t j, std::int64_t x) { left.emplace_back(i, j, x); }, v));
    using row = std::tuple<std::size_t, std::size_t, std::int64_t>;
    const std::size_t hi_row = both_ends ? 9 : U;
    std::vector<row> want_inner{{0, 3, 103}, {2, 7, 107}, {5, m - 1, static_cast<std::int64_t>(m - 1) + 100}};
    if (both_ends) want_inner.insert(want_inner.begin() + 1, row{1, 9, 109});
    CHECK(inner == want_inner);
    CHECK(left == std::vector<row>{{0, 3, 103},
                                   {1, hi_row, both_ends ? 109 : 0},
                                   {2, 7, 107},
                                   {3, U, 0},
                                   {4, U, 0},
                                   {5, m - 1, static_cast<std::int64_t>(m - 1) + 100}});
  }
}

TEST_CASE("joinery.exec.arranged_values.laid_out_in_buckets_also_where_the_build_keeps_a_key_filter") {
  // 800k distinct sparse keys: a 32 MiB table, above the 16 MiB from which
  // the build keeps a key filter (the tests fix a 32 MiB cache), and a
  // one-byte column that stays in a core's cache (800 KB). The buckets are
  // laid out all the same, and read without the filter: a miss is one
  // bucket read, as a hit is.
  const std::size_t m = 800'000;
  const std::vector<opt> keys = jy::test::build_keys(m, 1, false);
  std::vector<std::uint8_t> flags(m);
  for (std::size_t j = 0; j < m; ++j) flags[j] = static_cast<std::uint8_t>(j % 251);
  arrangement a;
  a.build(m, [&](std::size_t j) { return keys[j]; });
  REQUIRE(a.index_layout() == layout::hashed);
  REQUIRE(a.unique());
  REQUIRE(a.has_filter());
  const auto values = ex::arrange_values(a, flags);
  CHECK_FALSE(values.columns_beyond_cache());
  CHECK(values.lay_out_in_buckets_for(values.bucket_min_probes_per_key * m));
  CHECK(values.laid_out_in_buckets());
  CHECK(values.memory_bytes() >= m * (sizeof(std::int64_t) + sizeof(std::uint8_t) + sizeof(ex::row_pos)));
  const std::vector<opt> probe = make_probe(5000, m, 1, false);
  auto key_at = [&](std::size_t i) { return probe[i]; };
  recorder bare;
  ex::probe<ex::join_kind::left>(a, probe.size(), key_at, residual, bare);
  std::vector<std::tuple<std::size_t, std::size_t, std::uint8_t>> want, got;
  for (const auto& [i, j] : bare.out) want.emplace_back(i, j, j == U ? std::uint8_t{0} : flags[j]);
  ex::probe<ex::join_kind::left>(
      a, probe.size(), key_at, residual,
      ex::with_values([&](std::size_t i, std::size_t j, std::uint8_t f) { got.emplace_back(i, j, f); }, values));
  CHECK(got == want);
}

TEST_CASE("joinery.exec.arranged_values.refuses_a_short_column_and_another_arrangement") {
  const build_side b = make_build(140000, 1, true);
  arrangement a;
  a.build(b.keys.size(), [&](std::size_t j) { return b.keys[j]; });
  const std::vector<std::int64_t> short_column(139999);
  CHECK_THROWS_WITH(ex::arrange_values(a, b.values, short_column),
                    "exec::arrange_values: a column has 139999 values for a build of 140000 rows");
  CHECK_THROWS_AS(ex::arrange_values(a, short_column), std::length_error);

  const auto values = ex::arrange_values(a, b.values, b.weights);
  const std::vector<opt> probe{b.keys[7], b.keys[9]};
  auto key_at = [&](std::size_t i) { return probe[i]; };
  const char* message =
      "exec::with_values: the values were arranged for another arrangement, or for this one before it was "
      "rebuilt; call arrange_values again";
  arrangement other;
  other.build(b.keys.size(), [&](std::size_t j) { return b.keys[j]; });
  valued_recorder r;
  CHECK_THROWS_WITH(ex::probe<ex::join_kind::inner>(other, probe.size(), key_at, residual, ex::with_values(r, values)),
                    message);
  CHECK_THROWS_WITH(ex::probe<ex::join_kind::inner>(ex::threads(2, 1), other, probe.size(), key_at, residual,
                                                    ex::with_values(r, values)),
                    message);
  // The same arrangement rebuilt over fewer rows.
  a.build(1000, [&](std::size_t j) { return b.keys[j]; });
  CHECK_THROWS_AS(ex::probe<ex::join_kind::left>(a, probe.size(), key_at, residual, ex::with_values(r, values)),
                  std::invalid_argument);
  CHECK(r.out.empty());
}

TEST_CASE("joinery.exec.arranged_values.columns_of_any_type_are_read_at_the_match") {
  // Strings are not copied into entries (not trivially copyable), by key
  // or in buckets: the emit gets a reference to the column's value, and an
  // empty string for a left join's unmatched row. Both the column beyond a
  // core's cache and the one in it (read through the probe's span copies)
  // are checked, under a direct and a hashed layout.
  for (const bool dense : {true, false}) {
    for (const std::size_t m : {std::size_t{140000}, std::size_t{1000}}) {
      CAPTURE(dense, m);
      std::vector<opt> keys(m);
      std::vector<std::string> names(m);
      for (std::size_t j = 0; j < m; ++j) {
        keys[j] = opt(static_cast<std::int64_t>((j * 7919) % m) * (dense ? 1 : 1000003));
        names[j] = "row " + std::to_string(j);
      }
      arrangement a;
      a.build(m, [&](std::size_t j) { return keys[j]; });
      REQUIRE(a.index_layout() == (dense ? layout::direct : layout::hashed));
      const auto values = ex::arrange_values(a, names);
      CHECK_FALSE(values.laid_out());
      CHECK_FALSE(values.lay_out_in_buckets_for(std::size_t{1} << 40));
      CHECK_FALSE(values.laid_out_in_buckets());
      CHECK(values.columns_beyond_cache() == (m == 140000));  // 140000 strings reach prefetch_min_column_bytes
      const std::vector<opt> probe{keys[3], opt(-1), opt{}, keys[m - 1]};
      std::vector<std::tuple<std::size_t, std::size_t, std::string, const std::string*>> seen;
      ex::probe<ex::join_kind::left>(
          a, probe.size(), [&](std::size_t i) { return probe[i]; }, [](std::size_t, std::size_t) { return true; },
          ex::with_values(
              [&](std::size_t i, std::size_t j, const std::string& name) { seen.emplace_back(i, j, name, &name); },
              values));
      REQUIRE(seen.size() == 4);
      CHECK(std::get<2>(seen[0]) == "row 3");
      CHECK(std::get<3>(seen[0]) == &names[3]);  // not a copy
      CHECK(std::get<1>(seen[1]) == U);
      CHECK(std::get<2>(seen[1]).empty());
      CHECK(std::get<1>(seen[2]) == U);
      CHECK(std::get<2>(seen[3]) == "row " + std::to_string(m - 1));
      CHECK(std::get<3>(seen[3]) == &names[m - 1]);
      CHECK(std::get<1>(seen[3]) == m - 1);

      // An inner join's pairs (held and handed over through
      // `valued_emit::matched` when the column is beyond the cache): the
      // matches alone, their values by reference.
      seen.clear();
      auto remember = [&](std::size_t i, std::size_t j, const std::string& name) {
        seen.emplace_back(i, j, name, &name);
      };
      ex::probe<ex::join_kind::inner>(
          a, probe.size(), [&](std::size_t i) { return probe[i]; }, [](std::size_t, std::size_t) { return true; },
          ex::with_values(remember, values));
      REQUIRE(seen.size() == 2);
      CHECK(std::get<0>(seen[0]) == 0);
      CHECK(std::get<3>(seen[0]) == &names[3]);
      CHECK(std::get<0>(seen[1]) == 3);
      CHECK(std::get<3>(seen[1]) == &names[m - 1]);
      // Called directly, `matched` reads row j's values as `(i, j)` does.
      seen.clear();
      auto direct = ex::with_values(remember, values);
      direct.matched(7, 5);
      direct(8, 5);
      REQUIRE(seen.size() == 2);
      CHECK(std::get<2>(seen[0]) == "row 5");
      CHECK(std::get<3>(seen[0]) == &names[5]);
      CHECK(seen[1] == std::make_tuple(std::size_t{8}, std::size_t{5}, std::string("row 5"), &names[5]));
    }
  }
}

namespace {
/// A small, trivially copyable emit: a probe loop may call its own copy,
/// which it writes back. `stop_at` pairs in, it throws.
struct totals {
  std::size_t pairs = 0, unmatched_rows = 0, last_i = 0;
  std::int64_t sum = 0;
  std::size_t stop_at = std::numeric_limits<std::size_t>::max();
  void operator()(std::size_t i, std::size_t j, std::int64_t v) {
    if (pairs == stop_at) throw std::runtime_error("stopped at pair " + std::to_string(pairs));
    ++pairs;
    unmatched_rows += j == U;
    sum += v;
    last_i = i;
  }
};
static_assert(std::is_trivially_copyable_v<totals>);
}  // namespace

TEST_CASE("joinery.exec.arranged_values.a_small_trivially_copyable_emit_keeps_every_pair_it_was_handed") {
  // Values in buckets, by key with holes (entries) and without: the probe
  // loop calls its own copy of such an emit and writes it back when it
  // ends, and when the emit throws. A closure of references (const call,
  // not assignable) is called through its copy.
  const std::size_t m = 1000;
  for (const int shape : {0, 1, 2}) {  // hashed, direct with holes, direct without
    CAPTURE(shape);
    build_side b = make_build(m, 1, shape != 0);
    if (shape == 2)
      for (std::size_t j = 0; j < m; ++j) b.keys[j] = static_cast<std::int64_t>((j * 7919) % m);
    arrangement a;
    a.build(m, [&](std::size_t j) { return b.keys[j]; });
    REQUIRE(a.index_layout() == (shape == 0 ? layout::hashed : layout::direct));
    const auto values = ex::arrange_values(a, b.values);
    if (shape == 0) REQUIRE(values.lay_out_in_buckets_for(values.bucket_min_probes_per_key * a.group_count()));
    REQUIRE(values.laid_out() == (shape == 1));
    REQUIRE(values.laid_out_without_holes() == (shape == 2));
    const std::vector<opt> probe = make_probe(5000, m, 1, shape != 0);
    auto key_at = [&](std::size_t i) { return probe[i]; };
    auto all = [](std::size_t, std::size_t) { return true; };
    auto check = [&]<ex::join_kind K>() {
      CAPTURE(K == ex::join_kind::inner);
      recorder bare;
      ex::probe<K>(a, probe.size(), key_at, all, bare);
      REQUIRE(bare.out.size() > 100);
      totals want;
      for (const auto& [i, j] : bare.out) want(i, j, j == U ? 0 : b.values[j]);
      if (K == ex::join_kind::inner) REQUIRE(want.unmatched_rows == 0);
      else REQUIRE(want.unmatched_rows > 0);

      totals got;
      ex::probe<K>(a, probe.size(), key_at, all, ex::with_values(got, values));
      CHECK(got.pairs == want.pairs);
      CHECK(got.unmatched_rows == want.unmatched_rows);
      CHECK(got.sum == want.sum);
      CHECK(got.last_i == want.last_i);

      totals stopped;
      stopped.stop_at = bare.out.size() / 2;
      CHECK_THROWS_WITH(ex::probe<K>(a, probe.size(), key_at, all, ex::with_values(stopped, values)),
                        "stopped at pair " + std::to_string(bare.out.size() / 2));
      CHECK(stopped.pairs == bare.out.size() / 2);  // every pair before the throw, written back
      CHECK(stopped.last_i == bare.out[bare.out.size() / 2 - 1].first);

      std::vector<std::size_t> rows;
      std::int64_t sum = 0;
      auto closure = [&rows, &sum](std::size_t i, std::size_t, std::int64_t v) {
        rows.push_back(i);
        sum += v;
      };
      static_assert(std::is_trivially_copyable_v<decltype(closure)> && !std::is_copy_assignable_v<decltype(closure)>);
      ex::probe<K>(a, probe.size(), key_at, all, ex::with_values(closure, values));
      CHECK(rows.size() == bare.out.size());
      CHECK(sum == want.sum);
      CHECK(rows.back() == want.last_i);
    };
    check.template operator()<ex::join_kind::inner>();
    check.template operator()<ex::join_kind::left>();
  }
}

TEST_CASE("joinery.exec.arranged_values.a_build_of_two_keys_has_its_few_buckets") {
  // The smallest table: a few buckets, the probe's shift of the hash as wide as it gets.
  arrangement a;
  const std::vector<opt> keys{opt(123456789), opt(-987654321)};
  a.build(2, [&](std::size_t j) { return keys[j]; });
  REQUIRE(a.index_layout() == layout::hashed);
  const std::vector<std::int64_t> values{42, 7};
  const auto v = ex::arrange_values(a, values);
  REQUIRE(v.lay_out_in_buckets_for(2 * v.bucket_min_probes_per_key));
  REQUIRE(v.buckets().size() <= 4);
  const std::vector<opt> probe{opt(5), opt(123456789), opt{}, opt(-123456789), opt(-987654321), opt(123456789)};
  totals got;
  ex::probe<ex::join_kind::inner>(
      a, probe.size(), [&](std::size_t i) { return probe[i]; }, [](std::size_t, std::size_t) { return true; },
      ex::with_values(got, v));
  CHECK(got.pairs == 3);
  CHECK(got.sum == 91);
  CHECK(got.last_i == 5);
}
