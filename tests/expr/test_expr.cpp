#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include <joinery/expr/expr.hpp>
#include <test_schemas.hpp>

namespace {
constexpr auto o_id = jy::col<orders, "order_id">;
constexpr auto o_cust = jy::col<orders, "customer_id">;
constexpr auto c_cust = jy::col<customers, "customer_id">;

/// Reads fixed values: orders.order_id = 7, orders.customer_id = NULL or 10,
/// customers.customer_id = 10, customers.country = "DE".
struct fake_env {
  std::optional<std::int64_t> cust;
  template <class T, jy::fixed_string N>
  decltype(auto) read() const {
    if constexpr (std::is_same_v<T, orders> && N == jy::fixed_string("order_id")) return std::int64_t{7};
    else if constexpr (std::is_same_v<T, orders>) return cust;
    else if constexpr (N == jy::fixed_string("country")) return std::string("DE");
    else return std::int64_t{10};
  }
};

template <class E>
using tables = jy::expr_tables_t<E>;
}  // namespace

TEST_CASE("joinery.expr.operators.build_nodes_not_bools") {
  constexpr auto e1 = o_cust == c_cust;
  STATIC_REQUIRE(std::is_same_v<std::remove_cv_t<decltype(e1)>,
                                jy::binary<jy::op::eq, std::remove_cv_t<decltype(o_cust)>, std::remove_cv_t<decltype(c_cust)>>>);
  // A literal on the left: `3 == col` is a node too (no C++20 rewriting to a bool).
  constexpr auto e2 = 3 == o_id;
  STATIC_REQUIRE(std::is_same_v<std::remove_cv_t<decltype(e2)>,
                                jy::binary<jy::op::eq, jy::literal<int>, std::remove_cv_t<decltype(o_id)>>>);
  CHECK(e2.lhs.value == 3);
  constexpr auto e3 = o_id != 4;
  STATIC_REQUIRE(std::is_same_v<typename std::remove_cv_t<decltype(e3)>::op_type, jy::op::ne>);
  constexpr auto e4 = 4 != o_id;
  STATIC_REQUIRE(std::is_same_v<typename std::remove_cv_t<decltype(e4)>::op_type, jy::op::ne>);
  constexpr auto e5 = !(o_id < 3 || o_id >= 9) && o_id <= 8 && 2 > o_id;
  STATIC_REQUIRE(jy::expression<decltype(e5)>);
  constexpr auto e6 = (o_id + 1) * 2 - o_id / 3;
  STATIC_REQUIRE(jy::expression<decltype(e6)>);
  constexpr auto e7 = jy::col<customers, "country"> == "DE";
  STATIC_REQUIRE(std::is_same_v<decltype(e7.rhs.value), std::string_view>);
}

TEST_CASE("joinery.expr.analysis.tables_read") {
  constexpr auto e = o_cust == c_cust && o_id > 3;
  using E = std::remove_cv_t<decltype(e)>;
  STATIC_REQUIRE(std::is_same_v<tables<E>, jy::type_list<orders, customers, orders>>);
  STATIC_REQUIRE(jy::reads_table_v<E, customers>);
  STATIC_REQUIRE(!jy::reads_only_v<E, jy::type_list<orders>>);
  STATIC_REQUIRE(jy::reads_only_v<E, jy::type_list<customers, orders>>);
  constexpr auto f = jy::call([](std::int64_t x) { return x + 1; }, o_id);
  STATIC_REQUIRE(std::is_same_v<tables<decltype(f)>, jy::type_list<orders>>);
  STATIC_REQUIRE(jy::reads_nothing_v<jy::literal<int>>);
  // An unknown column forms fine (validate() reports it), and says it is unresolved.
  constexpr auto bad = jy::col<orders, "amnt">;
  STATIC_REQUIRE(!decltype(bad)::resolved);
  STATIC_REQUIRE(std::is_same_v<jy::expr_columns_t<decltype(bad == 1)>, jy::type_list<std::remove_cv_t<decltype(bad)>>>);
}

TEST_CASE("joinery.expr.eval.values_and_three_valued_logic") {
  const fake_env known{10};
  const fake_env null{std::nullopt};
  CHECK(jy::eval_expr(o_id + 1, known) == 8);
  CHECK(jy::holds(jy::eval_expr(o_cust == c_cust, known)));
  // NULL compares to nothing: neither == nor != holds.
  CHECK(!jy::eval_expr(o_cust == c_cust, null).has_value());
  CHECK(!jy::holds(jy::eval_expr(o_cust != c_cust, null)));
  CHECK(!jy::holds(jy::eval_expr(!(o_cust == c_cust), null)));
  // Kleene: false && NULL is false, true || NULL is true, true && NULL is NULL.
  CHECK(jy::eval_expr(o_id == 1 && o_cust == 1, null) == std::optional<bool>(false));
  CHECK(jy::eval_expr(o_id == 7 || o_cust == 1, null) == std::optional<bool>(true));
  CHECK(jy::eval_expr(o_id == 7 && o_cust == 1, null) == std::optional<bool>());
  CHECK(jy::eval_expr(jy::col<customers, "country"> == "DE", known));
  CHECK(jy::eval_expr(jy::call([](const std::optional<std::int64_t>& v) { return v.value_or(-1); }, o_cust), null) == -1);
}

TEST_CASE("joinery.expr.eval.equality_is_the_key_order") {
  const fake_env env{1};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr auto lit = [](auto v) { return jy::literal<decltype(v)>{{}, v}; };
  CHECK(jy::eval_expr(lit(nan) == nan, env));   // NaN == NaN, as for keys
  CHECK(jy::eval_expr(lit(-0.0) == 0.0, env));  // -0.0 == 0.0
  CHECK(!jy::eval_expr(lit(nan) < nan, env));
  CHECK(jy::eval_expr(lit(std::int32_t{-1}) < std::uint64_t{1}, env));  // by value, not by conversion
  CHECK(jy::eval_expr(lit(std::int32_t{5}) == std::int64_t{5}, env));
  CHECK(jy::eval_expr(lit(3) == 3.0, env));
}
