// The exact SQL text of to_sql and cardinality_sql for each plan construct.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include <joinery/plan/relational.hpp>
#include <joinery/sql/sql.hpp>
#include <test_schemas.hpp>

namespace {
constexpr auto o_id = jy::col<orders, "order_id">;
constexpr auto o_cust = jy::col<orders, "customer_id">;
constexpr auto o_amount = jy::col<orders, "amount">;
constexpr auto c_cust = jy::col<customers, "customer_id">;
constexpr auto c_country = jy::col<customers, "country">;
using prev = jy::alias<orders, "prev">;
constexpr auto p_id = jy::col<prev, "order_id">;

constexpr auto enriched = jy::model<"enriched">(
    jy::from<orders> |
    jy::join_left<customers>(o_cust == c_cust, jy::expect::many_to_one) |
    jy::select(jy::as<"order_id">(o_id), jy::as<"country">(c_country)));
}  // namespace

TEST_CASE("joinery.sql.to_sql.design_example_left_join") {
  CHECK(jy::to_sql(enriched, jy::dialect::sqlite) ==
        "SELECT \"orders\".\"order_id\" AS \"order_id\", \"customers\".\"country\" AS \"country\"\n"
        "FROM \"orders\"\n"
        "LEFT JOIN \"customers\" ON \"orders\".\"customer_id\" = \"customers\".\"customer_id\"\n"
        "ORDER BY \"orders\".\"_pos\", \"customers\".\"_pos\"");
  CHECK(jy::to_sql(enriched, jy::dialect::duckdb) == jy::to_sql(enriched, jy::dialect::sqlite));
}

TEST_CASE("joinery.sql.to_sql.select_less_plan_lists_every_bound_column_qualified_on_collision") {
  CHECK(jy::to_sql(jy::from<orders> | jy::join_inner<customers>(o_cust == c_cust), jy::dialect::sqlite) ==
        "SELECT \"orders\".\"order_id\" AS \"order_id\", \"orders\".\"customer_id\" AS \"customer_id\", "
        "\"orders\".\"amount\" AS \"amount\", \"customers\".\"customer_id\" AS \"customers.customer_id\", "
        "\"customers\".\"country\" AS \"country\"\n"
        "FROM \"orders\"\n"
        "JOIN \"customers\" ON \"orders\".\"customer_id\" = \"customers\".\"customer_id\"\n"
        "ORDER BY \"orders\".\"_pos\", \"customers\".\"_pos\"");
}

TEST_CASE("joinery.sql.to_sql.semi_and_anti_are_correlated_exists_in_where") {
  const auto ids = jy::select(jy::as<"id">(o_id));
  CHECK(jy::to_sql(jy::from<orders> | jy::where(o_amount > 2.0) |
                       jy::join_semi<customers>(o_cust == c_cust && c_country == "DE") | ids,
                   jy::dialect::sqlite) ==
        "SELECT \"orders\".\"order_id\" AS \"id\"\n"
        "FROM \"orders\"\n"
        "WHERE (\"orders\".\"amount\" > 2.0) AND EXISTS (SELECT 1 FROM \"customers\" WHERE "
        "(\"orders\".\"customer_id\" = \"customers\".\"customer_id\") AND (\"customers\".\"country\" = 'DE'))\n"
        "ORDER BY \"orders\".\"_pos\"");
  CHECK(jy::to_sql(jy::from<orders> | jy::join_anti<customers>(o_cust == c_cust) | ids, jy::dialect::duckdb) ==
        "SELECT \"orders\".\"order_id\" AS \"id\"\n"
        "FROM \"orders\"\n"
        "WHERE NOT EXISTS (SELECT 1 FROM \"customers\" WHERE \"orders\".\"customer_id\" = \"customers\".\"customer_id\")\n"
        "ORDER BY \"orders\".\"_pos\"");
}

TEST_CASE("joinery.sql.to_sql.alias_self_join_reads_base_table") {
  CHECK(jy::to_sql(jy::from<orders> | jy::join_inner<prev>(p_id == o_id - 1) |
                       jy::select(jy::as<"id">(o_id), jy::as<"prev_id">(p_id)),
                   jy::dialect::sqlite) ==
        "SELECT \"orders\".\"order_id\" AS \"id\", \"prev\".\"order_id\" AS \"prev_id\"\n"
        "FROM \"orders\"\n"
        "JOIN \"orders\" AS \"prev\" ON \"prev\".\"order_id\" = (\"orders\".\"order_id\" - 1)\n"
        "ORDER BY \"orders\".\"_pos\", \"prev\".\"_pos\"");
}

