// Cardinality expectations on the data (issue 4): exact messages, report
// lines, the cache, and the last good result surviving.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <joinery/live/materialized.hpp>
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>

namespace {
using std::nullopt;
constexpr auto o_id = jy::col<orders, "order_id">;
constexpr auto o_cust = jy::col<orders, "customer_id">;
constexpr auto c_cust = jy::col<customers, "customer_id">;
constexpr auto c_country = jy::col<customers, "country">;

constexpr auto enriched = jy::model<"enriched">(
    jy::from<orders> | jy::join_left<customers>(o_cust == c_cust, jy::expect::many_to_one) |
    jy::select(jy::as<"order_id">(o_id), jy::as<"country">(c_country)));
constexpr auto profiles =
    jy::model<"profiles">(jy::from<orders> | jy::join_left<customers>(o_cust == c_cust, jy::expect::one_to_one));

struct dim : jy::table<"dim", jy::column<"k", std::optional<std::int64_t>>, jy::column<"v", int>> {};

template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const jy::cardinality_error& e) {
    return e.what();
  }
  return "(no error)";
}

using row = std::tuple<std::int64_t, std::optional<std::string>>;
template <class R>
std::vector<row> rows_of(const R& r) {
  std::vector<row> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(r.row(i));
  return out;
}
}  // namespace

TEST_CASE("joinery.live.cardinality.passing_check_report_line") {
  const jy::relation<orders> o{{1, 10, 9.5}, {2, nullopt, 3.0}, {3, 10, 1.0}};
  const jy::relation<customers> c{{10, "DE"}, {11, "FR"}, {12, "IT"}};
  jy::materialized mv{enriched};
  CHECK(!mv.has_result());
  CHECK(mv.rows().empty());
  mv.refresh(o, c);
  CHECK(mv.has_result());
  CHECK(rows_of(mv.rows()) == std::vector<row>{{1, "DE"}, {2, nullopt}, {3, "DE"}});
  REQUIRE(mv.report().size() == 1);
  CHECK(mv.report()[0] == "ok enriched join_left customers: many_to_one (3 right rows, 0 duplicate key groups)");
  CHECK(mv.report() == "ok enriched join_left customers: many_to_one (3 right rows, 0 duplicate key groups)");
}

TEST_CASE("joinery.live.cardinality.violation_message_exact") {
  const jy::relation<orders> o{{1, 10, 9.5}};
  const jy::relation<customers> c{{10, "DE"}, {11, "FR"}, {10, "AT"}, {12, "X"}, {11, "Y"}, {11, "Z"}};
  const std::string expected =
      "join cardinality FAILED [enriched join_left customers]: expected many_to_one but customers has 2 duplicate "
      "key groups (customer_id=10 x2, customer_id=11 x3)";
  CHECK(message_of([&] { (void)jy::materialize(enriched, o, c); }) == expected);
  CHECK(message_of([&] { (void)jy::run(enriched, o, c); }) == expected);
  jy::materialized mv{enriched};
  CHECK(message_of([&] { mv.refresh(o, c); }) == expected);
  CHECK(!mv.has_result());
  try {
    mv.refresh(o, c);
  } catch (const jy::cardinality_error& e) {
    CHECK(e.duplicate_groups() == 2);
    const std::runtime_error& base = e;  // a std::runtime_error
    CHECK(std::string(base.what()) == expected);
  }
}

TEST_CASE("joinery.live.cardinality.at_most_five_groups_listed") {
  const jy::relation<orders> o{{1, 1, 0}};
  jy::relation<customers> c;
  for (std::int64_t k = 1; k <= 7; ++k) c.insert({{k, "a"}, {k, "b"}});
  c.insert({3, "c"});
  CHECK(message_of([&] { (void)jy::materialize(enriched, o, c); }) ==
        "join cardinality FAILED [enriched join_left customers]: expected many_to_one but customers has 7 duplicate "
        "key groups (customer_id=1 x2, customer_id=2 x2, customer_id=3 x3, customer_id=4 x2, customer_id=5 x2, ...)");
}

