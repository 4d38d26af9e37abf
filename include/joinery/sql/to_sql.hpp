#pragma once
/// @file
/// `to_sql(plan, dialect)`: one SQL statement with the plan's meaning, rows
/// and order included, for SQLite or DuckDB (docs/sql.md).
///
/// Convention: every source table carries a column `_pos`, the row's position
/// in the relation joinery would read (0, 1, 2, ...). The statement ends with
/// `ORDER BY` over the bound tables' `_pos` in binding order, which is
/// exactly joinery's order (DESIGN.md §3: probe rows in input order, matches
/// in build input order, a left join's unmatched row in place, with a NULL
/// `_pos` that is alone among its prefix). A grouped plan numbers its input
/// rows in that order (`ROW_NUMBER()`) and orders groups by their first row.
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <joinery/expr/count.hpp>
#include <joinery/plan/env.hpp>
#include <joinery/plan/group_by.hpp>
#include <joinery/plan/plan.hpp>
#include <joinery/plan/result.hpp>
#include <joinery/plan/scope.hpp>
#include <joinery/sql/dialect.hpp>
#include <joinery/sql/plan_text.hpp>
#include <joinery/sql/render.hpp>

namespace joinery {

namespace detail::sql {

/// The statement of a plan ending in a projection (a select, or none).
template <class P>
std::string projection_sql(const P& p, dialect d) {
  using shape = final_shape<P>;
  using env = typed_env<plan_bindings_t<P>>;
  constexpr std::size_t rows_end = shape::selected ? P::step_count - 1 : P::step_count;
  conditions where;
  const std::string from = from_sql<P, rows_end>(p, where, d);

  std::string out = "SELECT ";
  auto item = [&](std::size_t k, const auto& it) {
    if (k != 0) out += ", ";
    expr_writer<env>{out, d}(it.value);
    out += " AS ";
    quote_ident(out, std::remove_cvref_t<decltype(it)>::name.view());
  };
  if constexpr (shape::selected) {
    std::apply([&](const auto&... it) {
      std::size_t k = 0;
      (item(k++, it), ...);
    }, std::get<P::step_count - 1>(p.steps).items);
  } else {
    [&]<class... It>(type_list<It...>) {
      std::size_t k = 0;
      (item(k++, It{}), ...);
    }(typename shape::items{});
  }
  out += '\n';
  out += from;
  if (!where.empty()) out += "\nWHERE " + where.joined();
  out += "\nORDER BY " + order_keys<plan_bindings_t<P>>::sql();
  return out;
}

template <class X>
struct aggregate_sql_name;
template <>
struct aggregate_sql_name<agg_kind::sum> {
  static constexpr std::string_view value = "SUM";
};
template <>
struct aggregate_sql_name<agg_kind::min> {
  static constexpr std::string_view value = "MIN";
};
template <>
struct aggregate_sql_name<agg_kind::max> {
  static constexpr std::string_view value = "MAX";
};

/// The statement of a `group_by | aggregate` plan: the rows numbered in
/// joinery's order in a subquery, grouped, groups ordered by first row.
template <class P>
std::string grouped_sql(const P& p, dialect d) {
  using env = typed_env<plan_bindings_t<P>>;
  const auto& keys = std::get<P::step_count - 2>(p.steps).keys;
  const auto& items = std::get<P::step_count - 1>(p.steps).items;
  conditions where;
  const std::string from = from_sql<P, P::step_count - 2>(p, where, d);

  std::string inner = "SELECT ";  // one row per input row: keys, aggregate arguments, row number
  std::string outer = "SELECT ";  // one row per group
  std::string group = "GROUP BY ";
  std::size_t k = 0;
  auto key = [&](const auto& item) {
    const std::string alias = "\"_k" + std::to_string(k) + '"';
    expr_writer<env>{inner, d}(item.value);
    inner += " AS " + alias + ", ";
    outer += alias + " AS ";
    quote_ident(outer, std::remove_cvref_t<decltype(item)>::name.view());
    outer += ", ";
    group += (k++ == 0 ? "" : ", ") + alias;
  };
  std::size_t a = 0;
  auto aggregate = [&](const auto& item) {
    using X = typename std::remove_cvref_t<decltype(item)>::value_type;
    if (a++ != 0) outer += ", ";
    if constexpr (std::is_same_v<X, count_t>) {
      outer += "COUNT(*)";
    } else {
      const std::string alias = "\"_a" + std::to_string(a - 1) + '"';
      expr_writer<env>{inner, d}(item.value.arg);
      inner += " AS " + alias + ", ";
      outer += aggregate_sql_name<typename X::kind>::value;
      outer += '(' + alias + ')';
    }
    outer += " AS ";
    quote_ident(outer, std::remove_cvref_t<decltype(item)>::name.view());
  };
  std::apply([&](const auto&... it) { (key(it), ...); }, keys);
  std::apply([&](const auto&... it) { (aggregate(it), ...); }, items);
  inner += "ROW_NUMBER() OVER (ORDER BY " + order_keys<plan_bindings_t<P>>::sql() + ") AS \"_rn\"\n" + from;
  if (!where.empty()) inner += "\nWHERE " + where.joined();
  return outer + "\nFROM (" + inner + ") AS \"_rows\"\n" + group + "\nORDER BY MIN(\"_rn\")";
}

}  // namespace detail::sql

/// One SQL statement with the meaning of plan `p` in dialect `d`: the same
/// rows (NULLs included) in the same order, column names as in
/// `result_table_t<P>`. Sources are read by their table names (an alias as
/// `"base" AS "alias"`), each with a `_pos` column holding the row's position
/// (see the file comment and docs/sql.md). A `call` of a user function is
/// `joinery[sql_unsupported_call]`; `jy::upper` / `jy::lower` print as SQL.
/// Example:
/// `jy::to_sql(jy::from<orders> | jy::where(jy::col<orders, "amount"> > 2.0), jy::dialect::sqlite)` is
/// `SELECT "orders"."order_id" AS "order_id", ... FROM "orders" WHERE "orders"."amount" > 2.0 ORDER BY "orders"."_pos"`
/// (one clause per line).
template <relational_plan P>
[[nodiscard]] std::string to_sql(const P& p, dialect d) {
  if constexpr (!detail::sql::plan_rules<P>::check()) {
    return std::string();  // the rule's error above is the one to read
  } else if constexpr (!detail::sql_calls_ok<P>) {
    detail::report_unmapped_call<P>();
    return std::string();
  } else if constexpr (detail::final_shape<P>::grouped) {
    return detail::sql::grouped_sql(p, d);
  } else {
    return detail::sql::projection_sql(p, d);
  }
}

}  // namespace joinery