TEST_CASE("joinery.sql.to_sql.group_by_numbers_rows_and_orders_groups_by_first_row") {
  CHECK(jy::to_sql(jy::model<"per_customer">(jy::from<orders> | jy::where(o_amount >= 1.5) | jy::group_by(o_cust) |
                                             jy::aggregate(jy::as<"n">(jy::count()), jy::as<"total">(jy::sum(o_amount)),
                                                           jy::as<"first">(jy::min(o_id)),
                                                           jy::as<"last">(jy::max(o_id)))),
                   jy::dialect::sqlite) ==
        "SELECT \"_k0\" AS \"customer_id\", COUNT(*) AS \"n\", SUM(\"_a1\") AS \"total\", MIN(\"_a2\") AS \"first\", "
        "MAX(\"_a3\") AS \"last\"\n"
        "FROM (SELECT \"orders\".\"customer_id\" AS \"_k0\", \"orders\".\"amount\" AS \"_a1\", "
        "\"orders\".\"order_id\" AS \"_a2\", \"orders\".\"order_id\" AS \"_a3\", "
        "ROW_NUMBER() OVER (ORDER BY \"orders\".\"_pos\") AS \"_rn\"\n"
        "FROM \"orders\"\n"
        "WHERE \"orders\".\"amount\" >= 1.5) AS \"_rows\"\n"
        "GROUP BY \"_k0\"\n"
        "ORDER BY MIN(\"_rn\")");
}

TEST_CASE("joinery.sql.to_sql.operators_and_three_valued_logic") {
  const auto p = jy::from<orders> | jy::where(!(o_amount < 1.0) || (o_id != 3 && 10 == o_cust)) |
                 jy::select(jy::as<"x">(o_id * 2 + o_id / 4));
  CHECK(jy::to_sql(p, jy::dialect::sqlite) ==
        "SELECT ((\"orders\".\"order_id\" * 2) + (\"orders\".\"order_id\" / 4)) AS \"x\"\n"
        "FROM \"orders\"\n"
        "WHERE (NOT (\"orders\".\"amount\" < 1.0)) OR ((\"orders\".\"order_id\" <> 3) AND (10 = "
        "\"orders\".\"customer_id\"))\n"
        "ORDER BY \"orders\".\"_pos\"");
  // DuckDB's `/` is real division: integer division is `//`; a double operand keeps `/`.
  CHECK(jy::to_sql(jy::from<orders> | jy::select(jy::as<"h">(o_id / 2), jy::as<"r">(o_amount / 2)),
                   jy::dialect::duckdb) ==
        "SELECT (\"orders\".\"order_id\" // 2) AS \"h\", (\"orders\".\"amount\" / 2) AS \"r\"\n"
        "FROM \"orders\"\n"
        "ORDER BY \"orders\".\"_pos\"");
}

TEST_CASE("joinery.sql.to_sql.literals_per_dialect") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const auto p = jy::from<orders> |
                 jy::select(jy::as<"n">(o_amount == nan), jy::as<"i">(o_amount < -inf), jy::as<"z">(o_amount == -0.0),
                            jy::as<"d">(o_amount == 0.1), jy::as<"e">(o_amount > 1e300), jy::as<"w">(o_amount > 2.0));
  CHECK(jy::to_sql(p, jy::dialect::sqlite) ==
        "SELECT (\"orders\".\"amount\" = 'NaN') AS \"n\", (\"orders\".\"amount\" < -9e999) AS \"i\", "
        "(\"orders\".\"amount\" = -0.0) AS \"z\", (\"orders\".\"amount\" = 0.1) AS \"d\", "
        "(\"orders\".\"amount\" > 1e+300) AS \"e\", (\"orders\".\"amount\" > 2.0) AS \"w\"\n"
        "FROM \"orders\"\n"
        "ORDER BY \"orders\".\"_pos\"");
  CHECK(jy::to_sql(p, jy::dialect::duckdb) ==
        "SELECT (\"orders\".\"amount\" = 'NaN'::DOUBLE) AS \"n\", (\"orders\".\"amount\" < '-Infinity'::DOUBLE) AS \"i\", "
        "(\"orders\".\"amount\" = -0.0) AS \"z\", (\"orders\".\"amount\" = 0.1) AS \"d\", "
        "(\"orders\".\"amount\" > 1e+300) AS \"e\", (\"orders\".\"amount\" > 2.0) AS \"w\"\n"
        "FROM \"orders\"\n"
        "ORDER BY \"orders\".\"_pos\"");
  const auto q = jy::from<customers> | jy::where(c_country == "it's" || (c_country + std::string("x") == std::string("\"q\""))) |
                 jy::select(jy::as<"b">(c_cust == true));
  CHECK(jy::to_sql(q, jy::dialect::sqlite) ==
        "SELECT (\"customers\".\"customer_id\" = 1) AS \"b\"\n"
        "FROM \"customers\"\n"
        "WHERE (\"customers\".\"country\" = 'it''s') OR ((\"customers\".\"country\" || 'x') = '\"q\"')\n"
        "ORDER BY \"customers\".\"_pos\"");
  CHECK(jy::to_sql(q, jy::dialect::duckdb).starts_with("SELECT (\"customers\".\"customer_id\" = TRUE) AS \"b\""));
}

