// Relational plans against a hand-written flat open-addressing hash join /
// group-by, in one binary on the same data (bench/support/bench_data.hpp:
// int64 keys scrambled and spread, so no layout is favoured). Cases of
// issue 3: inner and left many-to-one joins (count + sum of a right column,
// and full materialization), semi/anti, and group-by count+sum. Sizes are
// benchmark arguments; docs/perf/plan.md records a run.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <bench_data.hpp>
#include <joinery/core/key.hpp>
#include <joinery/plan/relational.hpp>

namespace jy = joinery;
namespace jb = joinery::bench;

namespace {

struct fact : jy::table<"fact", jy::column<"id", std::int64_t>, jy::column<"k", std::int64_t>,
                        jy::column<"amount", double>> {};
struct dim : jy::table<"dim", jy::column<"k", std::int64_t>, jy::column<"v", double>> {};

constexpr auto f_id = jy::col<fact, "id">;
constexpr auto f_k = jy::col<fact, "k">;
constexpr auto f_amount = jy::col<fact, "amount">;
constexpr auto d_k = jy::col<dim, "k">;
constexpr auto d_v = jy::col<dim, "v">;

constexpr auto inner_v = jy::from<fact> | jy::join_inner<dim>(f_k == d_k) | jy::select(jy::as<"v">(d_v));
constexpr auto left_v = jy::from<fact> | jy::join_left<dim>(f_k == d_k) | jy::select(jy::as<"v">(d_v));
constexpr auto inner_full = jy::from<fact> | jy::join_inner<dim>(f_k == d_k) |
                            jy::select(jy::as<"id">(f_id), jy::as<"amount">(f_amount), jy::as<"v">(d_v));
constexpr auto left_full = jy::from<fact> | jy::join_left<dim>(f_k == d_k) |
                           jy::select(jy::as<"id">(f_id), jy::as<"amount">(f_amount), jy::as<"v">(d_v));
constexpr auto semi = jy::from<fact> | jy::join_semi<dim>(f_k == d_k) | jy::select(jy::as<"id">(f_id));
constexpr auto anti = jy::from<fact> | jy::join_anti<dim>(f_k == d_k) | jy::select(jy::as<"id">(f_id));
constexpr auto inner_m2o = jy::from<fact> | jy::join_inner<dim>(f_k == d_k, jy::expect::many_to_one) |
                           jy::select(jy::as<"id">(f_id), jy::as<"amount">(f_amount), jy::as<"v">(d_v));
constexpr auto inner_o2o = jy::from<fact> | jy::join_inner<dim>(f_k == d_k, jy::expect::one_to_one) |
                           jy::select(jy::as<"id">(f_id), jy::as<"amount">(f_amount), jy::as<"v">(d_v));
constexpr auto grouped = jy::from<fact> | jy::group_by(f_k) |
                         jy::aggregate(jy::as<"n">(jy::count()), jy::as<"s">(jy::sum(f_amount)));

/// Fact rows whose keys are drawn from `m_keys` dimension keys (m_keys > m: some miss).
struct dataset {
  jy::relation<fact> f;
  jy::relation<dim> d;
  std::vector<std::int64_t> fk, dk;
  std::vector<double> famount, dv;
  std::vector<std::int64_t> fid;
};

const dataset& data_for(std::size_t n, std::size_t m, std::size_t key_space) {
  static std::map<std::tuple<std::size_t, std::size_t, std::size_t>, dataset> cache;
  auto [it, fresh] = cache.try_emplace({n, m, key_space});
  dataset& ds = it->second;
  if (fresh) {
    ds.fk = jb::fact_keys(n, key_space);
    ds.dk = jb::dim_keys(m);
    ds.fid.resize(n);
    ds.famount.resize(n);
    ds.dv.resize(m);
    for (std::size_t i = 0; i < n; ++i) {
      ds.fid[i] = static_cast<std::int64_t>(i);
      ds.famount[i] = static_cast<double>(i % 1000) * 0.5;
    }
    for (std::size_t j = 0; j < m; ++j) ds.dv[j] = static_cast<double>(j % 97);
    ds.f.assign_columns(ds.fid, ds.fk, ds.famount);
    ds.d.assign_columns(ds.dk, ds.dv);
  }
  return ds;
}

// ---- the hand-written baseline: flat open addressing, key + row in the slot,
// linear probing, load <= 1/2, the same 64-bit mixer as the library.
struct flat_index {
  struct slot {
    std::int64_t key;
    std::int64_t row;  // -1: empty
  };
  std::vector<slot> slots;
  std::uint64_t mask = 0;
  unsigned shift = 64;

