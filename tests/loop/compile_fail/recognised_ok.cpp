// The twin of the loop compile-fail cases: DESIGN.md §2.4 as written compiles,
// with recognised() usable in a static_assert on a non-constexpr query.
#include <joinery/loop/loop.hpp>
#include <map>
#include <vector>
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
int main() {
  constexpr auto x = lp::var<"x">;
  constexpr auto y = lp::var<"y">;
  std::vector<review> reviews;
  std::map<int, verdict> by_author;
  std::vector<verdict> verdicts;
  auto q1 = lp::for_each(x, reviews, lp::tuple(x[&review::id], lp::map_get(by_author, x[&review::author])));
  auto q2 = lp::for_each(x, reviews, lp::filter_list(y, verdicts, y[&verdict::author] == x[&review::author]));
  auto q3 = lp::for_each(x, reviews, lp::list_len(lp::filter_list(y, verdicts, y[&verdict::author] == x[&review::author])));
  auto q4 = lp::for_each(x, reviews, lp::list_sum(lp::map_list(y, lp::filter_list(y, verdicts, y[&verdict::author] == x[&review::author]), y[&verdict::score])));
  auto q5 = lp::filter_list(x, reviews, lp::map_contains(by_author, x[&review::author]));
  static_assert(lp::recognised(q1));
  static_assert(lp::recognised(q2) && lp::recognised(q3) && lp::recognised(q4) && lp::recognised(q5));
  static_assert(lp::refusal_of(q1) == lp::refusal::none);
  auto out = lp::run(q1);
  (void)out;
  (void)lp::run(q2);
  (void)lp::run(q3);
  (void)lp::run(q4);
  (void)lp::run(q5);
}
