// arrangement::keys_in_buckets and the semi and anti probes that read them:
// a unique hashed build of integer keys lays its keys out in buckets of one
// cache line on the first semi or anti probe; each key sits in its home
// bucket or past full ones only, with its row beside it; the kept rows are
// exactly a nested loop's, in order, with and without a residual condition
// and on two threads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <joinery/exec/equi_join.hpp>
#include <probe_keys.hpp>

namespace jy = joinery;
namespace ex = jy::exec;

namespace {
using opt = std::optional<std::int64_t>;
using arrangement = ex::arrangement<std::int64_t>;
using layout = arrangement::layout;
using bucket = ex::detail::key_bucket<std::int64_t>;

struct kept_rows {
  std::vector<std::size_t> out;
  void operator()(std::size_t i, std::size_t j) {
    CHECK(j == ex::unmatched);
    out.push_back(i);
  }
};

arrangement build_of(const std::vector<opt>& keys) {
  arrangement a;
  a.build(keys.size(), [&](std::size_t j) { return keys[j]; });
  return a;
}

/// The rows a semi (anti) join keeps, by a nested loop: some (no) build row
/// has the probe row's key and passes `accept`.
template <ex::join_kind K, class Accept>
std::vector<std::size_t> nested_loop(const std::vector<opt>& build, const std::vector<opt>& probe, Accept accept) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < probe.size(); ++i) {
    bool any = false;
    for (std::size_t j = 0; j < build.size() && !any; ++j) any = probe[i] && build[j] == probe[i] && accept(i, j);
    if (any == (K == ex::join_kind::semi)) out.push_back(i);
  }
  return out;
}

template <ex::join_kind K, class Accept>
void check_kept(const arrangement& a, const std::vector<opt>& build, const std::vector<opt>& probe, Accept accept) {
  auto key_at = [&](std::size_t i) { return probe[i]; };
  const auto want = nested_loop<K>(build, probe, accept);
  kept_rows serial;
  a.reset_counters();
  ex::probe<K>(a, probe.size(), key_at, accept, serial);
  CHECK(serial.out == want);
  // One bucket read per keyed probe row unless its walk passes a full bucket.
  const auto keyed = static_cast<std::size_t>(std::count_if(probe.begin(), probe.end(), [](const opt& k) {
    return k.has_value();
  }));
  CHECK(a.counters().probes == keyed);
  CHECK(a.counters().comparisons >= keyed);
  CHECK(a.counters().comparisons < keyed + keyed / 4);
  auto parts = ex::probe_parts<K>(ex::threads(2, 100), a, probe.size(), key_at, accept,
                                  [](std::size_t) { return kept_rows{}; });
  REQUIRE(parts.size() == 2);
  std::vector<std::size_t> joined;
  for (const auto& p : parts) joined.insert(joined.end(), p.out.begin(), p.out.end());
  CHECK(joined == want);
}
}  // namespace

