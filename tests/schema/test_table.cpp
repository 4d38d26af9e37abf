#include <catch2/catch.hpp>
#include <test_schemas.hpp>
#include <joinery/expr/column_ref.hpp>

TEST_CASE("joinery.schema.table.facts") {
  STATIC_REQUIRE(orders::name.view() == "orders");
  STATIC_REQUIRE(orders::column_count == 3);
  STATIC_REQUIRE(orders::column_names[2] == "amount");
  STATIC_REQUIRE(jy::has_column<orders, "amount">);
  STATIC_REQUIRE(!jy::has_column<orders, "amnt">);
  STATIC_REQUIRE(std::is_same_v<jy::column_t<orders, "customer_id">::type, std::optional<std::int64_t>>);
  STATIC_REQUIRE(jy::column_t<orders, "customer_id">::nullable);
  STATIC_REQUIRE(!jy::column_t<orders, "amount">::nullable);
  STATIC_REQUIRE(std::is_same_v<jy::column_t<orders, "customer_id">::value_type, std::int64_t>);
  STATIC_REQUIRE(jy::table_type<orders>);
  STATIC_REQUIRE(!jy::table_type<int>);
}

struct twice_a : jy::table<"twice_a", jy::column<"a", int>, jy::column<"b", int>, jy::column<"a", double>> {};

TEST_CASE("joinery.schema.table.duplicate_detection") {
  STATIC_REQUIRE(jy::detail::first_duplicate_column<twice_a>() == 2);
  STATIC_REQUIRE(jy::detail::first_duplicate_column<orders>() == jy::detail::npos);
}

TEST_CASE("joinery.schema.alias.reads_its_base_table") {
  using prev = jy::alias<orders, "prev">;
  STATIC_REQUIRE(prev::name.view() == "prev");
  STATIC_REQUIRE(std::is_same_v<jy::base_table_t<prev>, orders>);
  STATIC_REQUIRE(std::is_same_v<jy::base_table_t<orders>, orders>);
  STATIC_REQUIRE(std::is_same_v<jy::base_table_t<jy::alias<prev, "pp">>, orders>);
  STATIC_REQUIRE(jy::has_column<prev, "amount">);
}

TEST_CASE("joinery.schema.col.typed_reference") {
  constexpr auto c = jy::col<orders, "customer_id">;
  using C = std::remove_cvref_t<decltype(c)>;
  STATIC_REQUIRE(std::is_same_v<C::table, orders>);
  STATIC_REQUIRE(C::name.view() == "customer_id");
  STATIC_REQUIRE(C::resolved);
  STATIC_REQUIRE(!std::remove_cvref_t<decltype(jy::col<orders, "nope">)>::resolved);
}
