// Every refusal: named at compile time, and the query still runs (as the
// nested loop it is) with the results the nested evaluation gives.
#include <catch2/catch.hpp>

#include <map>
#include <string_view>
#include <vector>

#include "loop_fixtures.hpp"

namespace {
struct post {
  int id;
  int author;
  std::vector<int> tags;
  std::map<int, int> attrs;
};

/// The query runs without any index and agrees with run_nested.
template <class Q>
void check_runs_nested(const Q& q) {
  lp::run_stats st;
  auto out = lp::run(q, st);
  CHECK(st.index_builds == 0);
  CHECK(st.nested_steps > 0);
  CHECK(out == lp::run_nested(q));
}
}  // namespace

TEST_CASE("joinery.loop.refusal.no_lookup") {
  loop_data d;
  auto q = lp::for_each(x, d.reviews, x[&review::id] * 2 + 1);
  STATIC_REQUIRE(lp::refusal_of(q) == lp::refusal::no_lookup);
  STATIC_REQUIRE(!lp::recognised(q));
  CHECK(lp::run(q) == std::vector<int>{3, 5, 7, 9, 11});
  // A filter with no lookup in its predicate is a loop, not a join.
  auto f = lp::filter_list(x, d.reviews, x[&review::author] == 20);
  STATIC_REQUIRE(lp::refusal_of(f) == lp::refusal::no_lookup);
  CHECK(values(lp::run(f)) == std::vector<review>{{2, 20}, {5, 20}});
}

TEST_CASE("joinery.loop.refusal.key_reads_no_element") {
  loop_data d;
  auto q = lp::for_each(x, d.reviews, lp::map_get(d.by_author, 10));
  STATIC_REQUIRE(lp::refusal_of(q) == lp::refusal::key_reads_no_element);
  check_runs_nested(q);
  auto f = lp::for_each(x, d.reviews, lp::filter_list(y, d.verdicts, y[&verdict::author] == 10));
  STATIC_REQUIRE(lp::refusal_of(f) == lp::refusal::key_reads_no_element);
  check_runs_nested(f);
  CHECK(values(lp::run(f)[0]) == std::vector<verdict>{{10, 2}, {10, 5}});
}

TEST_CASE("joinery.loop.refusal.key_reads_collection") {
  loop_data d;
  auto q = lp::for_each(x, d.reviews, lp::map_get(d.by_author, x[&review::author] + lp::list_len(d.verdicts)));
  STATIC_REQUIRE(lp::refusal_of(q) == lp::refusal::key_reads_collection);
  check_runs_nested(q);
  auto f = lp::for_each(x, d.reviews, lp::list_len(lp::filter_list(
                                          y, d.verdicts, y[&verdict::author] == x[&review::author] + lp::list_len(d.reviews) - 5)));
  STATIC_REQUIRE(lp::refusal_of(f) == lp::refusal::key_reads_collection);
  check_runs_nested(f);
  CHECK(lp::run(f) == std::vector<std::size_t>{2, 3, 2, 0, 3});
}

TEST_CASE("joinery.loop.refusal.collection_reads_element") {
  std::vector<post> posts{{1, 10, {1, 2, 2}, {{1, 5}}}, {2, 20, {2}, {}}};
  auto f = lp::for_each(x, posts, lp::list_len(lp::filter_list(y, x[&post::tags], y == 2)));
  STATIC_REQUIRE(lp::refusal_of(f) == lp::refusal::collection_reads_element);
  check_runs_nested(f);
  CHECK(lp::run(f) == std::vector<std::size_t>{2, 1});
  auto m = lp::for_each(x, posts, lp::map_get(x[&post::attrs], 1));
  STATIC_REQUIRE(lp::refusal_of(m) == lp::refusal::collection_reads_element);
  CHECK(lp::run(m) == std::vector<std::optional<int>>{5, std::nullopt});
  CHECK(lp::run_nested(m) == lp::run(m));
}

TEST_CASE("joinery.loop.refusal.predicate_not_equality") {
  loop_data d;
  auto lt = lp::for_each(x, d.reviews, lp::list_len(lp::filter_list(y, d.verdicts, y[&verdict::author] < x[&review::author])));
  STATIC_REQUIRE(lp::refusal_of(lt) == lp::refusal::predicate_not_equality);
  check_runs_nested(lt);
  CHECK(lp::run(lt) == std::vector<std::size_t>{0, 2, 0, 5, 2});
  auto ne = lp::for_each(x, d.reviews, lp::list_len(lp::filter_list(y, d.verdicts, y[&verdict::author] != x[&review::author])));
  STATIC_REQUIRE(lp::refusal_of(ne) == lp::refusal::predicate_not_equality);
  CHECK(lp::run(ne) == std::vector<std::size_t>{4, 3, 4, 6, 3});
  auto conj = lp::for_each(x, d.reviews, lp::list_len(lp::filter_list(
      y, d.verdicts, y[&verdict::author] == x[&review::author] && y[&verdict::score] > 2)));
  STATIC_REQUIRE(lp::refusal_of(conj) == lp::refusal::predicate_not_equality);
  CHECK(lp::run(conj) == std::vector<std::size_t>{1, 2, 1, 0, 2});
}

