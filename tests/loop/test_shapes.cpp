// Every shape of DESIGN.md §2.4 / reference/003, exact results and types.
#include <catch2/catch.hpp>

#include <cstdint>
#include <ranges>
#include <string>

#include <test_schemas.hpp>

#include "loop_fixtures.hpp"

namespace {
// User helpers that return expressions, three deep (reference/003: verdict_for -> map_get).
template <class E>
auto author_of(const E& r) {
  return r[&review::author];
}
template <class E, class M>
auto verdict_for(const E& r, const M& m) {
  return lp::map_get(m, author_of(r));
}
template <class E, class M>
auto row_for(const E& r, const M& m) {
  return lp::tuple(r[&review::id], verdict_for(r, m));
}
template <class E, class V>
auto verdicts_of(const E& r, const V& vs) {
  return lp::filter_list(y, vs, y[&verdict::author] == author_of(r));
}
template <class E, class V>
auto score_total(const E& r, const V& vs) {
  return lp::list_sum(lp::map_list(z, verdicts_of(r, vs), z[&verdict::score]));
}
}  // namespace

TEST_CASE("joinery.loop.shapes.map_get") {
  loop_data d;
  auto q1 = lp::for_each(x, d.reviews, lp::tuple(x[&review::id], lp::map_get(d.by_author, x[&review::author])));
  static_assert(lp::recognised(q1));
  STATIC_REQUIRE(lp::refusal_of(q1) == lp::refusal::none);
  lp::run_stats st;
  auto out = lp::run(q1, st);
  STATIC_REQUIRE(std::is_same_v<decltype(out), std::vector<std::tuple<int, std::optional<verdict>>>>);
  using row = std::tuple<int, std::optional<verdict>>;
  CHECK(out == std::vector<row>{{1, verdict{10, 5}}, {2, verdict{20, 7}}, {3, verdict{10, 5}}, {4, std::nullopt},
                                {5, verdict{20, 7}}});
  CHECK(st.map_probes == 5);
  CHECK(st.nested_steps == 0);
  CHECK(st.index_builds == 0);  // the map is its own index
  CHECK(lp::run_nested(q1) == out);
}

TEST_CASE("joinery.loop.shapes.map_get_unordered") {
  loop_data d;
  std::unordered_map<int, verdict> m(d.by_author.begin(), d.by_author.end());
  auto q = lp::for_each(x, d.reviews, lp::map_get(m, x[&review::author]));
  STATIC_REQUIRE(lp::recognised(q));
  lp::run_stats st;
  auto out = lp::run(q, st);
  CHECK(out == std::vector<std::optional<verdict>>{verdict{10, 5}, verdict{20, 7}, verdict{10, 5}, std::nullopt,
                                                   verdict{20, 7}});
  CHECK(st.map_probes == 5);
  CHECK(lp::run_nested(q) == out);
}

TEST_CASE("joinery.loop.shapes.filter_list_group_in_collection_order") {
  loop_data d;
  auto q2 = lp::for_each(x, d.reviews, lp::filter_list(y, d.verdicts, y[&verdict::author] == x[&review::author]));
  static_assert(lp::recognised(q2));
  lp::run_stats st;
  auto out = lp::run(q2, st);
  REQUIRE(out.size() == 5);
  STATIC_REQUIRE(std::ranges::sized_range<decltype(out[0])>);
  STATIC_REQUIRE(std::ranges::random_access_range<decltype(out[0])>);
  CHECK(values(out[0]) == std::vector<verdict>{{10, 2}, {10, 5}});
  CHECK(values(out[1]) == std::vector<verdict>{{20, 1}, {20, 3}, {20, 6}});
  CHECK(values(out[2]) == std::vector<verdict>{{10, 2}, {10, 5}});
  CHECK(out[3].empty());
  CHECK(out[4].size() == 3);
  CHECK(out[4][2] == verdict{20, 6});
  CHECK(std::vector<std::uint32_t>(out[1].positions().begin(), out[1].positions().end()) ==
        std::vector<std::uint32_t>{0, 2, 5});
  CHECK(st.index_builds == 1);
  CHECK(st.index_probes == 5);
  CHECK(st.nested_steps == 0);
  CHECK(lp::run_nested(q2) == out);
}

TEST_CASE("joinery.loop.shapes.list_len_counts") {
  loop_data d;
  auto q3 = lp::for_each(
      x, d.reviews, lp::list_len(lp::filter_list(y, d.verdicts, y[&verdict::author] == x[&review::author])));
  static_assert(lp::recognised(q3));
  lp::run_stats st;
  auto out = lp::run(q3, st);
  STATIC_REQUIRE(std::is_same_v<decltype(out), std::vector<std::size_t>>);
  CHECK(out == std::vector<std::size_t>{2, 3, 2, 0, 3});
  CHECK(st.index_builds == 1);
  CHECK(st.aggregate_builds == 0);  // counted from the arrangement's group sizes
  CHECK(lp::run_nested(q3) == out);
}

