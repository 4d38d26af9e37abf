#include <catch2/catch.hpp>

#include <string_view>

#include <joinery/check/validate.hpp>
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>

namespace {
constexpr auto o_cust = jy::col<orders, "customer_id">;
constexpr auto c_cust = jy::col<customers, "customer_id">;
constexpr auto good = jy::from<orders> | jy::join_left<customers>(o_cust == c_cust) |
                      jy::where(jy::col<customers, "country"> == "DE") |
                      jy::select(jy::as<"id">(jy::col<orders, "order_id">));
}  // namespace

TEST_CASE("joinery.check.plan.validate_accepts_good_plans") {
  STATIC_REQUIRE(jy::validate(good).empty());
  STATIC_REQUIRE(jy::validate(good, jy::sources<customers, orders>{}).empty());
  constexpr auto grouped = jy::from<orders> | jy::group_by(o_cust) |
                           jy::aggregate(jy::as<"n">(jy::count()), jy::as<"s">(jy::sum(jy::col<orders, "amount">)));
  STATIC_REQUIRE(jy::validate(grouped).empty());
}

TEST_CASE("joinery.check.plan.unknown_column_paths") {
  constexpr auto in_on = jy::from<orders> | jy::join_inner<customers>(o_cust == jy::col<customers, "custid">);
  constexpr auto f1 = jy::validate(in_on);
  STATIC_REQUIRE(f1.size() == 1);
  STATIC_REQUIRE(f1[0].rule == jy::rule::unknown_column);
  STATIC_REQUIRE(f1[0].path == std::string_view("/join/0/on"));

  constexpr auto in_select = jy::from<orders> | jy::join_semi<customers>(o_cust == c_cust) |
                             jy::join_anti<jy::alias<customers, "c2">>(o_cust == jy::col<jy::alias<customers, "c2">, "customer_id">) |
                             jy::select(jy::as<"a">(jy::col<orders, "order_id">), jy::as<"b">(jy::col<orders, "amnt">));
  constexpr auto f2 = jy::validate(in_select);
  STATIC_REQUIRE(f2.size() == 1);
  STATIC_REQUIRE(f2[0].rule == jy::rule::unknown_column);
  STATIC_REQUIRE(f2[0].path == std::string_view("/select/1"));

  // A table that is not bound at that step: under the same rule.
  constexpr auto unbound = jy::from<orders> | jy::where(jy::col<orders, "amount"> > 1.0) |
                           jy::where(jy::col<customers, "country"> == "DE") |
                           jy::join_inner<customers>(o_cust == c_cust);
  constexpr auto f3 = jy::validate(unbound);
  STATIC_REQUIRE(f3.size() == 1);
  STATIC_REQUIRE(f3[0].path == std::string_view("/where/1"));

  // A semi join's table is readable in its condition only, not after it.
  constexpr auto after_semi = jy::from<orders> | jy::join_semi<customers>(o_cust == c_cust) |
                              jy::select(jy::as<"c">(jy::col<customers, "country">));
  constexpr auto f4 = jy::validate(after_semi);
  STATIC_REQUIRE(f4.size() == 1);
  STATIC_REQUIRE(f4[0].path == std::string_view("/select/0"));

  constexpr auto in_group = jy::from<orders> | jy::group_by(jy::col<orders, "cust">) |
                            jy::aggregate(jy::as<"n">(jy::count()), jy::as<"m">(jy::max(jy::col<orders, "amt">)));
  constexpr auto f5 = jy::validate(in_group);
  STATIC_REQUIRE(f5.size() == 2);
  STATIC_REQUIRE(f5[0].path == std::string_view("/group_by/0"));
  STATIC_REQUIRE(f5[1].path == std::string_view("/aggregate/1"));
}

TEST_CASE("joinery.check.plan.missing_source_paths") {
  constexpr auto f1 = jy::validate(good, jy::sources<orders>{});
  STATIC_REQUIRE(f1.size() == 1);
  STATIC_REQUIRE(f1[0].rule == jy::rule::missing_source);
  STATIC_REQUIRE(f1[0].path == std::string_view("/join/0"));
  constexpr auto f2 = jy::validate(good, jy::sources<customers>{});
  STATIC_REQUIRE(f2.size() == 1);
  STATIC_REQUIRE(f2[0].path == std::string_view("/from"));
  // An alias is satisfied by its base table's relation.
  using prev = jy::alias<orders, "prev">;
  constexpr auto self = jy::from<orders> | jy::join_inner<prev>(o_cust == jy::col<prev, "customer_id">);
  STATIC_REQUIRE(jy::validate(self, jy::sources<orders>{}).empty());
}
