// The loop DSL's recognised shapes against (a) the same query forced to run
// as the nested loop it is written as (lp::run_nested) and (b) a hand-written
// std::unordered_map index, in one binary. Sizes: posts x grades.
// (a) is quadratic: it is measured at 3e3 and 1e4, and once (one iteration)
// at 1e5 x 1e5 = 1e10 steps; docs/perf/loop.md also gives the counted-work
// ratio. Filter with --benchmark_filter to skip the slow rows.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include <bench_data.hpp>
#include <joinery/loop/loop.hpp>

namespace lp = joinery::loop;

namespace {
struct post {
  std::int64_t id;
  std::int64_t author;
};
struct grade {
  std::int64_t author;
  std::int64_t score;
};

constexpr auto x = lp::var<"x">;
constexpr auto y = lp::var<"y">;

/// n posts and n grades over n/4 authors (groups of ~4 grades), scrambled keys;
/// ~80% of the posts' authors have grades.
struct data {
  std::vector<post> posts;
  std::vector<grade> grades;
  std::unordered_map<std::int64_t, grade> by_author;  // one grade per author

  explicit data(std::size_t n) {
    const std::size_t authors = n / 4 + 1;
    auto pk = joinery::bench::fact_keys(n, authors + authors / 4, 7);  // some authors without grades
    auto gk = joinery::bench::fact_keys(n, authors, 11);
    posts.reserve(n);
    grades.reserve(n);
    for (std::size_t i = 0; i < n; ++i) posts.push_back({static_cast<std::int64_t>(i), pk[i]});
    for (std::size_t i = 0; i < n; ++i) grades.push_back({gk[i], static_cast<std::int64_t>(i % 97)});
    by_author.reserve(authors);
    for (const auto& g : grades) by_author.emplace(g.author, g);
  }
};

const data& get_data(std::size_t n) {
  static std::unordered_map<std::size_t, data> cache;
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, data(n)).first;
  return it->second;
}

auto q_map_get(const data& d) {
  return lp::for_each(x, d.posts, lp::tuple(x[&post::id], lp::map_get(d.by_author, x[&post::author])));
}
auto q_filter(const data& d) {
  return lp::for_each(x, d.posts, lp::filter_list(y, d.grades, y[&grade::author] == x[&post::author]));
}
auto q_len(const data& d) {
  return lp::for_each(x, d.posts, lp::list_len(lp::filter_list(y, d.grades, y[&grade::author] == x[&post::author])));
}
auto q_sum(const data& d) {
  return lp::for_each(x, d.posts, lp::list_sum(lp::map_list(y, lp::filter_list(y, d.grades, y[&grade::author] == x[&post::author]), y[&grade::score])));
}
auto q_min(const data& d) {
  return lp::for_each(x, d.posts, lp::list_min(lp::map_list(y, lp::filter_list(y, d.grades, y[&grade::author] == x[&post::author]), y[&grade::score])));
}
auto q_semi(const data& d) {
  return lp::filter_list(x, d.posts, lp::map_contains(d.by_author, x[&post::author]));
}

