// exec::fold_groups and arrangement::fold_groups: a group-by folded as its
// rows are grouped. Exact groups, leaders, sizes and row order per group in
// every layout; the same groups, counters and accumulators as grouping first
// and folding after (group_rows), serial and on threads, with and without
// a combine; a table that grows, and one beyond the in-table limit.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <joinery/exec/group_by.hpp>
#include <joinery/exec/threads.hpp>

namespace jy = joinery;
namespace ex = jy::exec;

namespace {
using opt = std::optional<std::int64_t>;

/// The rows a group saw, in the order it saw them.
struct rows_seen {
  std::vector<std::size_t> rows;
};

/// An accumulator whose value depends on the order of its rows: a
/// polynomial hash (and 31^count), which `combine` extends exactly.
struct ordered_acc {
  std::uint64_t count = 0, sum = 0, poly = 0, power = 1;
  std::size_t first = 0, last = 0;
  bool operator==(const ordered_acc&) const = default;
};
void fold_ordered(ordered_acc& a, std::size_t i, const std::vector<opt>& keys) {
  if (a.count == 0) a.first = i;
  a.last = i;
  ++a.count;
  a.sum += static_cast<std::uint64_t>(*keys[i]) ^ i;
  a.poly = a.poly * 31 + i;
  a.power *= 31;
}
void combine_ordered(ordered_acc& into, const ordered_acc& from) {
  into.count += from.count;
  into.sum += from.sum;
  into.poly = into.poly * from.power + from.poly;
  into.power *= from.power;
  into.last = from.last;
}

/// The reference: group first (group_rows), then fold each row in row order.
struct reference {
  std::vector<ordered_acc> acc;
  std::vector<std::uint32_t> leaders, sizes;
  std::size_t duplicates = 0;
  ex::work_counters counters;
};
reference group_then_fold(const std::vector<opt>& keys) {
  auto key_at = [&](std::size_t i) { return keys[i]; };
  const auto arr = ex::group_rows<std::int64_t>(keys.size(), key_at);
  reference r;
  r.acc.resize(arr.group_count());
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (arr.group_of_row(i) != ex::no_group) fold_ordered(r.acc[arr.group_of_row(i)], i, keys);
  r.leaders = ex::group_leaders(arr);
  for (std::size_t g = 0; g < arr.group_count(); ++g)
    r.sizes.push_back(static_cast<std::uint32_t>(arr.group_size(static_cast<ex::group_id>(g))));
  r.duplicates = arr.duplicate_group_count();
  r.counters = arr.counters();
  return r;
}

std::vector<opt> random_keys(std::size_t n, std::size_t distinct, std::uint64_t seed, std::int64_t spread) {
  std::mt19937_64 g(seed);
  std::vector<opt> keys(n);
  for (auto& k : keys)
    if (g() % 9 != 0) k = static_cast<std::int64_t>(g() % distinct) * spread - 7;
  return keys;
}
}  // namespace