TEST_CASE("joinery.exec.key_buckets.hold_each_key_with_its_row") {
  // Distinct sparse keys in shuffled rows (a hashed layout), row 5's key NULL.
  const std::size_t m = 3000;
  std::vector<opt> keys(m);
  for (std::size_t j = 0; j < m; ++j)
    keys[j] = j == 5 ? opt{} : opt(static_cast<std::int64_t>((j * 7919) % m) * 1000003 - 7);
  const arrangement a = build_of(keys);
  REQUIRE(a.index_layout() == layout::hashed);
  REQUIRE(a.unique());
  const std::size_t memory_before = a.memory_bytes();
  CHECK_FALSE(a.keys_in_buckets_built());  // not laid out by the build
  const arrangement unbuilt_copy = a;
  const auto* kb = a.keys_in_buckets();
  REQUIRE(kb != nullptr);
  CHECK(a.keys_in_buckets_built());
  CHECK(a.keys_in_buckets() == kb);  // laid out once
  // A copy taken before lays out its own when asked.
  CHECK_FALSE(unbuilt_copy.keys_in_buckets_built());
  REQUIRE(unbuilt_copy.keys_in_buckets() != nullptr);
  CHECK(unbuilt_copy.keys_in_buckets() != kb);
  CHECK(unbuilt_copy.keys_in_buckets()->rows == kb->rows);
  const std::size_t count = kb->buckets.size();
  REQUIRE((count & (count - 1)) == 0);
  // At most one key per two lanes: the least power of two of lanes that is.
  CHECK(count * bucket::lanes == std::bit_ceil(2 * (m - 1)));
  REQUIRE(kb->rows.size() == count * bucket::lanes);
  CHECK(a.memory_bytes() == memory_before + kb->memory_bytes());
  CHECK(kb->memory_bytes() >= count * (sizeof(bucket) + bucket::lanes * sizeof(ex::row_pos)));
  // The least key is 0 * 1000003 - 7 (row 0): the mark of an unfilled lane is one below.
  CHECK(kb->empty_key == -8);
  std::size_t spilled = 0;
  std::vector<std::size_t> walked_past;  // the buckets some key's walk passed
  for (std::size_t j = 0; j < m; ++j) {
    if (!keys[j]) continue;
    CAPTURE(j);
    std::size_t b = a.home_slot_of(*keys[j]) >> kb->shift;
    const std::size_t home = b;
    // The probe's one shift of the hash gives the same bucket.
    CHECK(((a.hash_function()(*keys[j]) >> kb->hash_shift) & (count - 1)) == home);
    auto lane_of = [&](std::size_t at) {
      const auto& ks = kb->buckets[at].keys;
      return static_cast<std::size_t>(std::find(std::begin(ks), std::end(ks), *keys[j]) - std::begin(ks));
    };
    while (lane_of(b) == bucket::lanes) {
      REQUIRE(kb->buckets[b].keys[bucket::lanes - 1] != kb->empty_key);  // walked past a full bucket only
      REQUIRE(kb->buckets[b].walked_past(kb->empty_key));                 // which says so
      walked_past.push_back(b);
      b = (b + 1) & (count - 1);
    }
    spilled += b != home;
    CHECK(kb->rows[b * bucket::lanes + lane_of(b)] == j);
  }
  CHECK(spilled > 0);  // the walk past a full bucket is exercised
  // Only those say a key walked past them: a miss stops at any other.
  std::sort(walked_past.begin(), walked_past.end());
  std::size_t full = 0;
  for (std::size_t b = 0; b < count; ++b) {
    CAPTURE(b);
    full += kb->buckets[b].keys[bucket::lanes - 1] != kb->empty_key;
    CHECK(kb->buckets[b].walked_past(kb->empty_key) == std::binary_search(walked_past.begin(), walked_past.end(), b));
  }
  CHECK(full > static_cast<std::size_t>(std::unique(walked_past.begin(), walked_past.end()) - walked_past.begin()));
  // Lanes fill in order; the filled ones are the keys.
  std::size_t filled = 0;
  for (const bucket& b : kb->buckets) {
    for (std::size_t l = 0; l < bucket::lanes; ++l) {
      const bool here = b.keys[l] != kb->empty_key;
      filled += here;
      if (l > 0 && here) CHECK(b.keys[l - 1] != kb->empty_key);
    }
  }
  CHECK(filled == m - 1);

  // A rebuild drops them, and lays them out again for its own keys.
  arrangement again = a;
  REQUIRE(again.keys_in_buckets_built());  // a copy keeps them, in its own memory
  CHECK(again.keys_in_buckets() != kb);
  CHECK(again.keys_in_buckets()->buckets.size() == kb->buckets.size());
  CHECK(again.keys_in_buckets()->rows == kb->rows);
  again.build(2, [](std::size_t j) { return opt(static_cast<std::int64_t>(j) * 1000003); });
  REQUIRE(again.index_layout() == layout::hashed);
  CHECK_FALSE(again.keys_in_buckets_built());
  REQUIRE(again.keys_in_buckets() != nullptr);
  CHECK(again.keys_in_buckets()->buckets.size() == 1);
  CHECK(again.keys_in_buckets()->empty_key == -1);
}