// ---- hand-written baselines (b) ------------------------------------------------
std::vector<std::tuple<std::int64_t, std::optional<grade>>> hand_map_get(const data& d) {
  std::vector<std::tuple<std::int64_t, std::optional<grade>>> out;
  out.reserve(d.posts.size());
  for (const auto& p : d.posts) {
    auto it = d.by_author.find(p.author);
    out.emplace_back(p.id, it == d.by_author.end() ? std::nullopt : std::optional<grade>(it->second));
  }
  return out;
}
/// Per post, the positions of its author's grades (in grade order), or none.
std::vector<const std::vector<std::uint32_t>*> hand_filter(const data& d,
                                                           std::unordered_map<std::int64_t, std::vector<std::uint32_t>>& idx) {
  idx.clear();
  idx.reserve(d.grades.size());
  for (std::size_t i = 0; i < d.grades.size(); ++i) idx[d.grades[i].author].push_back(static_cast<std::uint32_t>(i));
  std::vector<const std::vector<std::uint32_t>*> out;
  out.reserve(d.posts.size());
  for (const auto& p : d.posts) {
    auto it = idx.find(p.author);
    out.push_back(it == idx.end() ? nullptr : &it->second);
  }
  return out;
}
std::vector<std::size_t> hand_len(const data& d) {
  std::unordered_map<std::int64_t, std::size_t> n;
  n.reserve(d.grades.size());
  for (const auto& g : d.grades) ++n[g.author];
  std::vector<std::size_t> out;
  out.reserve(d.posts.size());
  for (const auto& p : d.posts) {
    auto it = n.find(p.author);
    out.push_back(it == n.end() ? 0 : it->second);
  }
  return out;
}
std::vector<std::int64_t> hand_sum(const data& d) {
  std::unordered_map<std::int64_t, std::int64_t> s;
  s.reserve(d.grades.size());
  for (const auto& g : d.grades) s[g.author] += g.score;
  std::vector<std::int64_t> out;
  out.reserve(d.posts.size());
  for (const auto& p : d.posts) {
    auto it = s.find(p.author);
    out.push_back(it == s.end() ? 0 : it->second);
  }
  return out;
}
std::vector<std::optional<std::int64_t>> hand_min(const data& d) {
  std::unordered_map<std::int64_t, std::int64_t> m;
  m.reserve(d.grades.size());
  for (const auto& g : d.grades) {
    auto [it, fresh] = m.emplace(g.author, g.score);
    if (!fresh && g.score < it->second) it->second = g.score;
  }
  std::vector<std::optional<std::int64_t>> out;
  out.reserve(d.posts.size());
  for (const auto& p : d.posts) {
    auto it = m.find(p.author);
    out.push_back(it == m.end() ? std::nullopt : std::optional<std::int64_t>(it->second));
  }
  return out;
}
std::vector<post> hand_semi(const data& d) {
  std::vector<post> out;
  for (const auto& p : d.posts)
    if (d.by_author.find(p.author) != d.by_author.end()) out.push_back(p);
  return out;
}

enum class mode { recognised, nested, hand };

template <mode M, class MakeQ, class Hand>
void run_shape(benchmark::State& state, MakeQ make_q, Hand hand) {
  const data& d = get_data(static_cast<std::size_t>(state.range(0)));
  auto q = make_q(d);
  lp::run_stats st;
  for (auto _ : state) {
    if constexpr (M == mode::recognised) {
      st = {};
      auto out = lp::run(q, st);
      benchmark::DoNotOptimize(out.size());
    } else if constexpr (M == mode::nested) {
      st = {};
      auto out = lp::run_nested(q, st);
      benchmark::DoNotOptimize(out.size());
    } else {
      auto out = hand(d);
      benchmark::DoNotOptimize(out.size());
    }
  }
  if constexpr (M != mode::hand) {
    // Counted work of one run: elements the nested loop visited, index rows
    // built and probes made (what docs/perf/loop.md's work ratio uses).
    state.counters["nested_steps"] = static_cast<double>(st.nested_steps);
    state.counters["probes"] = static_cast<double>(st.index_probes + st.map_probes);
    state.counters["index_builds"] = static_cast<double>(st.index_builds);
  }
}

std::unordered_map<std::int64_t, std::vector<std::uint32_t>> filter_idx;

#define LOOP_SHAPE(name, MAKE_Q, HAND)                                                                              \
  void name##_recognised(benchmark::State& s) { run_shape<mode::recognised>(s, MAKE_Q, HAND); }                   \
  void name##_nested(benchmark::State& s) { run_shape<mode::nested>(s, MAKE_Q, HAND); }                           \
  void name##_hand(benchmark::State& s) { run_shape<mode::hand>(s, MAKE_Q, HAND); }                               \
  BENCHMARK(name##_recognised)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);                         \
  BENCHMARK(name##_hand)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);                               \
  BENCHMARK(name##_nested)->Arg(3000)->Arg(10000)->Unit(benchmark::kMillisecond);                              \
  BENCHMARK(name##_nested)->Arg(100000)->Iterations(1)->Unit(benchmark::kMillisecond);

LOOP_SHAPE(map_get, q_map_get, hand_map_get)
LOOP_SHAPE(filter_list, q_filter, [](const data& d) { return hand_filter(d, filter_idx); })
LOOP_SHAPE(list_len, q_len, hand_len)
LOOP_SHAPE(list_sum, q_sum, hand_sum)
LOOP_SHAPE(list_min, q_min, hand_min)
LOOP_SHAPE(restrict_semi, q_semi, hand_semi)

}  // namespace

BENCHMARK_MAIN();