TEST_CASE("joinery.loop.shapes.list_sum_through_map_list") {
  loop_data d;
  auto q4 = lp::for_each(x, d.reviews,
                         lp::list_sum(lp::map_list(y, lp::filter_list(y, d.verdicts, y[&verdict::author] == x[&review::author]),
                                                   y[&verdict::score])));
  static_assert(lp::recognised(q4));
  lp::run_stats st;
  auto out = lp::run(q4, st);
  STATIC_REQUIRE(std::is_same_v<decltype(out), std::vector<int>>);
  CHECK(out == std::vector<int>{7, 10, 7, 0, 10});  // no rows: 0
  CHECK(st.index_builds == 1);
  CHECK(st.aggregate_builds == 1);
  CHECK(lp::run_nested(q4) == out);
}

TEST_CASE("joinery.loop.shapes.list_min_max") {
  loop_data d;
  auto group = lp::map_list(y, lp::filter_list(y, d.verdicts, y[&verdict::author] == x[&review::author]), y[&verdict::score]);
  auto qmin = lp::for_each(x, d.reviews, lp::list_min(group));
  auto qmax = lp::for_each(x, d.reviews, lp::list_max(group));
  STATIC_REQUIRE(lp::recognised(qmin));
  STATIC_REQUIRE(lp::recognised(qmax));
  auto mn = lp::run(qmin);
  auto mx = lp::run(qmax);
  STATIC_REQUIRE(std::is_same_v<decltype(mn), std::vector<std::optional<int>>>);
  CHECK(mn == std::vector<std::optional<int>>{2, 1, 2, std::nullopt, 1});
  CHECK(mx == std::vector<std::optional<int>>{5, 6, 5, std::nullopt, 6});
  CHECK(lp::run_nested(qmin) == mn);
  CHECK(lp::run_nested(qmax) == mx);
}

TEST_CASE("joinery.loop.shapes.bare_aggregates_over_a_filter") {
  std::vector<int> keys{3, 1, 3, 2, 4};
  std::vector<int> values_{1, 3, 3, 5, 2};
  auto g = lp::filter_list(y, values_, y == x);
  auto q = lp::for_each(x, keys, lp::tuple(lp::list_len(g), lp::list_sum(g), lp::list_min(g), lp::list_max(g)));
  STATIC_REQUIRE(lp::recognised(q));
  lp::run_stats st;
  auto out = lp::run(q, st);
  using row = std::tuple<std::size_t, int, std::optional<int>, std::optional<int>>;
  CHECK(out == std::vector<row>{{2, 6, 3, 3}, {1, 1, 1, 1}, {2, 6, 3, 3}, {1, 2, 2, 2},
                                {0, 0, std::nullopt, std::nullopt}});
  CHECK(st.index_builds == 1);  // four sites, one collection and key: one index
  CHECK(st.index_reuses == 3);
  CHECK(lp::run_nested(q) == out);
}

TEST_CASE("joinery.loop.shapes.restriction_semi_and_anti") {
  loop_data d;
  auto q5 = lp::filter_list(x, d.reviews, lp::map_contains(d.by_author, x[&review::author]));
  auto anti = lp::filter_list(x, d.reviews, !lp::map_contains(d.by_author, x[&review::author]));
  static_assert(lp::recognised(q5));
  static_assert(lp::recognised(anti));
  lp::run_stats st;
  auto kept = lp::run(q5, st);
  auto dropped = lp::run(anti);
  CHECK(values(kept) == std::vector<review>{{1, 10}, {2, 20}, {3, 10}, {5, 20}});
  CHECK(kept == std::vector<review>{{1, 10}, {2, 20}, {3, 10}, {5, 20}});  // a group compares with any range
  CHECK(std::vector<review>{{4, 30}} == dropped);
  CHECK_FALSE(kept == std::vector<review>{{1, 10}});
  CHECK(values(dropped) == std::vector<review>{{4, 30}});
  CHECK(st.map_probes == 5);
  CHECK(lp::run_nested(q5) == kept);
  CHECK(lp::run_nested(anti) == dropped);
}

TEST_CASE("joinery.loop.shapes.helpers_three_deep") {
  loop_data d;
  auto q = lp::for_each(x, d.reviews, row_for(x, d.by_author));
  static_assert(lp::recognised(q));
  auto direct = lp::for_each(x, d.reviews, lp::tuple(x[&review::id], lp::map_get(d.by_author, x[&review::author])));
  STATIC_REQUIRE(std::is_same_v<decltype(q), decltype(direct)>);  // the same tree, however it was written
  CHECK(lp::run(q) == lp::run(direct));
  auto q4 = lp::for_each(x, d.reviews, score_total(x, d.verdicts));
  static_assert(lp::recognised(q4));
  CHECK(lp::run(q4) == std::vector<int>{7, 10, 7, 0, 10});
}

