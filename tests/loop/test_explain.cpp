// explain(q): one paragraph naming the loop, each site's index and answer, or
// its refusal.
#include <catch2/catch.hpp>

#include <string>

#include "loop_fixtures.hpp"

TEST_CASE("joinery.loop.explain.recognised_shapes") {
  loop_data d;
  auto q1 = lp::for_each(x, d.reviews, lp::map_get(d.by_author, x[&review::author]));
  const std::string e1 = lp::explain(q1);
  CHECK(e1.find("for_each x over the std::vector of 5 elements") == 0);
  CHECK(e1.find("the std::map of 2 entries on the map's own key") != std::string::npos);
  CHECK(e1.find("at most one row, returned as a std::optional") != std::string::npos);
  CHECK(e1.find("Recognised: all 1 lookup site(s)") != std::string::npos);
  CHECK(e1.find('\n') == std::string::npos);

  auto q3 = lp::for_each(x, d.reviews, lp::list_len(lp::filter_list(y, d.verdicts, x[&review::author] == y[&verdict::author])));
  const std::string e3 = lp::explain(q3);
  CHECK(e3.find("an arrangement of that collection keyed by y[&verdict::<int member>]") != std::string::npos);
  CHECK(e3.find("probes it with x[&review::<int member>]") != std::string::npos);
  CHECK(e3.find("counted, never built") != std::string::npos);

  auto anti = lp::filter_list(x, d.reviews, !lp::map_contains(d.by_author, x[&review::author]));
  CHECK(lp::explain(anti).find("(an anti-join)") != std::string::npos);
  auto semi = lp::filter_list(x, d.reviews, lp::map_contains(d.by_author, x[&review::author]));
  CHECK(lp::explain(semi).find("(a semi-join)") != std::string::npos);
}

TEST_CASE("joinery.loop.explain.refusal") {
  loop_data d;
  auto q = lp::for_each(x, d.reviews, lp::list_len(lp::filter_list(y, d.verdicts, y[&verdict::author] < x[&review::author])));
  const std::string e = lp::explain(q);
  CHECK(e.find("is not recognised (predicate_not_equality:") != std::string::npos);
  CHECK(e.find("runs as the nested loop it is") != std::string::npos);
  CHECK(e.find("Not recognised (predicate_not_equality): 0 of 1 lookup site(s)") != std::string::npos);
  auto none = lp::for_each(x, d.reviews, x[&review::id]);
  CHECK(lp::explain(none).find("Not recognised (no_lookup): 0 of 0") != std::string::npos);
}
