// Rule sql_unsupported_call as findings: exact rule and exact path.
#include <catch2/catch.hpp>

#include <joinery/check/validate.hpp>
#include <joinery/plan/relational.hpp>
#include <joinery/sql/sql.hpp>
#include <test_schemas.hpp>

namespace {
constexpr auto o_id = jy::col<orders, "order_id">;
constexpr auto o_cust = jy::col<orders, "customer_id">;
constexpr auto o_amount = jy::col<orders, "amount">;
constexpr auto c_cust = jy::col<customers, "customer_id">;
constexpr auto c_country = jy::col<customers, "country">;
struct twice {
  double operator()(double a) const { return 2 * a; }
};
}  // namespace

TEST_CASE("joinery.sql.validate_sql.mapped_functions_pass") {
  constexpr auto p = jy::from<orders> | jy::join_inner<customers>(o_cust == c_cust) |
                     jy::where(jy::call(jy::upper, c_country) == "DE") |
                     jy::select(jy::as<"c">(jy::call(jy::lower, c_country)));
  STATIC_REQUIRE(jy::validate_sql(p).empty());
  STATIC_REQUIRE(jy::validate(p).empty());
}

TEST_CASE("joinery.sql.validate_sql.user_function_in_each_step") {
  constexpr auto in_on = jy::from<orders> | jy::join_left<customers>(o_cust == c_cust && jy::call(twice{}, o_amount) > 1.0);
  STATIC_REQUIRE(jy::validate_sql(in_on).size() == 1);
  STATIC_REQUIRE(jy::validate_sql(in_on)[0].rule == jy::rule::sql_unsupported_call);
  STATIC_REQUIRE(jy::validate_sql(in_on)[0].path == "/join/0/on");
  STATIC_REQUIRE(jy::validate(in_on).empty());  // still a valid plan: run accepts it

  constexpr auto in_where_and_select = jy::from<orders> | jy::where(o_id > 1) |
                                       jy::where(jy::call(twice{}, o_amount) > 1.0) |
                                       jy::select(jy::as<"a">(o_id), jy::as<"b">(jy::call(twice{}, o_amount)));
  constexpr auto f = jy::validate_sql(in_where_and_select);
  STATIC_REQUIRE(f.size() == 2);
  STATIC_REQUIRE(f[0].path == "/where/1");
  STATIC_REQUIRE(f[1].path == "/select/1");
  STATIC_REQUIRE(f[1].rule == jy::rule::sql_unsupported_call);
}

TEST_CASE("joinery.sql.validate_sql.group_by_aggregate_and_nested_calls") {
  constexpr auto to_text = [](std::int64_t v) { return std::to_string(v); };
  constexpr auto p = jy::from<orders> | jy::group_by(jy::as<"g">(jy::call(jy::upper, jy::call(to_text, o_id)))) |
                     jy::aggregate(jy::as<"n">(jy::count()), jy::as<"s">(jy::sum(jy::call(twice{}, o_amount))));
  constexpr auto f = jy::validate_sql(p);
  STATIC_REQUIRE(f.size() == 2);
  STATIC_REQUIRE(f[0].path == "/group_by/0");  // a user function inside a mapped one
  STATIC_REQUIRE(f[1].path == "/aggregate/1");
  STATIC_REQUIRE(f[1].rule == jy::rule::sql_unsupported_call);
}
