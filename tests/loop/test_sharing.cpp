// Two sites with the same collection and key expression share one index
// (fingerprint: key-expression type and value + collection address); the
// index is built once per run, lazily, never per element.
#include <catch2/catch.hpp>

#include <vector>

#include "loop_fixtures.hpp"

TEST_CASE("joinery.loop.sharing.same_collection_same_key") {
  loop_data d;
  auto g = lp::filter_list(y, d.verdicts, y[&verdict::author] == x[&review::author]);
  auto q = lp::for_each(x, d.reviews, lp::tuple(lp::list_len(g), g, lp::list_sum(lp::map_list(y, g, y[&verdict::score]))));
  STATIC_REQUIRE(lp::recognised(q));
  lp::run_stats st;
  auto out = lp::run(q, st);
  CHECK(st.index_builds == 1);
  CHECK(st.index_reuses == 2);
  CHECK(st.index_probes == 3 * 5);
  CHECK(std::get<0>(out[1]) == 3);
  CHECK(values(std::get<1>(out[1])) == std::vector<verdict>{{20, 1}, {20, 3}, {20, 6}});
  CHECK(std::get<2>(out[1]) == 10);
  CHECK(out == lp::run_nested(q));
}

TEST_CASE("joinery.loop.sharing.variable_names_do_not_matter") {
  loop_data d;
  auto q = lp::for_each(x, d.reviews,
                        lp::tuple(lp::list_len(lp::filter_list(y, d.verdicts, y[&verdict::author] == x[&review::author])),
                                  lp::list_len(lp::filter_list(z, d.verdicts, x[&review::author] == z[&verdict::author]))));
  lp::run_stats st;
  auto out = lp::run(q, st);
  CHECK(st.index_builds == 1);
  CHECK(st.index_reuses == 1);
  CHECK(out == lp::run_nested(q));
}

TEST_CASE("joinery.loop.sharing.different_key_or_collection_builds_again") {
  loop_data d;
  std::vector<verdict> copy = d.verdicts;
  auto by_author = [&](const auto& vs) { return lp::list_len(lp::filter_list(y, vs, y[&verdict::author] == x[&review::author])); };
  auto by_score = lp::list_len(lp::filter_list(y, d.verdicts, y[&verdict::score] == x[&review::author]));
  lp::run_stats st;
  auto out = lp::run(lp::for_each(x, d.reviews, lp::tuple(by_author(d.verdicts), by_author(copy), by_score)), st);
  CHECK(st.index_builds == 3);  // same types, but another collection; same collection, another member
  CHECK(st.index_reuses == 0);
  CHECK(std::get<0>(out[0]) == std::get<1>(out[0]));
}

TEST_CASE("joinery.loop.sharing.built_once_per_run") {
  loop_data d;
  auto q = lp::for_each(x, d.reviews, lp::filter_list(y, d.verdicts, y[&verdict::author] == x[&review::author]));
  lp::run_stats a;
  lp::run_stats b;
  (void)lp::run(q, a);
  (void)lp::run(q, b);
  CHECK(a.index_builds == 1);
  CHECK(b.index_builds == 1);  // a run sees the data as it is now: no stale index across runs
  CHECK(a.index_probes == d.reviews.size());
}