TEST_CASE("joinery.live.cardinality.null_keys_and_literal_conjuncts_are_not_counted") {
  const jy::relation<orders> o{{1, 10, 0}, {2, 11, 0}};
  const jy::relation<dim> d{{nullopt, 1}, {nullopt, 2}, {10, 3}};
  constexpr auto p = jy::model<"m">(jy::from<orders> | jy::join_inner<dim>(o_cust == jy::col<dim, "k">, jy::expect::many_to_one));
  jy::materialized mv{p};
  mv.refresh(o, d);
  CHECK(mv.report() == "ok m join_inner dim: many_to_one (1 right rows, 0 duplicate key groups)");
  CHECK(mv.rows().size() == 1);
  // A right-side literal conjunct restricts the counted rows.
  const jy::relation<customers> c{{10, "DE"}, {10, "AT"}, {11, "DE"}};
  constexpr auto de = jy::model<"de">(jy::from<orders> |
                                      jy::join_left<customers>(o_cust == c_cust && c_country == "DE", jy::expect::many_to_one));
  jy::materialized mde{de};
  mde.refresh(o, c);
  CHECK(mde.report() == "ok de join_left customers: many_to_one (2 right rows, 0 duplicate key groups)");
  // Left-only conjuncts and left duplicates are fine for many_to_one.
  const jy::relation<orders> dup{{1, 10, 0}, {2, 10, 0}, {3, 10, 0}};
  constexpr auto lo = jy::from<orders> | jy::join_inner<customers>(o_cust == c_cust && o_id > 1 && c_country == "DE",
                                                                   jy::expect::many_to_one);
  CHECK(jy::materialize(lo, dup, c).size() == 2);
}

TEST_CASE("joinery.live.cardinality.one_to_one_checks_both_sides") {
  const jy::relation<customers> c{{10, "DE"}, {11, "FR"}};
  const jy::relation<orders> o{{1, 10, 0}, {2, 11, 0}, {3, nullopt, 0}};
  jy::materialized mv{profiles};
  mv.refresh(o, c);
  CHECK(mv.report() ==
        "ok profiles join_left customers: one_to_one (2 right rows, 0 duplicate key groups; 2 left rows, 0 duplicate "
        "key groups)");
  const jy::relation<orders> dup{{1, 10, 0}, {2, 11, 0}, {3, 10, 0}, {4, 10, 0}};
  CHECK(message_of([&] { mv.refresh(dup, c); }) ==
        "join cardinality FAILED [profiles join_left customers]: expected one_to_one but orders has 1 duplicate key "
        "groups (customer_id=10 x3)");
  const jy::relation<customers> cdup{{10, "DE"}, {10, "FR"}};
  CHECK(message_of([&] { mv.refresh(o, cdup); }) ==
        "join cardinality FAILED [profiles join_left customers]: expected one_to_one but customers has 1 duplicate "
        "key groups (customer_id=10 x2)");
  CHECK(mv.rows().size() == 3);  // the last good result
}

TEST_CASE("joinery.live.cardinality.no_annotation_no_check") {
  const jy::relation<orders> o{{1, 10, 9.5}};
  const jy::relation<customers> c{{10, "DE"}, {10, "AT"}};
  constexpr auto plain = jy::from<orders> | jy::join_left<customers>(o_cust == c_cust) | jy::select(jy::as<"c">(c_country));
  CHECK(jy::materialize(plain, o, c).size() == 2);
  jy::materialized mv{plain};
  mv.refresh(o, c);
  CHECK(mv.report().empty());
  CHECK(mv.rows().size() == 2);
}

