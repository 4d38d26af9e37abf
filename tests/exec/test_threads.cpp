// exec::threads: the 2-thread probe emits exactly the serial sequence, and
// merges per-thread work counts; the partitioned duplicate-group count.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <joinery/exec/equi_join.hpp>
#include <joinery/exec/group_by.hpp>
#include <joinery/exec/threads.hpp>

namespace jy = joinery;
namespace ex = jy::exec;

namespace {
using opt = std::optional<std::int64_t>;
using pairs = std::vector<std::pair<std::size_t, std::size_t>>;

struct fixture {
  std::vector<opt> build, probe;
  ex::arrangement<std::int64_t> arr;
  explicit fixture(std::size_t n) : build(300), probe(n) {
    for (std::size_t j = 0; j < build.size(); ++j)
      build[j] = j % 11 == 0 ? opt{} : opt(static_cast<std::int64_t>(j % 120) * 1000003);
    for (std::size_t i = 0; i < n; ++i)
      probe[i] = i % 13 == 0 ? opt{} : opt(static_cast<std::int64_t>((i * 7) % 150) * 1000003);
    arr.build(build.size(), [&](std::size_t j) { return build[j]; });
  }
  template <ex::join_kind K, class... Policy>
  pairs run(Policy... policy) {
    pairs out;
    ex::probe<K>(
        policy..., arr, probe.size(), [&](std::size_t i) { return probe[i]; },
        [](std::size_t i, std::size_t j) { return (i + j) % 5 != 0; },
        [&](std::size_t i, std::size_t j) { out.emplace_back(i, j); });
    return out;
  }
};
}  // namespace

TEST_CASE("joinery.exec.threads.policy") {
  STATIC_REQUIRE(ex::threads(0).count == 1);
  STATIC_REQUIRE(ex::threads(2).count == 2);
  CHECK(ex::detail::part_count(ex::threads(2), 10) == 1);  // too small to split
  CHECK(ex::detail::part_count(ex::threads(2, 1), 10) == 2);
  CHECK(ex::detail::part_count(ex::threads(4, 3), 10) == 3);
  CHECK(ex::detail::part_begin(10, 3, 0) == 0);
  CHECK(ex::detail::part_begin(10, 3, 1) == 3);
  CHECK(ex::detail::part_begin(10, 3, 3) == 10);
}

TEST_CASE("joinery.exec.threads.probe_preserves_serial_order") {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{2001}}) {
    fixture f(n);
    const auto inner = f.run<ex::join_kind::inner>();
    CHECK(f.run<ex::join_kind::inner>(ex::threads(2, 1)) == inner);
    CHECK(f.run<ex::join_kind::inner>(ex::threads(3, 1)) == inner);
    CHECK(f.run<ex::join_kind::left>(ex::threads(2, 1)) == f.run<ex::join_kind::left>());
    CHECK(f.run<ex::join_kind::semi>(ex::threads(2, 1)) == f.run<ex::join_kind::semi>());
    CHECK(f.run<ex::join_kind::anti>(ex::threads(2, 1)) == f.run<ex::join_kind::anti>());
  }
}

TEST_CASE("joinery.exec.threads.counters_merge_per_thread_counts") {
  fixture f(5000);
  f.arr.reset_counters();
  (void)f.run<ex::join_kind::inner>();
  const ex::work_counters serial = f.arr.counters();
  f.arr.reset_counters();
  (void)f.run<ex::join_kind::inner>(ex::threads(2, 1));
  CHECK(f.arr.counters().probes == serial.probes);
  CHECK(f.arr.counters().emitted == serial.emitted);
  CHECK(f.arr.counters().comparisons == serial.comparisons);
  CHECK(serial.probes == 5000 - (5000 + 12) / 13);
}

TEST_CASE("joinery.exec.threads.probe_parts_sinks_in_part_order") {
  fixture f(4000);
  struct sink {
    std::size_t part;
    std::size_t count = 0;
    std::int64_t sum = 0;
    std::size_t first = ex::unmatched;
    void operator()(std::size_t i, std::size_t j) {
      if (first == ex::unmatched) first = i;
      ++count;
      sum += static_cast<std::int64_t>(j);
    }
  };
  auto parts = ex::probe_parts<ex::join_kind::inner>(
      ex::threads(2, 1), f.arr, f.probe.size(), [&](std::size_t i) { return f.probe[i]; },
      [](std::size_t i, std::size_t j) { return (i + j) % 5 != 0; }, [](std::size_t p) { return sink{p}; });
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].part == 0);
  CHECK(parts[1].part == 1);
  CHECK(parts[0].first < parts[1].first);
  CHECK(parts[1].first >= 2000);
  const auto serial = f.run<ex::join_kind::inner>();
  std::int64_t sum = 0;
  for (const auto& [i, j] : serial) sum += static_cast<std::int64_t>(j);
  CHECK(parts[0].count + parts[1].count == serial.size());
  CHECK(parts[0].sum + parts[1].sum == sum);
}