TEST_CASE("joinery.exec.key_buckets.only_for_a_unique_hashed_build_of_integer_keys") {
  const std::vector<opt> dense{3, 1, 2, 0};
  CHECK(build_of(dense).index_layout() != layout::hashed);
  CHECK(build_of(dense).keys_in_buckets() == nullptr);
  const std::vector<opt> repeated{1000003, 2000006, 1000003};
  const arrangement r = build_of(repeated);
  REQUIRE(r.index_layout() == layout::hashed);
  REQUIRE_FALSE(r.unique());
  CHECK(r.keys_in_buckets() == nullptr);
  arrangement groups_only;
  groups_only.build_groups(2, [](std::size_t j) { return opt(static_cast<std::int64_t>(j) * 1000003); });
  CHECK(groups_only.keys_in_buckets() == nullptr);
  CHECK(arrangement{}.keys_in_buckets() == nullptr);
  ex::arrangement<std::string> strings;
  strings.build(2, [](std::size_t j) { return std::optional<std::string>(j == 0 ? "a" : "b"); });
  CHECK_FALSE(strings.keys_in_buckets_built());
  // Both ends of int64: no key is free to mark an unfilled lane, and the
  // join reads the slots; the kept rows are the same.
  constexpr auto lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  const std::vector<opt> ends{lo, 0, hi, 1000003};
  const arrangement e = build_of(ends);
  REQUIRE(e.index_layout() == layout::hashed);
  CHECK(e.keys_in_buckets() == nullptr);
  const std::vector<opt> probe{hi, 5, opt{}, lo, 1000003, hi - 1};
  auto key_at = [&](std::size_t i) { return probe[i]; };
  auto always = [](std::size_t, std::size_t) { return true; };
  kept_rows semi, anti;
  ex::probe<ex::join_kind::semi>(e, probe.size(), key_at, always, semi);
  ex::probe<ex::join_kind::anti>(e, probe.size(), key_at, always, anti);
  CHECK(semi.out == std::vector<std::size_t>{0, 3, 4});
  CHECK(anti.out == std::vector<std::size_t>{1, 2, 5});
}

TEST_CASE("joinery.exec.key_buckets.semi_and_anti_keep_a_nested_loops_rows") {
  // About half the probe keys missing, one in nine NULL, some below the
  // least build key; with and without a residual condition on the row.
  for (const std::size_t m : {std::size_t{1000}, std::size_t{8000}}) {
    CAPTURE(m);
    const std::vector<opt> build = jy::test::build_keys(m, 1, /*dense=*/false);
    const std::vector<opt> probe = jy::test::probe_keys(3000, m, 1, /*dense=*/false, /*below=*/true);
    const arrangement a = build_of(build);
    REQUIRE(a.index_layout() == layout::hashed);
    REQUIRE(a.unique());
    auto always = [](std::size_t, std::size_t) { return true; };
    auto residual = [](std::size_t i, std::size_t j) { return (i + j) % 3 != 0; };
    check_kept<ex::join_kind::semi>(a, build, probe, always);
    REQUIRE(a.keys_in_buckets_built());
    check_kept<ex::join_kind::anti>(a, build, probe, always);
    check_kept<ex::join_kind::semi>(a, build, probe, residual);
    check_kept<ex::join_kind::anti>(a, build, probe, residual);
  }
  // A probe key equal to the unfilled lanes' mark (one below the least key) matches nothing.
  const arrangement a = build_of(std::vector<opt>{10 * 1000003, 20 * 1000003, 30 * 1000003});
  REQUIRE(a.index_layout() == layout::hashed);
  const std::int64_t mark = a.keys_in_buckets()->empty_key;
  CHECK(mark == 10 * 1000003 - 1);
  const std::vector<opt> probe{mark, 20 * 1000003, opt{}, mark};
  auto key_at = [&](std::size_t i) { return probe[i]; };
  auto always = [](std::size_t, std::size_t) { return true; };
  kept_rows semi, anti;
  ex::probe<ex::join_kind::semi>(a, probe.size(), key_at, always, semi);
  ex::probe<ex::join_kind::anti>(a, probe.size(), key_at, always, anti);
  CHECK(semi.out == std::vector<std::size_t>{1});
  CHECK(anti.out == std::vector<std::size_t>{0, 2, 3});
}

TEST_CASE("joinery.exec.key_buckets.laid_out_once_by_threads_probing_at_once") {
  const std::size_t m = 50000;
  const std::vector<opt> build = jy::test::build_keys(m, 1, /*dense=*/false);
  const std::vector<opt> probe = jy::test::probe_keys(20000, m, 1, /*dense=*/false, /*below=*/false);
  const arrangement a = build_of(build);
  REQUIRE_FALSE(a.keys_in_buckets_built());
  auto key_at = [&](std::size_t i) { return probe[i]; };
  auto always = [](std::size_t, std::size_t) { return true; };
  // Both parts ask for the buckets at once; the first lays them out.
  auto parts = ex::probe_parts<ex::join_kind::semi>(ex::threads(2, 100), a, probe.size(), key_at, always,
                                                    [](std::size_t) { return kept_rows{}; });
  REQUIRE(a.keys_in_buckets_built());
  std::vector<std::size_t> joined;
  for (const auto& p : parts) joined.insert(joined.end(), p.out.begin(), p.out.end());
  CHECK(joined == nested_loop<ex::join_kind::semi>(build, probe, always));
}

