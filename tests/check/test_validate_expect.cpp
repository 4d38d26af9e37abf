// Rule family E079: one validate() test per rule (exact rule, exact path),
// and the shapes that are allowed.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string_view>

#include <joinery/check/validate.hpp>
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>

namespace {
constexpr auto o_id = jy::col<orders, "order_id">;
constexpr auto o_cust = jy::col<orders, "customer_id">;
constexpr auto o_amount = jy::col<orders, "amount">;
constexpr auto c_cust = jy::col<customers, "customer_id">;
constexpr auto c_country = jy::col<customers, "country">;
constexpr auto m2o = jy::expect::many_to_one;
constexpr auto o2o = jy::expect::one_to_one;
constexpr auto plus_one = [](std::int64_t v) { return v + 1; };

template <class P>
constexpr bool only(const P& p, jy::rule r, std::string_view path) {
  const auto f = jy::validate(p);
  return f.size() == 1 && f[0].rule == r && f[0].path == path;
}
}  // namespace

TEST_CASE("joinery.check.expect.allowed_shapes") {
  // The DESIGN.md plan.
  STATIC_REQUIRE(jy::validate(jy::from<orders> | jy::join_left<customers>(o_cust == c_cust, m2o)).empty());
  STATIC_REQUIRE(jy::validate(jy::from<orders> | jy::join_inner<customers>(c_cust == o_cust, o2o)).empty());
  // Composite keys, a right literal conjunct (either operand order).
  STATIC_REQUIRE(jy::validate(jy::from<orders> | jy::join_left<customers>(
                                                     o_cust == c_cust && o_id == c_cust && "DE" == c_country, o2o))
                     .empty());
  // Left-only conjuncts of any shape are ignored.
  STATIC_REQUIRE(jy::validate(jy::from<orders> |
                              jy::join_left<customers>(o_cust == c_cust && (o_amount > 3.0 || !(o_id != 2)), m2o))
                     .empty());
  // A left key expression proves many_to_one.
  STATIC_REQUIRE(jy::validate(jy::from<orders> | jy::join_left<customers>(jy::call(plus_one, o_id) == c_cust, m2o))
                     .empty());
  // No annotation, no check: any condition.
  STATIC_REQUIRE(jy::validate(jy::from<orders> | jy::join_left<customers>(o_id < c_cust)).empty());
  STATIC_REQUIRE(jy::validate(jy::from<orders> | jy::join_semi<customers>(o_cust == c_cust)).empty());
}

TEST_CASE("joinery.check.expect.expect_on_semi_or_anti") {
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_semi<customers>(o_cust == c_cust, m2o),
                      jy::rule::expect_on_semi_or_anti, "/join/0/expect"));
  using c2 = jy::alias<customers, "c2">;
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_left<customers>(o_cust == c_cust, m2o) |
                          jy::join_anti<c2>(o_cust == jy::col<c2, "customer_id">, o2o),
                      jy::rule::expect_on_semi_or_anti, "/join/1/expect"));
}

TEST_CASE("joinery.check.expect.expect_non_equational") {
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_left<customers>(o_cust == c_cust && c_cust > 3, m2o),
                      jy::rule::expect_non_equational, "/join/0/on/1"));
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_inner<customers>(o_cust == c_cust || o_id == c_cust, m2o),
                      jy::rule::expect_non_equational, "/join/0/on/0"));
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_inner<customers>(o_cust == c_cust && o_id != c_cust, m2o),
                      jy::rule::expect_non_equational, "/join/0/on/1"));
  // A boolean call over a right column is not an equation either.
  constexpr auto is_de = [](const std::string& s) { return s == "DE"; };
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_inner<customers>(o_cust == c_cust && jy::call(is_de, c_country), m2o),
                      jy::rule::expect_non_equational, "/join/0/on/1"));
}

TEST_CASE("joinery.check.expect.expect_right_outside_key") {
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_left<customers>(jy::call(plus_one, c_cust) == o_cust, m2o),
                      jy::rule::expect_right_outside_key, "/join/0/on/0"));
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_left<customers>(o_cust == c_cust && o_id == c_cust + 1, o2o),
                      jy::rule::expect_right_outside_key, "/join/0/on/1"));
}

TEST_CASE("joinery.check.expect.expect_same_side") {
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_left<customers>(o_cust == c_cust && c_country == c_country, m2o),
                      jy::rule::expect_same_side, "/join/0/on/1"));
}

TEST_CASE("joinery.check.expect.expect_no_keys") {
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_left<customers>(c_country == "DE", m2o), jy::rule::expect_no_keys,
                      "/join/0/expect"));
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_left<customers>(o_id == 3, m2o), jy::rule::expect_no_keys,
                      "/join/0/expect"));
  // A conjunct finding already explains the join: no second finding.
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_left<customers>(o_id < c_cust, m2o),
                      jy::rule::expect_non_equational, "/join/0/on/0"));
}

TEST_CASE("joinery.check.expect.expect_one_to_one_needs_plain_pair") {
  STATIC_REQUIRE(only(jy::from<orders> | jy::join_left<customers>(jy::call(plus_one, o_id) == c_cust, o2o),
                      jy::rule::expect_one_to_one_needs_plain_pair, "/join/0/expect"));
  // One plain pair is enough beside an expression pair.
  STATIC_REQUIRE(jy::validate(jy::from<orders> |
                              jy::join_left<customers>(jy::call(plus_one, o_id) == c_cust && o_cust == c_cust, o2o))
                     .empty());
}

TEST_CASE("joinery.check.expect.findings_of_several_joins_in_order") {
  using c2 = jy::alias<customers, "c2">;
  constexpr auto f = jy::validate(jy::from<orders> | jy::join_left<customers>(o_id > c_cust, m2o) |
                                  jy::join_semi<c2>(o_cust == jy::col<c2, "customer_id">, m2o));
  STATIC_REQUIRE(f.size() == 2);
  STATIC_REQUIRE(f[0].path == std::string_view("/join/0/on/0"));
  STATIC_REQUIRE(f[1].rule == jy::rule::expect_on_semi_or_anti);
  STATIC_REQUIRE(f[1].path == std::string_view("/join/1/expect"));
}