  explicit flat_index(std::size_t expected) {
    std::size_t cap = 16;
    while (cap < 2 * expected) cap <<= 1;
    slots.assign(cap, slot{0, -1});
    mask = cap - 1;
    shift = 64 - static_cast<unsigned>(__builtin_ctzll(cap));
  }
  std::uint64_t home(std::int64_t k) const noexcept {
    return (jy::detail::mix64(static_cast<std::uint64_t>(k)) >> shift) & mask;
  }
  /// The row of `k`, inserting `row` when absent (returns -1 then).
  std::int64_t find_or_insert(std::int64_t k, std::int64_t row) noexcept {
    std::uint64_t s = home(k);
    while (slots[s].row >= 0) {
      if (slots[s].key == k) return slots[s].row;
      s = (s + 1) & mask;
    }
    slots[s] = {k, row};
    return -1;
  }
  std::int64_t find(std::int64_t k) const noexcept {
    std::uint64_t s = home(k);
    for (;;) {
      const slot& sl = slots[s];
      if (sl.row < 0) return -1;
      if (sl.key == k) return sl.row;
      s = (s + 1) & mask;
    }
  }
};

flat_index build_unique(const std::vector<std::int64_t>& keys) {
  flat_index t(keys.size());
  for (std::size_t r = 0; r < keys.size(); ++r) t.find_or_insert(keys[r], static_cast<std::int64_t>(r));
  return t;
}

void args_join(benchmark::internal::Benchmark* b) {
  b->Args({1'000'000, 100'000})->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
}
void args_join_big(benchmark::internal::Benchmark* b) {
  b->Args({10'000'000, 1'000'000})->Unit(benchmark::kMillisecond)->Repetitions(3)->ReportAggregatesOnly(true);
}
void args_group(benchmark::internal::Benchmark* b) {
  b->Args({1'000'000, 100'000})->Args({1'000'000, 1'000'000})->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
}
void args_group_big(benchmark::internal::Benchmark* b) {
  b->Args({10'000'000, 100'000})->Args({10'000'000, 1'000'000})->Unit(benchmark::kMillisecond)->Repetitions(3)->ReportAggregatesOnly(true);
}

std::size_t arg(const benchmark::State& s, int i) { return static_cast<std::size_t>(s.range(i)); }

// ---- inner / left, count + sum of a right column
/// Count and sum of one pass. Each case computes its totals in a function and
/// returns them (as user code would): a `DoNotOptimize` on the accumulators
/// themselves would take their address, and every call left in the loop (the
/// streaming run's per-chunk refill) would then force them through memory.
struct totals {
  std::int64_t n = 0;
  double sum = 0;
};

[[gnu::noinline]] totals joinery_inner_totals(const dataset& ds) {
  totals t;
  for (auto row : jy::run(inner_v, ds.f, ds.d)) ++t.n, t.sum += jy::get<"v">(row);
  return t;
}
[[gnu::noinline]] totals baseline_inner_totals(const dataset& ds) {
  const flat_index idx = build_unique(ds.dk);
  totals t;
  for (std::int64_t k : ds.fk) {
    const std::int64_t r = idx.find(k);
    if (r >= 0) ++t.n, t.sum += ds.dv[static_cast<std::size_t>(r)];
  }
  return t;
}
[[gnu::noinline]] totals joinery_left_totals(const dataset& ds) {
  totals t;
  for (auto row : jy::run(left_v, ds.f, ds.d)) ++t.n, t.sum += jy::get<"v">(row).value_or(0.0);
  return t;
}
[[gnu::noinline]] totals baseline_left_totals(const dataset& ds) {
  const flat_index idx = build_unique(ds.dk);
  totals t;
  for (std::int64_t k : ds.fk) {
    const std::int64_t r = idx.find(k);
    ++t.n;
    if (r >= 0) t.sum += ds.dv[static_cast<std::size_t>(r)];
  }
  return t;
}

template <totals (*F)(const dataset&)>
void count_sum_case(benchmark::State& s, std::size_t key_space) {
  const auto& ds = data_for(arg(s, 0), arg(s, 1), key_space);
  totals t;
  for (auto _ : s) benchmark::DoNotOptimize(t = F(ds));
  s.counters["count"] = static_cast<double>(t.n);
}
void joinery_inner_count_sum(benchmark::State& s) { count_sum_case<joinery_inner_totals>(s, arg(s, 1)); }
void baseline_inner_count_sum(benchmark::State& s) { count_sum_case<baseline_inner_totals>(s, arg(s, 1)); }
void joinery_left_count_sum(benchmark::State& s) { count_sum_case<joinery_left_totals>(s, 2 * arg(s, 1)); }
void baseline_left_count_sum(benchmark::State& s) { count_sum_case<baseline_left_totals>(s, 2 * arg(s, 1)); }

// ---- full materialization (fact id, fact amount, dim value)
void joinery_inner_materialize(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), arg(s, 1), arg(s, 1));
  for (auto _ : s) {
    auto rel = jy::materialize(inner_full, ds.f, ds.d);
    benchmark::DoNotOptimize(rel.size());
  }
}
/// The same on two threads: the join and the column evaluation split by rows.
void joinery_inner_materialize_2threads(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), arg(s, 1), arg(s, 1));
  for (auto _ : s) {
    auto rel = jy::materialize(inner_full, jy::threads(2), ds.f, ds.d);
    benchmark::DoNotOptimize(rel.size());
  }
}
void baseline_inner_materialize(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), arg(s, 1), arg(s, 1));
  for (auto _ : s) {
    const flat_index t = build_unique(ds.dk);
    std::vector<std::int64_t> id;
    std::vector<double> amount, v;
    id.reserve(ds.fk.size());
    amount.reserve(ds.fk.size());
    v.reserve(ds.fk.size());
    for (std::size_t i = 0; i < ds.fk.size(); ++i) {
      const std::int64_t r = t.find(ds.fk[i]);
      if (r < 0) continue;
      id.push_back(ds.fid[i]);
      amount.push_back(ds.famount[i]);
      v.push_back(ds.dv[static_cast<std::size_t>(r)]);
    }
    benchmark::DoNotOptimize(id.data());
    benchmark::DoNotOptimize(v.data());
  }
}
void joinery_left_materialize(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), arg(s, 1), 2 * arg(s, 1));
  for (auto _ : s) {
    auto rel = jy::materialize(left_full, ds.f, ds.d);
    benchmark::DoNotOptimize(rel.size());
  }
}
void baseline_left_materialize(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), arg(s, 1), 2 * arg(s, 1));
  for (auto _ : s) {
    const flat_index t = build_unique(ds.dk);
    std::vector<std::int64_t> id;
    std::vector<double> amount;
    std::vector<std::optional<double>> v;
    id.reserve(ds.fk.size());
    amount.reserve(ds.fk.size());
    v.reserve(ds.fk.size());
    for (std::size_t i = 0; i < ds.fk.size(); ++i) {
      const std::int64_t r = t.find(ds.fk[i]);
      id.push_back(ds.fid[i]);
      amount.push_back(ds.famount[i]);
      v.push_back(r < 0 ? std::optional<double>() : std::optional<double>(ds.dv[static_cast<std::size_t>(r)]));
    }
    benchmark::DoNotOptimize(id.data());
    benchmark::DoNotOptimize(v.data());
  }
}

