// The join kernel against hand-written baselines in the SAME binary:
// inner many-to-one join with count + sum of the build payload, scrambled
// sparse int64 keys (bench_data.hpp) and dense keys, a group-by count + sum
// (`exec::fold_groups`), plus the memory-limit probes it is bounded by.
// M rows/s = (|probe| + |build|) / time.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <joinery/exec/arranged_values.hpp>
#include <joinery/exec/arrangement.hpp>
#include <joinery/exec/equi_join.hpp>
#include <joinery/exec/group_by.hpp>
#include <joinery/exec/threads.hpp>

#include "baseline.hpp"
#include "bench_data.hpp"

namespace jb = joinery::bench;
namespace ex = joinery::exec;

namespace {

struct dataset {
  std::vector<std::int64_t> dim_key, dim_val, fact_key, fact_val;
};

/// Key kinds: scrambled sparse keys; dense keys 0..m-1 in row order (a
/// surrogate key: the identity layout); the same dense keys in shuffled rows
/// (the direct-address layout).
enum keys : int { sparse = 0, dense = 1, dense_shuffled = 2 };

/// Cached per (n, m, kind) so every benchmark of one size reads the same data.
const dataset& data(std::size_t n, std::size_t m, int kind) {
  static std::map<std::tuple<std::size_t, std::size_t, int>, dataset> cache;
  auto& d = cache[{n, m, kind}];
  if (d.dim_key.empty()) {
    if (kind != sparse) {
      d.dim_key.resize(m);
      // 1000003 is prime and does not divide m: i -> i * 1000003 mod m is a permutation.
      for (std::size_t i = 0; i < m; ++i)
        d.dim_key[i] = static_cast<std::int64_t>(kind == dense ? i : (i * 1000003) % m);
      d.fact_key.resize(n);
      std::uint64_t seed = 42;
      for (auto& k : d.fact_key) k = static_cast<std::int64_t>(jb::splitmix64(seed) % m);
    } else {
      d.dim_key = jb::dim_keys(m);
      d.fact_key = jb::fact_keys(n, m);
    }
    d.dim_val.resize(m);
    for (std::size_t i = 0; i < m; ++i) d.dim_val[i] = static_cast<std::int64_t>(i % 1000);
    d.fact_val.resize(n);
    for (std::size_t i = 0; i < n; ++i) d.fact_val[i] = static_cast<std::int64_t>(i % 7);
  }
  return d;
}

void finish(benchmark::State& st, std::size_t n, std::size_t m, jb::count_sum r) {
  st.counters["count"] = static_cast<double>(r.count);
  st.counters["Mrows/s"] = benchmark::Counter(static_cast<double>(n + m) * static_cast<double>(st.iterations()) / 1e6,
                                              benchmark::Counter::kIsRate);
}

jb::count_sum joinery_count_sum(const dataset& d) {
  ex::arrangement<std::int64_t> arr;
  arr.build(d.dim_key.size(), [&](std::size_t i) { return std::optional<std::int64_t>(d.dim_key[i]); });
  jb::count_sum r;
  ex::probe<ex::join_kind::inner>(
      arr, d.fact_key.size(), [&](std::size_t i) { return std::optional<std::int64_t>(d.fact_key[i]); },
      [](std::size_t, std::size_t) { return true; },
      [&](std::size_t, std::size_t j) {
        ++r.count;
        r.sum += d.dim_val[j];
      });
  return r;
}

jb::count_sum joinery_count_sum_threads(const dataset& d, unsigned t) {
  ex::arrangement<std::int64_t> arr;
  arr.build(d.dim_key.size(), [&](std::size_t i) { return std::optional<std::int64_t>(d.dim_key[i]); });
  struct sink {
    const std::vector<std::int64_t>* val;
    jb::count_sum r;
    void operator()(std::size_t, std::size_t j) {
      ++r.count;
      r.sum += (*val)[j];
    }
  };
  auto parts = ex::probe_parts<ex::join_kind::inner>(
      ex::threads(t), arr, d.fact_key.size(),
      [&](std::size_t i) { return std::optional<std::int64_t>(d.fact_key[i]); },
      [](std::size_t, std::size_t) { return true; }, [&](std::size_t) { return sink{&d.dim_val, {}}; });
  jb::count_sum r;
  for (const auto& p : parts) {
    r.count += p.r.count;
    r.sum += p.r.sum;
  }
  return r;
}

/// The same, the emit handed the build-side value (`exec::with_values`:
/// one entry read per probe row for dense shuffled keys, one bucket for
/// sparse ones, instead of the group or slot and then the column).
jb::count_sum joinery_count_sum_values(const dataset& d) {
  ex::arrangement<std::int64_t> arr;
  arr.build(d.dim_key.size(), [&](std::size_t i) { return std::optional<std::int64_t>(d.dim_key[i]); });
  const auto values = ex::arrange_values(arr, d.dim_val);
  jb::count_sum r;
  ex::probe<ex::join_kind::inner>(
      arr, d.fact_key.size(), [&](std::size_t i) { return std::optional<std::int64_t>(d.fact_key[i]); },
      [](std::size_t, std::size_t) { return true; },
      ex::with_values(
          [&](std::size_t, std::size_t, std::int64_t v) {
            ++r.count;
            r.sum += v;
          },
          values));
  return r;
}

/// One join benchmark: `run(dataset)` timed on the case's data.
template <class Run>
void count_sum_bench(benchmark::State& st, int kind, Run run) {
  const auto n = static_cast<std::size_t>(st.range(0)), m = static_cast<std::size_t>(st.range(1));
  const auto& d = data(n, m, kind);
  jb::count_sum r;
  for (auto _ : st) benchmark::DoNotOptimize(r = run(d));
  finish(st, n, m, r);
}
template <int Kind>
void BM_joinery(benchmark::State& st) {
  count_sum_bench(st, Kind, joinery_count_sum);
}
template <int Kind>
void BM_joinery_values(benchmark::State& st) {
  count_sum_bench(st, Kind, joinery_count_sum_values);
}
template <int Kind>
void BM_joinery_2threads(benchmark::State& st) {
  count_sum_bench(st, Kind, [](const dataset& d) { return joinery_count_sum_threads(d, 2); });
}
template <int Kind>
void BM_flat(benchmark::State& st) {
  count_sum_bench(st, Kind, [](const dataset& d) { return jb::flat_join(d.dim_key, d.dim_val, d.fact_key); });
}
template <int Kind>
void BM_flat_prefetch(benchmark::State& st) {
  count_sum_bench(st, Kind,
                  [](const dataset& d) { return jb::flat_join_prefetch(d.dim_key, d.dim_val, d.fact_key); });
}

/// Group-by count + sum of the fact rows by their key (about m groups),
/// folded as the rows are grouped, against `flat_group_by`.
jb::count_sum joinery_group_by(const dataset& d) {
  struct acc {
    std::int64_t count = 0, sum = 0;
  };
  const std::int64_t* val = d.fact_val.data();
  const auto groups = ex::fold_groups<std::int64_t>(
      d.fact_key.size(), [&](std::size_t i) { return std::optional<std::int64_t>(d.fact_key[i]); }, acc{},
      [val](acc& a, std::size_t i) {
        ++a.count;
        a.sum += val[i];
      });
  jb::count_sum r;
  r.count = static_cast<std::int64_t>(groups.group_count());
  for (const acc& a : groups.accumulators) r.sum += a.sum;
  return r;
}
void group_by_finish(benchmark::State& st, std::size_t n, jb::count_sum r) {
  st.counters["groups"] = static_cast<double>(r.count);
  st.counters["Mrows/s"] =
      benchmark::Counter(static_cast<double>(n) * static_cast<double>(st.iterations()) / 1e6, benchmark::Counter::kIsRate);
}
void BM_joinery_group_by(benchmark::State& st) {
  const auto n = static_cast<std::size_t>(st.range(0));
  const auto& d = data(n, static_cast<std::size_t>(st.range(1)), sparse);
  // One call first: Google Benchmark 1.7 has no warm-up, and a 10^6-group
  // table's first fault-in is the host's (see docs/performance.md), not the fold's.
  jb::count_sum r = joinery_group_by(d);
  for (auto _ : st) benchmark::DoNotOptimize(r = joinery_group_by(d));
  group_by_finish(st, n, r);
}
void BM_flat_group_by(benchmark::State& st) {
  const auto n = static_cast<std::size_t>(st.range(0));
  const auto& d = data(n, static_cast<std::size_t>(st.range(1)), sparse);
  jb::count_sum r = jb::flat_group_by(d.fact_key, d.fact_val);  // warmed up as BM_joinery_group_by is
  for (auto _ : st) benchmark::DoNotOptimize(r = jb::flat_group_by(d.fact_key, d.fact_val));
  group_by_finish(st, n, r);
}

/// Build alone (the arrangement of the dimension side).
void BM_joinery_build(benchmark::State& st) {
  const auto m = static_cast<std::size_t>(st.range(1));
  const auto& d = data(static_cast<std::size_t>(st.range(0)), m, sparse);
  for (auto _ : st) {
    ex::arrangement<std::int64_t> arr;
    arr.build(m, [&](std::size_t i) { return std::optional<std::int64_t>(d.dim_key[i]); });
    benchmark::DoNotOptimize(arr.group_count());
  }
  st.counters["Mrows/s"] = benchmark::Counter(static_cast<double>(m) * static_cast<double>(st.iterations()) / 1e6,
                                              benchmark::Counter::kIsRate);
}

/// The gather bound of a join: 2 x |probe| random gathers into a table of
/// the arrangement's probed size (its slot array, a power of two).
void BM_gather_bound(benchmark::State& st) {
  const auto n = static_cast<std::size_t>(st.range(0)), m = static_cast<std::size_t>(st.range(1));
  const auto& d = data(n, m, sparse);
  ex::arrangement<std::int64_t> arr;
  arr.build(m, [&](std::size_t i) { return std::optional<std::int64_t>(d.dim_key[i]); });
  std::size_t slot_bytes = 16;  // one 16-byte slot per table entry, 2 entries per key at most
  while (slot_bytes < 2 * m * 16) slot_bytes <<= 1;
  const auto table = jb::gather_table(slot_bytes);
  for (auto _ : st) benchmark::DoNotOptimize(jb::random_gather(table, 2 * n));
  st.counters["MiB"] = static_cast<double>(table.size() * 8) / (1 << 20);
  st.counters["arrangement_MiB"] = static_cast<double>(arr.memory_bytes()) / (1 << 20);
  st.counters["Mrows/s"] = benchmark::Counter(static_cast<double>(n + m) * static_cast<double>(st.iterations()) / 1e6,
                                              benchmark::Counter::kIsRate);
}

/// Memory-limit probes: 1e7 random 8-byte gathers into a table of N MiB.
void BM_random_gather(benchmark::State& st) {
  const auto table = jb::gather_table(static_cast<std::size_t>(st.range(0)) << 20);
  constexpr std::size_t n = 10'000'000;
  for (auto _ : st) benchmark::DoNotOptimize(jb::random_gather(table, n));
  st.counters["Mgathers/s"] =
      benchmark::Counter(static_cast<double>(n) * static_cast<double>(st.iterations()) / 1e6, benchmark::Counter::kIsRate);
}
/// Sequential read of 1e7 int64 keys.
void BM_sequential_read(benchmark::State& st) {
  const auto& d = data(10'000'000, 1'000'000, sparse);
  for (auto _ : st) benchmark::DoNotOptimize(jb::sequential_read(d.fact_key));
  st.counters["Mkeys/s"] = benchmark::Counter(1e7 * static_cast<double>(st.iterations()) / 1e6,
                                              benchmark::Counter::kIsRate);
}

void sizes(benchmark::internal::Benchmark* b) {
  b->Args({1'000'000, 100'000})->Args({10'000'000, 1'000'000})->Args({10'000'000, 100'000});
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}
/// Group-by: 10^7 rows into about 10^5 and 10^6 groups.
void group_sizes(benchmark::internal::Benchmark* b) {
  b->Args({10'000'000, 100'000})->Args({10'000'000, 1'000'000});
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace

BENCHMARK(BM_joinery<sparse>)->Apply(sizes);
BENCHMARK(BM_flat<sparse>)->Apply(sizes);
BENCHMARK(BM_flat_prefetch<sparse>)->Apply(sizes);
BENCHMARK(BM_joinery_values<sparse>)->Apply(sizes);
BENCHMARK(BM_joinery_2threads<sparse>)->Apply(sizes);
BENCHMARK(BM_gather_bound)->Apply(sizes);
BENCHMARK(BM_joinery_build)->Apply(sizes);
BENCHMARK(BM_joinery<dense>)->Apply(sizes);
BENCHMARK(BM_joinery<dense_shuffled>)->Apply(sizes);
BENCHMARK(BM_joinery_values<dense_shuffled>)->Apply(sizes);
BENCHMARK(BM_flat_prefetch<dense>)->Apply(sizes);
BENCHMARK(BM_joinery_2threads<dense>)->Apply(sizes);
BENCHMARK(BM_joinery_2threads<dense_shuffled>)->Apply(sizes);
BENCHMARK(BM_joinery_group_by)->Apply(group_sizes);
BENCHMARK(BM_flat_group_by)->Apply(group_sizes);
BENCHMARK(BM_random_gather)->Arg(1)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_sequential_read)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