TEST_CASE("joinery.sql.to_sql.sql_mapped_functions_print_and_run") {
  const auto p = jy::from<customers> | jy::where(jy::call(jy::upper, c_country) == "DE") |
                 jy::select(jy::as<"l">(jy::call(jy::lower, c_country)));
  CHECK(jy::to_sql(p, jy::dialect::sqlite) ==
        "SELECT lower(\"customers\".\"country\") AS \"l\"\n"
        "FROM \"customers\"\n"
        "WHERE upper(\"customers\".\"country\") = 'DE'\n"
        "ORDER BY \"customers\".\"_pos\"");
  const jy::relation<customers> c{{1, "de"}, {2, "Fr"}, {3, "De"}, {4, "dé"}};
  const auto r = jy::materialize(p, c);
  REQUIRE(r.size() == 2);
  CHECK(r.column<"l">()[0] == "de");
  CHECK(r.column<"l">()[1] == "de");
  CHECK(jy::upper(std::string_view("a\xc3\xa9z")) == "A\xc3\xa9Z");  // ASCII only, as SQLite's upper()
  CHECK(jy::lower(std::optional<std::string>()) == std::nullopt);
}

TEST_CASE("joinery.sql.cardinality_sql.right_and_left_queries") {
  const auto q = jy::cardinality_sql(enriched);
  REQUIRE(q.size() == 1);
  CHECK(q[0].join == 0);
  CHECK(q[0].table == "customers");
  CHECK(q[0].side == "right");
  CHECK(q[0].expectation == "many_to_one");
  CHECK(q[0].sql ==
        "SELECT COUNT(*) FROM (SELECT 1 FROM \"customers\" WHERE \"customers\".\"customer_id\" IS NOT NULL "
        "GROUP BY \"customers\".\"customer_id\" HAVING COUNT(*) > 1) t");

  const auto p = jy::from<orders> | jy::join_semi<prev>(p_id == o_id) |
                 jy::join_inner<customers>(c_cust == o_cust && c_country == "DE" && o_amount > 1.0, jy::expect::one_to_one);
  const auto q2 = jy::cardinality_sql(p, jy::dialect::sqlite);
  REQUIRE(q2.size() == 2);
  CHECK(q2[0].join == 1);
  CHECK(q2[0].side == "right");
  CHECK(q2[0].sql ==
        "SELECT COUNT(*) FROM (SELECT 1 FROM \"customers\" WHERE \"customers\".\"customer_id\" IS NOT NULL AND "
        "(\"customers\".\"country\" = 'DE') GROUP BY \"customers\".\"customer_id\" HAVING COUNT(*) > 1) t");
  CHECK(q2[1].side == "left");
  CHECK(q2[1].expectation == "one_to_one");
  CHECK(q2[1].sql ==
        "SELECT COUNT(*) FROM (SELECT 1 FROM \"orders\" WHERE EXISTS (SELECT 1 FROM \"orders\" AS \"prev\" WHERE "
        "\"prev\".\"order_id\" = \"orders\".\"order_id\") AND \"orders\".\"customer_id\" IS NOT NULL AND "
        "(\"orders\".\"amount\" > 1.0) GROUP BY \"orders\".\"customer_id\" HAVING COUNT(*) > 1) t");
  CHECK(jy::cardinality_sql(jy::from<orders> | jy::join_left<customers>(o_cust == c_cust)).empty());
}