TEST_CASE("joinery.exec.threads.exception_from_a_worker_propagates") {
  fixture f(4000);
  CHECK_THROWS_WITH(ex::probe<ex::join_kind::inner>(
                        ex::threads(2, 1), f.arr, f.probe.size(), [&](std::size_t i) { return f.probe[i]; },
                        [](std::size_t i, std::size_t) {
                          if (i == 3500) throw std::runtime_error("part 1 failed");
                          return true;
                        },
                        [](std::size_t, std::size_t) {}),
                    "part 1 failed");
}

TEST_CASE("joinery.exec.threads.duplicate_group_count_by_hash_parts") {
  // Random keys with NULLs and repeats: the partitioned count equals the
  // serial one (and a hand count) for every policy.
  std::mt19937_64 g(11);
  for (const std::size_t n : {0u, 1u, 100u, 5000u, 40000u}) {
    std::vector<std::optional<std::int64_t>> keys(n);
    for (auto& k : keys)
      if (g() % 10 != 0) k = static_cast<std::int64_t>(g() % (n / 2 + 1)) * 1000003;
    std::map<std::int64_t, int> seen;
    for (const auto& k : keys)
      if (k) ++seen[*k];
    std::size_t expected = 0;
    for (const auto& [k, c] : seen) expected += c > 1;
    auto key_at = [&](std::size_t i) { return keys[i]; };
    CHECK(jy::exec::group_rows<std::int64_t>(n, key_at).duplicate_group_count() == expected);
    for (const auto t : {jy::exec::threads(1), jy::exec::threads(2, 16), jy::exec::threads(3, 16), jy::exec::threads(2)})
      CHECK(jy::exec::duplicate_group_count<std::int64_t>(t, n, key_at) == expected);
    // The same keys as strings: a key not held by value in a split list,
    // counted by parts that each read every row.
    auto text_at = [&](std::size_t i) {
      return keys[i] ? std::optional<std::string>(std::to_string(*keys[i])) : std::nullopt;
    };
    for (const auto t : {jy::exec::threads(2, 16), jy::exec::threads(3, 16)})
      CHECK(jy::exec::duplicate_group_count<std::string>(t, n, text_at) == expected);
  }
}

TEST_CASE("joinery.exec.threads.group_rows_partitioned_equals_serial") {
  // Every row's global group, the group order (first appearance) and the
  // founding rows are those of the serial grouping, for every policy; NULL
  // keys are in no part.
  std::mt19937_64 g(29);
  for (const std::size_t n : {0u, 1u, 2u, 100u, 5000u, 70000u}) {
    std::vector<std::optional<std::int64_t>> keys(n);
    for (auto& k : keys)
      if (g() % 8 != 0) k = static_cast<std::int64_t>(g() % (n / 3 + 1)) * 1000003 - 5;
    auto key_at = [&](std::size_t i) { return keys[i]; };
    const auto serial = jy::exec::group_rows<std::int64_t>(n, key_at);
    const auto serial_leaders = jy::exec::group_leaders(serial);
    for (const auto t : {jy::exec::threads(1), jy::exec::threads(2, 1), jy::exec::threads(3, 16), jy::exec::threads(2)}) {
      const auto parts = jy::exec::group_rows<std::int64_t>(t, n, key_at);
      INFO("n=" << n << " threads=" << t.count << " parts=" << parts.part_count());
      REQUIRE(parts.group_count() == serial.group_count());
      CHECK(std::vector<std::uint32_t>(parts.leaders().begin(), parts.leaders().end()) == serial_leaders);
      std::vector<ex::group_id> of_row(n, ex::no_group);
      std::size_t in_parts = 0;
      for (std::size_t p = 0; p < parts.part_count(); ++p) {
        const auto rows = parts.rows(p);
        for (std::size_t j = 0; j < rows.size(); ++j) {
          if (j > 0) REQUIRE(rows[j - 1] < rows[j]);
          of_row[rows[j]] = parts.global_ids(p)[parts.part(p).group_of_row(j)];
        }
        in_parts += rows.size();
      }
      std::vector<ex::group_id> expected(n);
      for (std::size_t i = 0; i < n; ++i) expected[i] = serial.group_of_row(i);
      CHECK(of_row == expected);
      CHECK(in_parts == serial.keyed_rows());
      CHECK(parts.duplicate_group_count() == serial.duplicate_group_count());
    }
  }
}