// ---- semi / anti (half the fact keys miss)
template <bool Keep>
void baseline_semi_anti(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), arg(s, 1), 2 * arg(s, 1));
  for (auto _ : s) {
    const flat_index t = build_unique(ds.dk);
    std::vector<std::int64_t> id;
    id.reserve(ds.fk.size());
    for (std::size_t i = 0; i < ds.fk.size(); ++i)
      if ((t.find(ds.fk[i]) >= 0) == Keep) id.push_back(ds.fid[i]);
    benchmark::DoNotOptimize(id.data());
  }
}
void joinery_semi(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), arg(s, 1), 2 * arg(s, 1));
  for (auto _ : s) {
    auto rel = jy::materialize(semi, ds.f, ds.d);
    benchmark::DoNotOptimize(rel.size());
  }
}
void joinery_anti(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), arg(s, 1), 2 * arg(s, 1));
  for (auto _ : s) {
    auto rel = jy::materialize(anti, ds.f, ds.d);
    benchmark::DoNotOptimize(rel.size());
  }
}
void baseline_semi(benchmark::State& s) { baseline_semi_anti<true>(s); }
void baseline_anti(benchmark::State& s) { baseline_semi_anti<false>(s); }

// ---- group-by count + sum (args: rows, groups)
void joinery_group_count_sum(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), 1, arg(s, 1));
  for (auto _ : s) {
    auto rel = jy::materialize(grouped, ds.f);
    benchmark::DoNotOptimize(rel.size());
  }
}
/// The same plan grouped on two threads (keys split by hash; same rows, same order).
void joinery_group_count_sum_2threads(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), 1, arg(s, 1));
  for (auto _ : s) {
    auto rel = jy::materialize(grouped, jy::threads(2), ds.f);
    benchmark::DoNotOptimize(rel.size());
  }
}
void baseline_group_count_sum(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), 1, arg(s, 1));
  for (auto _ : s) {
    flat_index t(1024);
    std::vector<std::int64_t> key, count;
    std::vector<double> sum;
    for (std::size_t i = 0; i < ds.fk.size(); ++i) {
      if (2 * (key.size() + 1) > t.slots.size()) {  // grow: rehash the groups
        flat_index bigger(2 * t.slots.size());
        for (std::size_t g = 0; g < key.size(); ++g) bigger.find_or_insert(key[g], static_cast<std::int64_t>(g));
        t = std::move(bigger);
      }
      const std::int64_t g = t.find_or_insert(ds.fk[i], static_cast<std::int64_t>(key.size()));
      if (g < 0) {
        key.push_back(ds.fk[i]);
        count.push_back(1);
        sum.push_back(ds.famount[i]);
      } else {
        ++count[static_cast<std::size_t>(g)];
        sum[static_cast<std::size_t>(g)] += ds.famount[i];
      }
    }
    benchmark::DoNotOptimize(key.data());
    benchmark::DoNotOptimize(sum.data());
  }
}

