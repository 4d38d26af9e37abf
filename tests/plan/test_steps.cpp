// where, select, the select-less result, group_by | aggregate, and run's lazy view.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <ranges>
#include <string>
#include <tuple>
#include <vector>

#include <range/v3/range/concepts.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/transform.hpp>

#include <joinery/plan/relational.hpp>
#include "plan_test_util.hpp"
#include <test_schemas.hpp>

namespace {
using std::nullopt;
constexpr auto o_id = jy::col<orders, "order_id">;
constexpr auto o_cust = jy::col<orders, "customer_id">;
constexpr auto o_amount = jy::col<orders, "amount">;
constexpr auto c_cust = jy::col<customers, "customer_id">;
constexpr auto c_country = jy::col<customers, "country">;

jy::relation<orders> sample_orders() {
  return {{1, 10, 9.5}, {2, nullopt, 3.0}, {3, 11, 1.0}, {4, 10, 2.0}, {5, nullopt, 4.0}, {6, 12, -1.0}};
}
jy::relation<customers> sample_customers() { return {{10, "DE"}, {11, "FR"}, {12, "DE"}}; }

struct fk : jy::table<"fk", jy::column<"k", double>, jy::column<"v", std::optional<int>>> {};
}  // namespace

TEST_CASE("joinery.plan.where.filters_in_order_null_is_not_true") {
  const auto o = sample_orders();
  const auto r = jy::materialize(jy::from<orders> | jy::where(o_amount > 1.5 && o_cust != 10) |
                                     jy::select(jy::as<"id">(o_id)),
                                 o);
  // Rows 2 and 5 have a NULL customer: `NULL != 10` is not true.
  CHECK(rows_of(r) == std::vector<std::tuple<std::int64_t>>{});
  const auto s = jy::materialize(jy::from<orders> | jy::where(o_amount > 1.5) | jy::where(o_id != 4) |
                                     jy::select(jy::as<"id">(o_id)),
                                 o);
  CHECK(rows_of(s) == std::vector<std::tuple<std::int64_t>>{{1}, {2}, {5}});
}

TEST_CASE("joinery.plan.select.computed_columns_and_types") {
  const auto o = sample_orders();
  const auto c = sample_customers();
  constexpr auto p = jy::model<"m">(jy::from<orders> | jy::join_left<customers>(o_cust == c_cust) |
                                    jy::select(jy::as<"twice">(o_amount * 2), jy::as<"c">(c_country),
                                               jy::as<"cust_plus">(o_cust + 1), jy::as<"is_de">(c_country == "DE")));
  using T = jy::result_table_t<decltype(p)>;
  STATIC_REQUIRE(T::name == jy::fixed_string("m"));
  using row = std::tuple<double, std::optional<std::string>, std::optional<std::int64_t>, std::optional<bool>>;
  STATIC_REQUIRE(std::is_same_v<jy::relation<T>::row_type, row>);
  const auto r = jy::materialize(p, o, c);
  CHECK(rows_of(r) == std::vector<row>{{19.0, "DE", 11, true},
                                       {6.0, nullopt, nullopt, nullopt},
                                       {2.0, "FR", 12, false},
                                       {4.0, "DE", 11, true},
                                       {8.0, nullopt, nullopt, nullopt},
                                       {-2.0, "DE", 13, true}});
}

TEST_CASE("joinery.plan.select_less.all_bound_columns_qualified_on_clash") {
  const auto o = sample_orders();
  const auto c = sample_customers();
  constexpr auto p = jy::from<orders> | jy::join_left<customers>(o_cust == c_cust);
  using T = jy::result_table_t<decltype(p)>;
  STATIC_REQUIRE(T::name == jy::fixed_string("result"));
  CHECK(std::vector<std::string_view>(T::column_names.begin(), T::column_names.end()) ==
        std::vector<std::string_view>{"order_id", "customer_id", "amount", "customers.customer_id", "country"});
  using row = std::tuple<std::int64_t, std::optional<std::int64_t>, double, std::optional<std::int64_t>,
                         std::optional<std::string>>;
  STATIC_REQUIRE(std::is_same_v<jy::relation<T>::row_type, row>);
  const auto r = jy::materialize(p, o, c);
  CHECK(r.size() == 6);
  CHECK(r.row(1) == row{2, nullopt, 3.0, nullopt, nullopt});
  CHECK(jy::get<"customers.customer_id">(r[5]) == 12);
  // A plan of just `from` is the table itself.
  CHECK(rows_of(jy::materialize(jy::from<orders>, o)) == rows_of(o));
}

