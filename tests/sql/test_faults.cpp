// Exception safety (DESIGN.md §3): a user function that throws inside `call`
// and a cardinality error in the middle of a refresh leave every input and
// every materialized result exactly as they were (strong guarantee).
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include <joinery/live/live.hpp>
#include <joinery/plan/cardinality.hpp>
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>

namespace {
constexpr auto o_id = jy::col<orders, "order_id">;
constexpr auto o_cust = jy::col<orders, "customer_id">;
constexpr auto o_amount = jy::col<orders, "amount">;
constexpr auto c_cust = jy::col<customers, "customer_id">;
constexpr auto c_country = jy::col<customers, "country">;
using region = jy::alias<customers, "region">;

struct user_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// Throws on a negative amount (a user function with a precondition).
struct checked_double {
  double operator()(double a) const {
    if (a < 0) throw user_error("negative amount");
    return 2 * a;
  }
};
/// Throws on one country.
struct checked_country {
  std::string operator()(const std::optional<std::string>& c) const {
    if (c && *c == "XX") throw user_error("bad country");
    return c.value_or("-");
  }
};

jy::relation<orders> good_orders() { return {{1, 10, 9.5}, {2, std::nullopt, 3.0}, {3, 11, 1.0}, {4, 10, 2.0}}; }
jy::relation<customers> good_customers() { return {{10, "DE"}, {11, "FR"}}; }

/// `op()` throws `E`; `o` and `c` keep their rows and versions.
template <class E, class Op>
void throws_and_keeps(const jy::relation<orders>& o, const jy::relation<customers>& c, Op op) {
  const auto o0 = o;
  const auto c0 = c;
  const auto ov = o.version(), cv = c.version();
  CHECK_THROWS_AS(op(), E);
  CHECK(o == o0);
  CHECK(c == c0);
  CHECK(o.version() == ov);
  CHECK(c.version() == cv);
}
}  // namespace

TEST_CASE("joinery.sql.faults.throwing_call_in_each_step_leaves_inputs") {
  auto o = good_orders();
  o.insert({5, 11, -1.0});
  const auto c = good_customers();
  throws_and_keeps<user_error>(o, c, [&] {
    return jy::materialize(jy::from<orders> | jy::where(jy::call(checked_double{}, o_amount) > 3.0), o, c);
  });
  throws_and_keeps<user_error>(o, c, [&] {
    return jy::materialize(jy::from<orders> | jy::join_inner<customers>(o_cust == c_cust && jy::call(checked_double{}, o_amount) > 0.0), o, c);
  });
  throws_and_keeps<user_error>(o, c, [&] {
    return jy::materialize(jy::from<orders> | jy::select(jy::as<"d">(jy::call(checked_double{}, o_amount))), o, c);
  });
  throws_and_keeps<user_error>(o, c, [&] {
    return jy::materialize(jy::from<orders> | jy::group_by(o_cust) |
                               jy::aggregate(jy::as<"s">(jy::sum(jy::call(checked_double{}, o_amount)))), o, c);
  });
  // run(): the join and where steps run eagerly, so the throw comes out of run itself
  throws_and_keeps<user_error>(o, c, [&] {
    return jy::run(jy::from<orders> | jy::join_semi<customers>(o_cust == c_cust && jy::call(checked_double{}, o_amount) > 0.0), o, c).size();
  });
}

TEST_CASE("joinery.sql.faults.throwing_call_mid_refresh_keeps_last_good_result") {
  constexpr auto p = jy::model<"enriched">(
      jy::from<orders> | jy::join_left<customers>(o_cust == c_cust, jy::expect::many_to_one) |
      jy::select(jy::as<"id">(o_id), jy::as<"country">(jy::call(checked_country{}, c_country))));
  jy::materialized mv{p};
  auto o = good_orders();
  auto c = good_customers();
  mv.refresh(o, c);
  REQUIRE(mv.has_result());
  const auto good_rows = mv.rows();
  const std::string good_report = mv.report().str();
  REQUIRE(good_rows.size() == 4);
  CHECK(good_report == "ok enriched join_left customers: many_to_one (2 right rows, 0 duplicate key groups)");

  c.insert({12, "XX"});
  o.insert({6, 12, 5.0});  // its country makes the user function throw
  throws_and_keeps<user_error>(o, c, [&] { mv.refresh(o, c); });
  CHECK(mv.rows() == good_rows);
  CHECK(mv.report().str() == good_report);
}

TEST_CASE("joinery.sql.faults.cardinality_error_mid_refresh_keeps_last_good_result") {
  // Two annotated joins: the first passes, the second fails in the middle of the refresh.
  constexpr auto p = jy::model<"two">(
      jy::from<orders> | jy::join_inner<customers>(o_cust == c_cust, jy::expect::many_to_one) |
      jy::join_left<region>(jy::col<region, "country"> == c_country, jy::expect::many_to_one) |
      jy::select(jy::as<"id">(o_id), jy::as<"region">(jy::col<region, "customer_id">)));
  jy::materialized mv{p};
  const auto o = good_orders();
  auto c = good_customers();
  mv.refresh(o, c);
  const auto good_rows = mv.rows();
  const auto good_report = mv.report().lines();
  REQUIRE(good_report.size() == 2);
  REQUIRE(good_rows.size() == 3);

  c.insert({12, "DE"});  // customers stays unique by id, region (same table by country) now has "DE" twice
  try {
    mv.refresh(o, c);
    FAIL("expected jy::cardinality_error");
  } catch (const jy::cardinality_error& e) {
    CHECK(e.duplicate_groups() == 1);
    CHECK(std::string(e.what()) ==
          "join cardinality FAILED [two join_left region]: expected many_to_one but region has 1 duplicate key "
          "groups (country=DE x2)");
  }
  CHECK(mv.rows() == good_rows);
  CHECK(mv.report().lines() == good_report);
  throws_and_keeps<jy::cardinality_error>(o, c, [&] { mv.refresh(o, c); });
  throws_and_keeps<jy::cardinality_error>(o, c, [&] { return jy::materialize(p, o, c); });
  CHECK(mv.rows() == good_rows);
}