// ---- issue 4: the cost of an expectation (annotated vs the same join unannotated)
void unannotated_join(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), arg(s, 1), arg(s, 1));
  for (auto _ : s) {
    auto rel = jy::materialize(inner_full, ds.f, ds.d);
    benchmark::DoNotOptimize(rel.size());
  }
}
void many_to_one_join(benchmark::State& s) {
  const auto& ds = data_for(arg(s, 0), arg(s, 1), arg(s, 1));
  for (auto _ : s) {
    auto rel = jy::materialize(inner_m2o, ds.f, ds.d);
    benchmark::DoNotOptimize(rel.size());
  }
}
/// one_to_one needs unique left keys: the fact side is a permutation of the dimension keys.
const dataset& unique_pairs(std::size_t n) {
  static std::map<std::size_t, dataset> cache;
  auto [it, fresh] = cache.try_emplace(n);
  dataset& ds = it->second;
  if (fresh) {
    ds.dk = jb::dim_keys(n);
    ds.fk = ds.dk;
    std::uint64_t seed = 7;
    for (std::size_t i = n; i > 1; --i) std::swap(ds.fk[i - 1], ds.fk[jb::splitmix64(seed) % i]);
    ds.fid.resize(n);
    ds.famount.assign(n, 1.0);
    ds.dv.assign(n, 2.0);
    for (std::size_t i = 0; i < n; ++i) ds.fid[i] = static_cast<std::int64_t>(i);
    ds.f.assign_columns(ds.fid, ds.fk, ds.famount);
    ds.d.assign_columns(ds.dk, ds.dv);
  }
  return ds;
}
void unannotated_join_unique(benchmark::State& s) {
  const auto& ds = unique_pairs(arg(s, 0));
  for (auto _ : s) {
    auto rel = jy::materialize(inner_full, ds.f, ds.d);
    benchmark::DoNotOptimize(rel.size());
  }
}
void one_to_one_join(benchmark::State& s) {
  const auto& ds = unique_pairs(arg(s, 0));
  for (auto _ : s) {
    auto rel = jy::materialize(inner_o2o, ds.f, ds.d);
    benchmark::DoNotOptimize(rel.size());
  }
}
void args_o2o(benchmark::internal::Benchmark* b) {
  b->Args({1'000'000})->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
}

}  // namespace

