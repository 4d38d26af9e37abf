// The loop DSL (DESIGN.md §2.4): write the loop you think in; joinery
// recognises the equi-join inside at compile time, builds the index once and
// answers every element from it. Prints explain() for each shape and a few
// results.
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <joinery/loop/loop.hpp>

namespace jy = joinery;
namespace lp = jy::loop;

struct review {
  int id;
  int author;
};
struct verdict {
  int author;
  int score;
};

// A user helper that returns an expression: recognition sees through it.
template <class E, class M>
auto verdict_for(const E& r, const M& m) {
  return lp::map_get(m, r[&review::author]);
}

int main() {
  constexpr auto x = lp::var<"x">;
  constexpr auto y = lp::var<"y">;
  std::vector<review> reviews{{1, 10}, {2, 20}, {3, 10}, {4, 30}};
  std::map<int, verdict> by_author{{10, {10, 5}}, {20, {20, 7}}};
  std::vector<verdict> verdicts{{20, 1}, {10, 2}, {20, 3}, {10, 4}};

  auto same_author = lp::filter_list(y, verdicts, y[&verdict::author] == x[&review::author]);
  auto q1 = lp::for_each(x, reviews, lp::tuple(x[&review::id], verdict_for(x, by_author)));
  auto q2 = lp::for_each(x, reviews, same_author);
  auto q3 = lp::for_each(x, reviews, lp::list_len(same_author));
  auto q4 = lp::for_each(x, reviews, lp::list_sum(lp::map_list(y, same_author, y[&verdict::score])));
  auto q5 = lp::filter_list(x, reviews, lp::map_contains(by_author, x[&review::author]));
  auto q6 = lp::for_each(x, reviews, lp::list_len(lp::filter_list(y, verdicts, y[&verdict::author] < x[&review::author])));
  static_assert(lp::recognised(q1) && lp::recognised(q2) && lp::recognised(q3) && lp::recognised(q4) &&
                lp::recognised(q5));
  static_assert(lp::refusal_of(q6) == lp::refusal::predicate_not_equality);

  const auto show = [](const char* name, const std::string& plan) { std::printf("%s: %s\n\n", name, plan.c_str()); };
  show("q1 map_get", lp::explain(q1));
  show("q2 filter_list", lp::explain(q2));
  show("q3 list_len", lp::explain(q3));
  show("q4 list_sum", lp::explain(q4));
  show("q5 map_contains", lp::explain(q5));
  show("q6 refused", lp::explain(q6));

  for (const auto& [id, v] : lp::run(q1))
    std::printf("review %d: verdict %s\n", id, v ? std::to_string(v->score).c_str() : "none");
  const auto groups = lp::run(q2);
  const auto counts = lp::run(q3);
  const auto sums = lp::run(q4);
  for (std::size_t i = 0; i < reviews.size(); ++i) {
    std::printf("review %d: %zu verdicts (scores", reviews[i].id, counts[i]);
    for (const auto& v : groups[i]) std::printf(" %d", v.score);
    std::printf("), total %d\n", sums[i]);
  }
  std::printf("reviews whose author has a verdict:");
  for (const auto& r : lp::run(q5)) std::printf(" %d", r.id);
  std::printf("\n");
  // A refused shape still runs, as the nested loop it is.
  std::printf("verdicts by lower-numbered authors:");
  for (auto n : lp::run(q6)) std::printf(" %zu", n);
  std::printf("\n");
  return lp::run(q3) == lp::run_nested(q3) ? 0 : 1;
}