TEST_CASE("joinery.live.cardinality.cached_sides_by_version") {
  jy::relation<orders> o{{1, 10, 0}, {2, 11, 0}};
  jy::relation<customers> c{{10, "DE"}, {11, "FR"}};
  jy::materialized mv{profiles};
  mv.refresh(o, c);
  CHECK(mv.report()[0] ==
        "ok profiles join_left customers: one_to_one (2 right rows, 0 duplicate key groups; 2 left rows, 0 duplicate "
        "key groups)");
  mv.refresh(o, c);
  CHECK(mv.report()[0] ==
        "ok profiles join_left customers: one_to_one (2 right rows, 0 duplicate key groups, cached; 2 left rows, 0 "
        "duplicate key groups, cached)");
  o.insert({3, 12, 0});  // the left side changed, the right did not
  mv.refresh(o, c);
  CHECK(mv.report()[0] ==
        "ok profiles join_left customers: one_to_one (2 right rows, 0 duplicate key groups, cached; 3 left rows, 0 "
        "duplicate key groups)");
  CHECK(mv.rows().size() == 3);
  // A failed refresh verifies nothing: the next one is not "cached" for what changed.
  c.insert({10, "AT"});
  CHECK_THROWS_AS(mv.refresh(o, c), jy::cardinality_error);
  c.clear();
  c.insert({{10, "DE"}, {11, "FR"}});
  mv.refresh(o, c);
  CHECK(mv.report()[0] ==
        "ok profiles join_left customers: one_to_one (2 right rows, 0 duplicate key groups; 3 left rows, 0 duplicate "
        "key groups, cached)");
}

TEST_CASE("joinery.live.cardinality.several_annotated_joins_report_in_order") {
  using c2 = jy::alias<customers, "c2">;
  constexpr auto p = jy::model<"two">(
      jy::from<orders> | jy::join_left<customers>(o_cust == c_cust, jy::expect::many_to_one) |
      jy::join_semi<c2>(o_cust == jy::col<c2, "customer_id">) |
      jy::join_inner<jy::alias<customers, "c3">>(o_cust == jy::col<jy::alias<customers, "c3">, "customer_id">,
                                                  jy::expect::many_to_one));
  const jy::relation<orders> o{{1, 10, 0}, {2, 11, 0}};
  const jy::relation<customers> c{{10, "DE"}, {11, "FR"}, {12, "IT"}};
  jy::materialized mv{p};
  mv.refresh(o, c);
  REQUIRE(mv.report().size() == 2);
  CHECK(mv.report()[0] == "ok two join_left customers: many_to_one (3 right rows, 0 duplicate key groups)");
  CHECK(mv.report()[1] == "ok two join_inner c3: many_to_one (3 right rows, 0 duplicate key groups)");
}

TEST_CASE("joinery.live.materialized.last_good_result_survives_violation_and_throwing_call") {
  jy::relation<orders> o{{1, 10, 9.5}, {2, nullopt, 3.0}};
  jy::relation<customers> c{{10, "DE"}};
  constexpr auto checked = [](std::int64_t id) {
    if (id == 99) throw std::runtime_error("boom");
    return id * 10;
  };
  constexpr auto p = jy::model<"p">(jy::from<orders> |
                                    jy::join_left<customers>(o_cust == c_cust, jy::expect::many_to_one) |
                                    jy::select(jy::as<"x">(jy::call(checked, o_id)), jy::as<"country">(c_country)));
  jy::materialized mv{p};
  mv.refresh(o, c);
  const auto good = mv.rows();
  const auto good_report = mv.report().str();
  REQUIRE(good.size() == 2);
  // A violation.
  c.insert({10, "AT"});
  CHECK_THROWS_AS(mv.refresh(o, c), jy::cardinality_error);
  CHECK(mv.rows() == good);
  CHECK(mv.report().str() == good_report);
  // A throwing user function.
  jy::relation<customers> c_ok{{10, "DE"}};
  o.insert({99, 10, 0.0});
  CHECK_THROWS_WITH(mv.refresh(o, c_ok), "boom");
  CHECK(mv.rows() == good);
  CHECK(mv.report().str() == good_report);
  // Inputs are read, never written: a failed refresh leaves them as they were.
  CHECK(o.size() == 3);
  CHECK(c_ok.size() == 1);
}