namespace {
template <class Key, std::size_t Lanes>
void check_lanes_holding(const std::vector<Key>& pool) {
  alignas(64) Key keys[Lanes];
  std::uint64_t seed = 7;
  for (int round = 0; round < 500; ++round) {
    for (auto& k : keys) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      k = pool[static_cast<std::size_t>(seed >> 40) % pool.size()];
    }
    for (const Key probe : pool) {
      std::uint64_t want = 0;
      for (std::size_t l = 0; l < Lanes; ++l) want |= static_cast<std::uint64_t>(keys[l] == probe) << l;
      CHECK(ex::detail::lanes_holding<Lanes>(keys, probe) == want);
    }
  }
}
}  // namespace

TEST_CASE("joinery.exec.key_buckets.lanes_holding_a_key_compare_whole_keys") {
  // Keys alike in one half only (the low or the high 32 bits), negative
  // keys and both ends of the type: a lane holds the key only when all of
  // it is equal (SSE2 compares 8-byte keys as two halves).
  constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  const std::vector<std::int64_t> wide{0, 1, -1, lo, hi, std::int64_t{1} << 32, (std::int64_t{1} << 32) + 1,
                                       -(std::int64_t{1} << 32), 0x7fffffff, 0x80000000, 0xffffffff,
                                       std::int64_t{0x12345678} << 32 | 0x9abcdef0, 0x9abcdef0};
  check_lanes_holding<std::int64_t, 4>(wide);
  check_lanes_holding<std::int64_t, 8>(wide);
  std::vector<std::uint64_t> unsigned_wide;
  for (const std::int64_t k : wide) unsigned_wide.push_back(static_cast<std::uint64_t>(k));
  check_lanes_holding<std::uint64_t, 8>(unsigned_wide);
  check_lanes_holding<std::int32_t, 16>({0, 1, -1, std::numeric_limits<std::int32_t>::min(), 65536, 65537, 7});
  check_lanes_holding<std::int16_t, 32>({0, 1, -1, 256, 257, std::numeric_limits<std::int16_t>::max()});
}

TEST_CASE("joinery.exec.key_buckets.a_small_trivially_copyable_emit_keeps_every_row_it_was_handed") {
  // The probe loop calls its own copy of such an emit and writes it back
  // when it ends, and when the emit throws.
  struct kept_count {
    std::size_t rows = 0, last = 0, stop_at = std::numeric_limits<std::size_t>::max();
    void operator()(std::size_t i, std::size_t) {
      if (rows == stop_at) throw std::runtime_error("stopped at row " + std::to_string(rows));
      ++rows;
      last = i;
    }
  };
  static_assert(std::is_trivially_copyable_v<kept_count>);
  const std::size_t m = 1000;
  std::vector<opt> build(m);
  for (std::size_t j = 0; j < m; ++j) build[j] = opt(static_cast<std::int64_t>((j * 7919) % m) * 1000003 + 5);
  const arrangement a = build_of(build);
  REQUIRE(a.keys_in_buckets() != nullptr);
  std::vector<opt> probe(4000);
  for (std::size_t i = 0; i < probe.size(); ++i)
    probe[i] = i % 9 == 0 ? opt{} : opt(static_cast<std::int64_t>((i * 31) % (2 * m)) * 1000003 + 5);
  auto key_at = [&](std::size_t i) { return probe[i]; };
  auto all = [](std::size_t, std::size_t) { return true; };
  auto check = [&]<ex::join_kind K>() {
    const auto want = nested_loop<K>(build, probe, all);
    REQUIRE(want.size() > 100);
    kept_count got;
    ex::probe<K>(a, probe.size(), key_at, all, got);
    CHECK(got.rows == want.size());
    CHECK(got.last == want.back());
    kept_count stopped;
    stopped.stop_at = want.size() / 2;
    CHECK_THROWS_WITH(ex::probe<K>(a, probe.size(), key_at, all, stopped),
                      "stopped at row " + std::to_string(want.size() / 2));
    CHECK(stopped.rows == want.size() / 2);
    CHECK(stopped.last == want[want.size() / 2 - 1]);
  };
  check.template operator()<ex::join_kind::semi>();
  check.template operator()<ex::join_kind::anti>();
}