TEST_CASE("joinery.plan.group_by.first_appearance_null_group_types") {
  const auto o = sample_orders();
  constexpr auto p = jy::from<orders> | jy::group_by(o_cust) |
                     jy::aggregate(jy::as<"n">(jy::count()), jy::as<"s">(jy::sum(o_amount)),
                                   jy::as<"lo">(jy::min(o_amount)), jy::as<"hi">(jy::max(o_id)));
  using row = std::tuple<std::optional<std::int64_t>, std::int64_t, double, double, std::int64_t>;
  STATIC_REQUIRE(std::is_same_v<jy::result_relation_t<decltype(p)>::row_type, row>);
  CHECK(rows_of(jy::materialize(p, o)) ==
        std::vector<row>{{10, 2, 11.5, 2.0, 4}, {nullopt, 2, 7.0, 3.0, 5}, {11, 1, 1.0, 1.0, 3}, {12, 1, -1.0, -1.0, 6}});
}

TEST_CASE("joinery.plan.group_by.after_join_composite_and_nullable_aggregates") {
  const auto o = sample_orders();
  const auto c = sample_customers();
  constexpr auto p = jy::from<orders> | jy::join_left<customers>(o_cust == c_cust) |
                     jy::group_by(c_country, jy::as<"big">(o_amount > 2.5)) |
                     jy::aggregate(jy::as<"n">(jy::count()), jy::as<"s">(jy::sum(o_cust)),
                                   jy::as<"top">(jy::max(c_country)));
  using row = std::tuple<std::optional<std::string>, bool, std::int64_t, std::optional<std::int64_t>,
                         std::optional<std::string>>;
  STATIC_REQUIRE(std::is_same_v<jy::result_relation_t<decltype(p)>::row_type, row>);
  CHECK(rows_of(jy::materialize(p, o, c)) == std::vector<row>{{"DE", true, 1, 10, "DE"},
                                                             {nullopt, true, 2, nullopt, nullopt},
                                                             {"FR", false, 1, 11, "FR"},
                                                             {"DE", false, 2, 22, "DE"}});
}

TEST_CASE("joinery.plan.group_by.nan_and_negative_zero_each_one_group") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const jy::relation<fk> f{{nan, 1}, {0.0, 2}, {-nan, nullopt}, {-0.0, 4}, {1.0, nullopt}};
  constexpr auto p = jy::from<fk> | jy::group_by(jy::col<fk, "k">) |
                     jy::aggregate(jy::as<"n">(jy::count()), jy::as<"s">(jy::sum(jy::col<fk, "v">)));
  const auto r = jy::materialize(p, f);
  REQUIRE(r.size() == 3);
  CHECK(std::isnan(std::get<0>(r.row(0))));
  CHECK(std::get<1>(r.row(0)) == 2);
  CHECK(std::get<2>(r.row(0)) == std::optional<std::int64_t>(1));
  CHECK(r.row(1) == std::tuple<double, std::int64_t, std::optional<std::int64_t>>{0.0, 2, 6});
  CHECK(!std::signbit(std::get<0>(r.row(1))));  // the first appearance's value
  CHECK(r.row(2) == std::tuple<double, std::int64_t, std::optional<std::int64_t>>{1.0, 1, nullopt});
  // Empty input: no groups.
  CHECK(jy::materialize(p, jy::relation<fk>{}).empty());
}

TEST_CASE("joinery.plan.run.is_a_lazy_range_v3_view") {
  const auto o = sample_orders();
  const auto c = sample_customers();
  constexpr auto p = jy::model<"enriched">(jy::from<orders> | jy::join_left<customers>(o_cust == c_cust) |
                                           jy::select(jy::as<"order_id">(o_id), jy::as<"country">(c_country)));
  auto rows = jy::run(p, o, c);
  using V = decltype(rows);
  STATIC_REQUIRE(ranges::view_<V>);
  STATIC_REQUIRE(ranges::random_access_range<V>);
  STATIC_REQUIRE(ranges::sized_range<V>);
  STATIC_REQUIRE(std::ranges::random_access_range<V>);
  REQUIRE(rows.size() == 6);
  std::vector<std::int64_t> ids;
  std::vector<std::optional<std::string>> countries;
  for (auto row : rows) {
    ids.push_back(jy::get<"order_id">(row));
    countries.push_back(jy::get<"country">(row));
  }
  CHECK(ids == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6});
  CHECK(countries == std::vector<std::optional<std::string>>{"DE", nullopt, "FR", "DE", nullopt, "DE"});
  CHECK(jy::get<"country">(rows[2]) == "FR");
  CHECK(rows.to_relation() == jy::materialize(p, o, c));
  // Copies share the result; a default view is empty.
  auto copy = rows;
  CHECK(copy.size() == 6);
  CHECK(V{}.size() == 0);
  // It composes with range-v3 pipelines, as a prvalue too.
  const auto de = jy::run(p, o, c) | ranges::views::filter([](auto r) { return jy::get<"country">(r) == "DE"; }) |
                  ranges::views::transform([](auto r) { return jy::get<"order_id">(r); }) |
                  ranges::to<std::vector>();
  CHECK(de == std::vector<std::int64_t>{1, 4, 6});
  // Grouped plans run too.
  auto g = jy::run(jy::from<orders> | jy::group_by(o_cust) | jy::aggregate(jy::as<"n">(jy::count())), o);
  CHECK(g.size() == 4);
  CHECK(jy::get<"n">(g[0]) == 2);
}