TEST_CASE("joinery.loop.refusal.collection_not_captured") {
  loop_data d;
  auto authors = lp::map_list(z, d.verdicts, z[&verdict::author]);
  auto q = lp::for_each(x, d.reviews, lp::list_len(lp::filter_list(y, authors, y == x[&review::author])));
  STATIC_REQUIRE(lp::refusal_of(q) == lp::refusal::collection_not_captured);
  check_runs_nested(q);
  CHECK(lp::run(q) == std::vector<std::size_t>{2, 3, 2, 0, 3});
}

TEST_CASE("joinery.loop.refusal.key_reads_filtered_row") {
  loop_data d;
  auto q = lp::for_each(x, d.reviews, lp::list_len(lp::filter_list(y, d.verdicts, y[&verdict::author] == y[&verdict::score] * 5)));
  STATIC_REQUIRE(lp::refusal_of(q) == lp::refusal::key_reads_filtered_row);
  check_runs_nested(q);
  CHECK(lp::run(q)[0] == 1);  // only {10, 2}: 10 == 2 * 5
}

TEST_CASE("joinery.loop.refusal.index_key_reads_no_row") {
  loop_data d;
  auto q = lp::for_each(x, d.reviews, lp::list_len(lp::filter_list(y, d.verdicts, x[&review::author] == 10)));
  STATIC_REQUIRE(lp::refusal_of(q) == lp::refusal::index_key_reads_no_row);
  check_runs_nested(q);
  CHECK(lp::run(q) == std::vector<std::size_t>{6, 0, 6, 0, 0});
}

TEST_CASE("joinery.loop.refusal.key_mixes_rows") {
  loop_data d;
  auto q = lp::for_each(x, d.reviews, lp::list_len(lp::filter_list(
      y, d.verdicts, y[&verdict::author] == x[&review::author] + y[&verdict::score] - y[&verdict::score])));
  STATIC_REQUIRE(lp::refusal_of(q) == lp::refusal::key_mixes_rows);
  check_runs_nested(q);
  CHECK(lp::run(q) == std::vector<std::size_t>{2, 3, 2, 0, 3});
}

TEST_CASE("joinery.loop.refusal.first_refused_site_names_the_reason") {
  loop_data d;
  auto q = lp::for_each(x, d.reviews, lp::tuple(lp::map_get(d.by_author, x[&review::author]),
                                                lp::map_get(d.by_author, 20)));
  STATIC_REQUIRE(lp::refusal_of(q) == lp::refusal::key_reads_no_element);
  constexpr auto s = lp::sites(q);
  STATIC_REQUIRE(s.size() == 2);
  STATIC_REQUIRE(s[0].why == lp::refusal::none);
  STATIC_REQUIRE(s[0].kind == lp::site_kind::map_get);
  STATIC_REQUIRE(s[1].why == lp::refusal::key_reads_no_element);
  // The recognised site still uses the map's find; the refused one scans.
  lp::run_stats st;
  auto out = lp::run(q, st);
  CHECK(st.map_probes == 5);
  CHECK(st.nested_steps == 5 * 2);  // key 20 is the second entry of the map
  CHECK(out == lp::run_nested(q));
}

TEST_CASE("joinery.loop.refusal.names") {
  using r = lp::refusal;
  CHECK(lp::to_string(r::none) == "none");
  CHECK(lp::to_string(r::no_lookup) == "no_lookup");
  CHECK(lp::to_string(r::key_reads_no_element) == "key_reads_no_element");
  CHECK(lp::to_string(r::key_reads_collection) == "key_reads_collection");
  CHECK(lp::to_string(r::collection_reads_element) == "collection_reads_element");
  CHECK(lp::to_string(r::predicate_not_equality) == "predicate_not_equality");
  CHECK(lp::to_string(r::collection_not_captured) == "collection_not_captured");
  CHECK(lp::to_string(r::key_reads_filtered_row) == "key_reads_filtered_row");
  CHECK(lp::to_string(r::index_key_reads_no_row) == "index_key_reads_no_row");
  CHECK(lp::to_string(r::key_mixes_rows) == "key_mixes_rows");
  STATIC_REQUIRE(lp::to_string(r::predicate_not_equality) == std::string_view("predicate_not_equality"));
}