BENCHMARK(unannotated_join)->Apply(args_join);
BENCHMARK(many_to_one_join)->Apply(args_join);
BENCHMARK(unannotated_join_unique)->Apply(args_o2o);
BENCHMARK(one_to_one_join)->Apply(args_o2o);
BENCHMARK(unannotated_join)->Apply(args_join_big)->Name("big/unannotated_join");
BENCHMARK(many_to_one_join)->Apply(args_join_big)->Name("big/many_to_one_join");
BENCHMARK(baseline_inner_count_sum)->Apply(args_join);
BENCHMARK(joinery_inner_count_sum)->Apply(args_join);
BENCHMARK(baseline_left_count_sum)->Apply(args_join);
BENCHMARK(joinery_left_count_sum)->Apply(args_join);
BENCHMARK(baseline_inner_materialize)->Apply(args_join);
BENCHMARK(joinery_inner_materialize)->Apply(args_join);
BENCHMARK(baseline_left_materialize)->Apply(args_join);
BENCHMARK(joinery_left_materialize)->Apply(args_join);
BENCHMARK(baseline_semi)->Apply(args_join);
BENCHMARK(joinery_semi)->Apply(args_join);
BENCHMARK(baseline_anti)->Apply(args_join);
BENCHMARK(joinery_anti)->Apply(args_join);
BENCHMARK(baseline_group_count_sum)->Apply(args_group);
BENCHMARK(joinery_group_count_sum)->Apply(args_group);
// The large sizes (memory and minutes on 2 shared cores): run with
// --benchmark_filter=big.
BENCHMARK(baseline_inner_count_sum)->Apply(args_join_big)->Name("big/baseline_inner_count_sum");
BENCHMARK(joinery_inner_count_sum)->Apply(args_join_big)->Name("big/joinery_inner_count_sum");
BENCHMARK(baseline_left_count_sum)->Apply(args_join_big)->Name("big/baseline_left_count_sum");
BENCHMARK(joinery_left_count_sum)->Apply(args_join_big)->Name("big/joinery_left_count_sum");
BENCHMARK(baseline_inner_materialize)->Apply(args_join_big)->Name("big/baseline_inner_materialize");
BENCHMARK(joinery_inner_materialize)->Apply(args_join_big)->Name("big/joinery_inner_materialize");
BENCHMARK(joinery_inner_materialize_2threads)->Apply(args_join_big)->Name("big/joinery_inner_materialize_2threads")->UseRealTime();
BENCHMARK(baseline_left_materialize)->Apply(args_join_big)->Name("big/baseline_left_materialize");
BENCHMARK(joinery_left_materialize)->Apply(args_join_big)->Name("big/joinery_left_materialize");
BENCHMARK(baseline_semi)->Apply(args_join_big)->Name("big/baseline_semi");
BENCHMARK(joinery_semi)->Apply(args_join_big)->Name("big/joinery_semi");
BENCHMARK(baseline_anti)->Apply(args_join_big)->Name("big/baseline_anti");
BENCHMARK(joinery_anti)->Apply(args_join_big)->Name("big/joinery_anti");
BENCHMARK(baseline_group_count_sum)->Apply(args_group_big)->Name("big/baseline_group_count_sum");
BENCHMARK(joinery_group_count_sum)->Apply(args_group_big)->Name("big/joinery_group_count_sum");
BENCHMARK(joinery_group_count_sum_2threads)->Apply(args_group_big)->Name("big/joinery_group_count_sum_2threads")->UseRealTime();

BENCHMARK_MAIN();