TEST_CASE("joinery.loop.shapes.key_first_equality") {
  loop_data d;
  auto fwd = lp::for_each(x, d.reviews, lp::filter_list(y, d.verdicts, y[&verdict::author] == x[&review::author]));
  auto rev = lp::for_each(x, d.reviews, lp::filter_list(y, d.verdicts, x[&review::author] == y[&verdict::author]));
  STATIC_REQUIRE(lp::recognised(rev));
  lp::run_stats st;
  auto out = lp::run(rev, st);
  CHECK(out == lp::run(fwd));
  CHECK(st.index_builds == 1);
  CHECK(st.nested_steps == 0);
  auto lit_first = lp::for_each(x, d.reviews, lp::map_get(d.by_author, 0 + x[&review::author]));
  STATIC_REQUIRE(lp::recognised(lit_first));
}

TEST_CASE("joinery.loop.shapes.empty_collections") {
  loop_data d;
  std::vector<review> no_reviews;
  std::vector<verdict> no_verdicts;
  std::map<int, verdict> no_map;
  lp::run_stats st;
  CHECK(lp::run(lp::for_each(x, no_reviews, lp::map_get(d.by_author, x[&review::author])), st).empty());
  CHECK(lp::run(lp::for_each(x, no_reviews, lp::filter_list(y, d.verdicts, y[&verdict::author] == x[&review::author])), st).empty());
  CHECK(st.index_builds == 0);  // built lazily: nothing probed, nothing built
  auto q = lp::for_each(x, d.reviews, lp::tuple(lp::map_get(no_map, x[&review::author]),
                                                lp::list_len(lp::filter_list(y, no_verdicts, y[&verdict::author] == x[&review::author])),
                                                lp::list_max(lp::map_list(y, lp::filter_list(y, no_verdicts, y[&verdict::author] == x[&review::author]), y[&verdict::score]))));
  STATIC_REQUIRE(lp::recognised(q));
  auto out = lp::run(q);
  REQUIRE(out.size() == 5);
  for (const auto& [v, n, m] : out) {
    CHECK(!v.has_value());
    CHECK(n == 0);
    CHECK(!m.has_value());
  }
  CHECK(lp::run_nested(q) == out);
  CHECK(lp::run(lp::filter_list(x, no_reviews, lp::map_contains(d.by_author, x[&review::author]))).empty());
}

TEST_CASE("joinery.loop.shapes.relation_collections") {
  jy::relation<orders> o{{1, 10, 9.5}, {2, std::nullopt, 3.0}, {3, 10, 1.0}, {4, 11, 2.0}};
  jy::relation<customers> c{{10, "DE"}, {11, "FR"}, {12, "IT"}};
  // Each customer's orders (nullable key: a NULL never matches), their count and total.
  auto cust_orders = lp::filter_list(y, o, lp::get<"customer_id">(y) == lp::get<"customer_id">(x));
  auto q = lp::for_each(x, c, lp::tuple(lp::get<"country">(x), lp::list_len(cust_orders),
                                        lp::list_sum(lp::map_list(z, cust_orders, lp::get<"amount">(z)))));
  STATIC_REQUIRE(lp::recognised(q));
  lp::run_stats st;
  auto out = lp::run(q, st);
  using row = std::tuple<std::string, std::size_t, double>;
  CHECK(out == std::vector<row>{{"DE", 2, 10.5}, {"FR", 1, 2.0}, {"IT", 0, 0.0}});
  CHECK(st.index_builds == 1);
  CHECK(lp::run_nested(q) == out);
  // The group of a relation is a range of its rows (row_ref).
  auto groups = lp::run(lp::for_each(x, c, cust_orders));
  REQUIRE(groups[0].size() == 2);
  CHECK(jy::get<"order_id">(groups[0][1]) == 3);
  // A relation as the loop, a map as the lookup.
  std::map<std::int64_t, std::string> names{{10, "ten"}, {11, "eleven"}};
  auto q1 = lp::for_each(x, o, lp::map_get(names, lp::get<"customer_id">(x)));
  STATIC_REQUIRE(lp::recognised(q1));
  CHECK(lp::run(q1) == std::vector<std::optional<std::string>>{"ten", std::nullopt, "ten", "eleven"});
  CHECK(lp::run_nested(q1) == lp::run(q1));
}

TEST_CASE("joinery.loop.shapes.nested_loops_and_map_entries") {
  loop_data d;
  // A loop inside a loop: the lookup's key reads the inner element.
  std::vector<std::vector<int>> batches{{10, 30}, {}, {20}};
  auto q = lp::for_each(x, batches, lp::for_each(z, x, lp::map_contains(d.by_author, z)));
  STATIC_REQUIRE(lp::recognised(q));
  CHECK(lp::run(q) == std::vector<std::vector<bool>>{{true, false}, {}, {true}});
  // A filter over a map's entries (pairs), keyed by the mapped value.
  std::map<int, int> owner{{1, 10}, {2, 20}, {3, 10}};
  auto q2 = lp::for_each(x, d.reviews,
                         lp::list_len(lp::filter_list(y, owner, y[&std::pair<const int, int>::second] == x[&review::author])));
  STATIC_REQUIRE(lp::recognised(q2));
  CHECK(lp::run(q2) == std::vector<std::size_t>{2, 1, 2, 0, 1});
  CHECK(lp::run_nested(q2) == lp::run(q2));
}