TEST_CASE("joinery.exec.group_by.fold_groups_exact_groups_in_every_layout") {
  // keys 5, 3, 5, NULL, 7, 3, 5: groups {5, 3, 7} founded by rows 0, 1, 4.
  const std::vector<std::int64_t> small{5, 3, 5, 0, 7, 3, 5};
  for (const std::int64_t spread : {std::int64_t{1}, std::int64_t{1'000'000'007}}) {
    INFO("spread " << spread);  // 1: direct layout; 10^9+7: hashed
    auto key_at = [&](std::size_t i) { return i == 3 ? opt{} : opt(small[i] * spread); };
    ex::arrangement<std::int64_t> arr;
    const auto acc = arr.fold_groups(small.size(), key_at, rows_seen{},
                                     [](rows_seen& a, std::size_t i) { a.rows.push_back(i); });
    CHECK(arr.index_layout() == (spread == 1 ? ex::arrangement<std::int64_t>::layout::direct
                                             : ex::arrangement<std::int64_t>::layout::hashed));
    REQUIRE(acc.size() == 3);
    CHECK(acc[0].rows == std::vector<std::size_t>{0, 2, 6});
    CHECK(acc[1].rows == std::vector<std::size_t>{1, 5});
    CHECK(acc[2].rows == std::vector<std::size_t>{4});
    REQUIRE(arr.group_count() == 3);
    CHECK(arr.group_key(0) == 5 * spread);
    CHECK(arr.group_key(1) == 3 * spread);
    CHECK(arr.group_key(2) == 7 * spread);
    CHECK(ex::group_leaders(arr) == std::vector<std::uint32_t>{0, 1, 4});
    CHECK(arr.group_size(0) == 3);
    CHECK(arr.group_size(1) == 2);
    CHECK(arr.group_size(2) == 1);
    CHECK(arr.duplicate_group_count() == 2);
    CHECK_FALSE(arr.unique());
    CHECK_FALSE(arr.has_rows());
    CHECK(arr.keyed_rows() == 6);
    CHECK(arr.find(3 * spread) == 1);
    CHECK(arr.find(4 * spread) == ex::no_group);
    CHECK(arr.counters().inserts == 6);
  }
  SECTION("identity layout: keys k0, k0+1, ... in row order") {
    ex::arrangement<std::int64_t> arr;
    const auto acc = arr.fold_groups(4, [](std::size_t i) { return opt(40 + static_cast<std::int64_t>(i)); },
                                     rows_seen{}, [](rows_seen& a, std::size_t i) { a.rows.push_back(i); });
    CHECK(arr.index_layout() == ex::arrangement<std::int64_t>::layout::identity);
    REQUIRE(acc.size() == 4);
    for (std::size_t g = 0; g < 4; ++g) CHECK(acc[g].rows == std::vector<std::size_t>{g});
    CHECK(arr.unique());
    CHECK(arr.duplicate_group_count() == 0);
    CHECK(arr.group_key(3) == 43);
  }
  SECTION("string keys") {
    const std::vector<std::string> names{"b", "a", "b", "c", "a"};
    ex::arrangement<std::string> arr;
    const auto acc = arr.fold_groups(names.size(), [&](std::size_t i) { return std::optional<std::string>(names[i]); },
                                     rows_seen{}, [](rows_seen& a, std::size_t i) { a.rows.push_back(i); });
    REQUIRE(acc.size() == 3);
    CHECK(acc[0].rows == std::vector<std::size_t>{0, 2});
    CHECK(acc[1].rows == std::vector<std::size_t>{1, 4});
    CHECK(acc[2].rows == std::vector<std::size_t>{3});
    CHECK(arr.group_key(2) == "c");
    CHECK(ex::group_leaders(arr) == std::vector<std::uint32_t>{0, 1, 3});
  }
  SECTION("no rows, and only NULL keys") {
    ex::arrangement<std::int64_t> arr;
    CHECK(arr.fold_groups(0, [](std::size_t) { return opt(1); }, rows_seen{}, [](rows_seen&, std::size_t) {}).empty());
    CHECK(arr.fold_groups(5, [](std::size_t) { return opt{}; }, rows_seen{}, [](rows_seen&, std::size_t) {}).empty());
    CHECK(arr.group_count() == 0);
    CHECK(arr.keyed_rows() == 0);
  }
}

TEST_CASE("joinery.exec.group_by.fold_of_unique_keys_still_probes") {
  // A fold whose keys are all distinct keeps a probe-able arrangement; in
  // the direct layout a leading NULL row moves the founding rows off the
  // group ids, and probes must still return the rows.
  for (const std::int64_t spread : {std::int64_t{1}, std::int64_t{1'000'000'007}}) {
    INFO("spread " << spread);
    const std::vector<opt> keys{opt{}, opt(7 * spread), opt(9 * spread), opt{}, opt(8 * spread)};
    ex::arrangement<std::int64_t> arr;
    const auto acc = arr.fold_groups(keys.size(), [&](std::size_t i) { return keys[i]; }, std::size_t{0},
                                     [](std::size_t& a, std::size_t i) { a += i; });
    CHECK(acc == std::vector<std::size_t>{1, 2, 4});
    REQUIRE(arr.unique());
    REQUIRE(arr.has_rows());
    std::vector<std::size_t> found;
    ex::work_counters w;
    const std::vector<opt> probes{opt(8 * spread), opt(6 * spread), opt(7 * spread), opt(9 * spread)};
    arr.probe_rows(
        0, probes.size(), [&](std::size_t i) { return probes[i]; },
        [&](std::size_t, std::span<const ex::row_pos> rows) {
          found.push_back(rows.empty() ? 99 : rows[0]);
        },
        w);
    CHECK(found == std::vector<std::size_t>{4, 99, 1, 2});
  }
}

TEST_CASE("joinery.exec.group_by.fold_equals_group_then_fold") {
  // Random keys with NULLs: few groups, many groups, all distinct; sparse
  // (hashed) and dense (direct) spreads. The fold gives the reference's
  // accumulators (order-sensitive), leaders, sizes and duplicate count, and
  // does the same inserts as the grouping build, and linear key comparisons
  // (its table is sparser than the build's when the sample allows).
  for (const std::size_t n : {1u, 2u, 100u, 4096u, 4097u, 5000u, 70000u}) {
    for (const std::size_t distinct : {std::size_t{3}, n / 10 + 1, 2 * n}) {
      for (const std::int64_t spread : {std::int64_t{1}, std::int64_t{1'000'003}}) {
        const auto keys = random_keys(n, distinct, n * 31 + distinct, spread);
        INFO("n=" << n << " distinct=" << distinct << " spread=" << spread);
        const reference ref = group_then_fold(keys);
        auto key_at = [&](std::size_t i) { return keys[i]; };
        auto fold = [&](ordered_acc& a, std::size_t i) { fold_ordered(a, i, keys); };
        ex::arrangement<std::int64_t> arr;
        const auto acc = arr.fold_groups(n, key_at, ordered_acc{}, fold);
        CHECK(acc == ref.acc);
        CHECK(ex::group_leaders(arr) == ref.leaders);
        CHECK(arr.duplicate_group_count() == ref.duplicates);
        CHECK(arr.counters().inserts == ref.counters.inserts);
        const std::uint64_t keyed = arr.keyed_rows(), comparisons = arr.counters().comparisons;
        if (arr.index_layout() == ex::arrangement<std::int64_t>::layout::hashed) {
          CHECK(comparisons >= keyed - arr.group_count());  // a row of a known group compares at least once
          CHECK(comparisons <= 3 * keyed);
          if (n <= ex::arrangement<std::int64_t>::sample_rows) CHECK(comparisons == ref.counters.comparisons);
        } else {
          CHECK(comparisons == ref.counters.comparisons);
        }
        const auto folded = ex::fold_groups<std::int64_t>(n, key_at, ordered_acc{}, fold);
        CHECK(folded.accumulators == ref.acc);
        CHECK(folded.leaders == ref.leaders);
        CHECK(folded.sizes == ref.sizes);
        for (const auto t : {ex::threads(2, 16), ex::threads(3, 16), ex::threads(2)}) {
          INFO("threads " << t.count);
          const auto split = ex::fold_groups<std::int64_t>(t, n, key_at, ordered_acc{}, fold);
          CHECK(split.accumulators == ref.acc);
          CHECK(split.leaders == ref.leaders);
          CHECK(split.sizes == ref.sizes);
          const auto merged = ex::fold_groups<std::int64_t>(t, n, key_at, ordered_acc{}, fold, combine_ordered);
          CHECK(merged.accumulators == ref.acc);
          CHECK(merged.leaders == ref.leaders);
          CHECK(merged.sizes == ref.sizes);
        }
      }
    }
  }
}

TEST_CASE("joinery.exec.group_by.fold_table_grows_and_goes_beyond_the_cache") {
  // The sample (the first rows) sees 5 keys, then 60,000 more arrive: the
  // fold's table grows, each accumulator moving with its slot. A wide
  // accumulator puts the same table beyond `fold_in_table_max_bytes`: the
  // rows are grouped first and folded in a second pass.
  std::vector<opt> keys(130'000);
  for (std::size_t i = 0; i < keys.size(); ++i)
    keys[i] = i < 8192 ? opt(static_cast<std::int64_t>(i % 5) * 999'983)
                       : opt(static_cast<std::int64_t>(i % 60'000 + 5) * 999'983);
  const reference ref = group_then_fold(keys);
  REQUIRE(ref.acc.size() == 60'005);
  auto key_at = [&](std::size_t i) { return keys[i]; };
  ex::arrangement<std::int64_t> arr;
  const auto acc = arr.fold_groups(keys.size(), key_at, ordered_acc{},
                                   [&](ordered_acc& a, std::size_t i) { fold_ordered(a, i, keys); });
  CHECK(acc == ref.acc);
  CHECK(ex::group_leaders(arr) == ref.leaders);
  CHECK(arr.counters().comparisons == ref.counters.comparisons);

  struct wide {
    ordered_acc a;
    std::array<std::uint64_t, 40> pad{};
  };
  // Rows folded in the sample and in the second pass alike; the last keys
  // are all distinct and never NULL (the build keeps no per-row groups).
  const auto sparse = random_keys(90'000, 80'000, 5, 1'000'003);
  std::vector<opt> distinct(70'000);
  for (std::size_t i = 0; i < distinct.size(); ++i)
    distinct[i] = static_cast<std::int64_t>((i * 7'919) % distinct.size()) * 1'000'003;
  // The limit is half the last-level cache, which the tests fix at 32 MiB
  // (cache_size.hpp): 60,000 wide accumulators exceed it, 60,000 narrow
  // ones do not; a lower limit passed in (threads folding at once) is kept.
  REQUIRE(ex::last_level_cache_bytes() == std::size_t{32} << 20);
  REQUIRE(ex::arrangement<std::int64_t>::fold_in_table_max_bytes() == std::size_t{16} << 20);
  REQUIRE_FALSE(ex::arrangement<std::int64_t>::folds_in_table<wide>(60'000));
  CHECK(ex::arrangement<std::int64_t>::folds_in_table<ordered_acc>(60'000));
  CHECK(ex::arrangement<std::int64_t>::folds_in_table<wide>(60'000 / 16));
  CHECK_FALSE(ex::arrangement<std::int64_t>::folds_in_table<wide>(60'000 / 16, std::size_t{1} << 20));
  for (const std::vector<opt>* k : std::array<const std::vector<opt>*, 3>{&keys, &sparse, &distinct}) {
    const reference r = group_then_fold(*k);
    ex::arrangement<std::int64_t> wide_arr;
    const auto w = wide_arr.fold_groups(
        k->size(), [&](std::size_t i) { return (*k)[i]; }, wide{},
        [&](wide& x, std::size_t i) { fold_ordered(x.a, i, *k); });
    REQUIRE(w.size() == r.acc.size());
    for (std::size_t g = 0; g < w.size(); ++g) REQUIRE(w[g].a == r.acc[g]);
    CHECK(ex::group_leaders(wide_arr) == r.leaders);
    CHECK(wide_arr.duplicate_group_count() == r.duplicates);
    CHECK(wide_arr.counters().comparisons == r.counters.comparisons);
  }
}

TEST_CASE("joinery.exec.group_by.fold_that_throws_leaves_the_arrangement_empty") {
  // A fold (or key) that throws mid-way: the exception reaches the caller
  // and the arrangement holds no half-built groups.
  const auto keys = random_keys(20'000, 500, 3, 1'000'003);
  auto key_at = [&](std::size_t i) { return keys[i]; };
  ex::arrangement<std::int64_t> arr;
  CHECK_THROWS_WITH(arr.fold_groups(keys.size(), key_at, std::size_t{0},
                                    [](std::size_t& a, std::size_t i) {
                                      if (i == 9'000) throw std::runtime_error("fold failed at row 9000");
                                      ++a;
                                    }),
                    "fold failed at row 9000");
  CHECK(arr.group_count() == 0);
  CHECK(arr.keyed_rows() == 0);
  CHECK(arr.find(keys[1].value_or(0)) == ex::no_group);
  CHECK_THROWS_WITH(arr.fold_groups(
                        keys.size(),
                        [&](std::size_t i) {
                          if (i == 100) throw std::runtime_error("key failed at row 100");
                          return keys[i];
                        },
                        std::size_t{0}, [](std::size_t& a, std::size_t) { ++a; }),
                    "key failed at row 100");
  CHECK(arr.group_count() == 0);
  // Usable again afterwards.
  const auto acc = arr.fold_groups(keys.size(), key_at, std::size_t{0}, [](std::size_t& a, std::size_t) { ++a; });
  CHECK(acc.size() == group_then_fold(keys).acc.size());
}
