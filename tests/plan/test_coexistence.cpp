// The plans' `aggregate(as...)`, `sum(expr)`, `min`, `max` and `count()` live
// in namespace joinery beside the aggregate IR's `aggregate(output_idx...)`
// and `sum(factor)`: overloads are constrained, so both spellings of
// DESIGN.md compile in one translation unit and mean what they say.
#include <catch2/catch.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

#include <joinery/joinery.hpp>
#include <test_schemas.hpp>

namespace {
struct row_ax : jy::index_set<"row_ax"> {};
constexpr auto r_id = jy::data<"r_id", std::int64_t>(row_ax{});
constexpr auto r_prior = jy::data<"r_priorID", std::int64_t>(row_ax{});
constexpr auto value = jy::data<"value", double>(row_ax{});
constexpr auto a = jy::sym<"a">;
constexpr auto b = jy::sym<"b">;
constexpr auto prior_value = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                           jy::join(jy::on(r_prior, r_id)), jy::sum(value(b)));
constexpr auto per_customer = jy::from<orders> | jy::group_by(jy::col<orders, "customer_id">) |
                              jy::aggregate(jy::as<"n">(jy::count()), jy::as<"s">(jy::sum(jy::col<orders, "amount">)));
}  // namespace

TEST_CASE("joinery.plan.coexistence.aggregate_ir_and_plans_in_one_tu") {
  STATIC_REQUIRE(jy::validate(prior_value).empty());
  STATIC_REQUIRE(jy::validate(per_customer).empty());
  const auto out = jy::evaluate(prior_value, jy::extent(row_ax{}, 5), r_id = std::vector<std::int64_t>{10, 11, 12, 13, 14},
                                r_prior = std::vector<std::int64_t>{0, 10, 11, 11, 99},
                                value = std::vector<double>{1, 2, 3, 4, 5});
  CHECK(out[2] == 2);
  const jy::relation<orders> o{{1, 10, 1.0}, {2, 10, 2.0}};
  const auto g = jy::materialize(per_customer, o);
  REQUIRE(g.size() == 1);
  CHECK(jy::get<"s">(g[0]) == 3.0);
}
