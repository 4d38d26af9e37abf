// Predecessor lookup over N rows: out[a] = sum value[b] where prior[a] == id[b]
// (DESIGN.md §2.3's self-join), jy::evaluate beside the hand-written hash-map
// loop in the same binary. Ids are distinct scrambled sparse keys; 1 prior in
// 16 names no row. Both sides include building the index and the output.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

#include <joinery/aggregate/evaluate.hpp>
#include <joinery/aggregate/node.hpp>

#include <bench_data.hpp>

namespace jy = joinery;

namespace {

struct row_ax : jy::index_set<"row_ax"> {};
constexpr auto r_id = jy::data<"r_id", std::int64_t>(row_ax{});
constexpr auto r_priorID = jy::data<"r_priorID", std::int64_t>(row_ax{});
constexpr auto value = jy::data<"value", double>(row_ax{});
constexpr auto a = jy::sym<"a">;
constexpr auto b = jy::sym<"b">;
constexpr auto prior_value = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                           jy::join(jy::on(r_priorID, r_id)), jy::sum(value(b)));

struct rows {
  std::vector<std::int64_t> id, prior;
  std::vector<double> value;
};

const rows& data_for(std::size_t n) {
  static std::size_t cached_n = 0;
  static rows r;
  if (cached_n != n) {
    r.id = joinery::bench::dim_keys(n);
    r.prior = joinery::bench::fact_keys(n, n, 7);
    std::uint64_t seed = 99;
    for (auto& p : r.prior)
      if (joinery::bench::splitmix64(seed) % 16 == 0) p = -1;  // no predecessor
    r.value.resize(n);
    for (std::size_t i = 0; i < n; ++i) r.value[i] = static_cast<double>(i % 1000);
    cached_n = n;
  }
  return r;
}

void joinery_evaluate(benchmark::State& state) {
  const rows& d = data_for(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto out = jy::evaluate(prior_value, jy::extent(row_ax{}, d.id.size()), r_id = d.id, r_priorID = d.prior,
                            value = d.value);
    benchmark::DoNotOptimize(out.values().data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void hand_hash_map(benchmark::State& state) {
  const rows& d = data_for(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    std::unordered_map<std::int64_t, std::size_t> at;
    at.reserve(d.id.size());
    for (std::size_t i = 0; i < d.id.size(); ++i) at.emplace(d.id[i], i);
    std::vector<double> out(d.id.size(), 0.0);
    for (std::size_t i = 0; i < d.prior.size(); ++i) {
      const auto it = at.find(d.prior[i]);
      if (it != at.end()) out[i] += d.value[it->second];
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

/// A second, stronger baseline: a hand-written flat open-addressing table
/// (linear probing, power-of-two capacity at load <= 1/2, key and row in the
/// slot), i.e. the table a careful engineer writes for unique int64 keys.
void hand_flat_table(benchmark::State& state) {
  const rows& d = data_for(static_cast<std::size_t>(state.range(0)));
  struct slot {
    std::int64_t key;
    std::uint32_t row;  // UINT32_MAX = empty
  };
  constexpr std::uint32_t empty = 0xffffffffU;
  for (auto _ : state) {
    std::size_t cap = 16;
    while (cap < 2 * d.id.size()) cap <<= 1;
    const std::size_t mask = cap - 1;
    std::vector<slot> table(cap, slot{0, empty});
    auto home = [&](std::int64_t k) {
      std::uint64_t x = static_cast<std::uint64_t>(k);
      x ^= x >> 33;
      x *= 0xff51afd7ed558ccdULL;
      x ^= x >> 33;
      return static_cast<std::size_t>(x) & mask;
    };
    for (std::size_t i = 0; i < d.id.size(); ++i) {
      std::size_t s = home(d.id[i]);
      while (table[s].row != empty && table[s].key != d.id[i]) s = (s + 1) & mask;
      if (table[s].row == empty) table[s] = slot{d.id[i], static_cast<std::uint32_t>(i)};
    }
    std::vector<double> out(d.id.size(), 0.0);
    for (std::size_t i = 0; i < d.prior.size(); ++i) {
      std::size_t s = home(d.prior[i]);
      while (table[s].row != empty) {
        if (table[s].key == d.prior[i]) {
          out[i] += d.value[table[s].row];
          break;
        }
        s = (s + 1) & mask;
      }
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

}  // namespace

BENCHMARK(hand_flat_table)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(joinery_evaluate)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(hand_hash_map)->Arg(1'000'000)->Arg(10'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
