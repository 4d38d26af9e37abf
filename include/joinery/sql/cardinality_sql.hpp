#pragma once
/// @file
/// `cardinality_sql(plan)`: for each join annotated with `expect::many_to_one`
/// or `expect::one_to_one`, the duplicate-key-group count of reference/002,
///
///     SELECT COUNT(*) FROM (SELECT 1 FROM <t> WHERE <k> IS NOT NULL [AND ...]
///                           GROUP BY <keys> HAVING COUNT(*) > 1) t
///
/// over the same rows the join sees: the joined table with its right-only
/// conjuncts applied (e.g. `customers.active = 1`), and, for one_to_one, the
/// plan's rows before the join with its left-only conjuncts applied. A row
/// with a NULL key component is excluded (an equi-join never matches NULL).
/// Zero passes; the number is what `jy::cardinality_error` reports.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/plan/join.hpp>
#include <joinery/plan/join_keys.hpp>
#include <joinery/plan/plan.hpp>
#include <joinery/plan/scope.hpp>
#include <joinery/sql/dialect.hpp>
#include <joinery/sql/plan_text.hpp>
#include <joinery/sql/render.hpp>

namespace joinery {

/// One duplicate-key-group count query of `cardinality_sql`.
struct cardinality_query {
  std::size_t join = 0;              ///< ordinal of the join among the plan's joins (`/join/<k>`)
  std::string_view table;            ///< the joined table's name (an alias's name for an alias)
  std::string_view side;             ///< "right" (the joined table) or "left" (the rows before the join)
  std::string_view expectation;      ///< "many_to_one" or "one_to_one"
  std::string sql;                   ///< the query: one row, one column, the number of duplicate key groups
};

namespace detail::sql {

/// The key-side expressions and filters of annotated join step `I`, as SQL.
template <class P, std::size_t I>
struct join_check_text {
  using S = std::tuple_element_t<I, decltype(std::declval<P>().steps)>;
  using T = typename S::table;
  using conj_t = conjuncts_t<typename S::condition>;
  static constexpr auto roles = join_roles<conj_t, scope_tables_t<P, I>, T>::roles;

  /// Key expressions and filters of one side (`Left`: the rows before the join).
  template <bool Left>
  static void collect(const P& p, std::vector<std::string>& keys, conditions& filters, dialect d) {
    const auto conj = conjuncts(std::get<I>(p.steps).on);
    [&]<std::size_t... c>(std::index_sequence<c...>) {
      auto one = [&]<std::size_t k>(std::integral_constant<std::size_t, k>) {
        const auto& e = std::get<k>(conj);
        constexpr conjunct_role r = roles[k];
        if constexpr (r == conjunct_role::key_left_right || r == conjunct_role::key_right_left) {
          std::string key;
          // the left key is the lhs of a left_right pair, the rhs of a right_left one
          if constexpr ((r == conjunct_role::key_left_right) == Left) expr_sql<P, I>(key, e.lhs, d);
          else expr_sql<P, I>(key, e.rhs, d);
          keys.push_back(std::move(key));
        } else if constexpr (r == (Left ? conjunct_role::left_only : conjunct_role::right_only)) {
          filters.template add_expr<P, I>(e, d);
        }
      };
      (one(std::integral_constant<std::size_t, c>{}), ...);
    }(std::make_index_sequence<std::tuple_size_v<conj_t>>{});
  }

  /// The count query of one side.
  template <bool Left>
  static std::string query(const P& p, dialect d) {
    std::vector<std::string> keys;
    conditions where;
    std::string from;
    if constexpr (Left) {
      from = from_sql<P, I>(p, where, d);
    } else {
      from = "FROM ";
      table_sql<T>(from);
    }
    conditions own;
    collect<Left>(p, keys, own, d);
    for (const auto& k : keys) where.add_text(k + " IS NOT NULL");
    for (std::size_t i = 0; i < own.bare.size(); ++i) {
      where.bare.push_back(own.bare[i]);
      where.wrapped.push_back(own.wrapped[i]);
    }
    std::string out = "SELECT COUNT(*) FROM (SELECT 1 " + from;
    if (!where.empty()) out += " WHERE " + where.joined();
    out += " GROUP BY ";
    for (std::size_t i = 0; i < keys.size(); ++i) out += (i == 0 ? "" : ", ") + keys[i];
    out += " HAVING COUNT(*) > 1) t";
    return out;
  }
};

template <class P, std::size_t I>
void cardinality_step(const P& p, std::vector<cardinality_query>& out, std::size_t& join_ordinal, dialect d) {
  using S = std::tuple_element_t<I, decltype(std::declval<P>().steps)>;
  if constexpr (requires { S::kind; typename S::expect_type; }) {
    const std::size_t k = join_ordinal++;
    if constexpr (S::expect_type::annotated) {
      using text = join_check_text<P, I>;
      std::string_view table = S::table::name.view();
      std::string_view expectation = S::expect_type::name;
      std::string right = text::template query<false>(p, d);
      out.push_back(cardinality_query{k, table, "right", expectation, std::move(right)});
      if constexpr (S::expect_type::check_left) {
        std::string left = text::template query<true>(p, d);
        out.push_back(cardinality_query{k, table, "left", expectation, std::move(left)});
      }
    }
  }
}

}  // namespace detail::sql

/// The duplicate-key-group count queries of plan `p`'s annotated joins, in
/// step order: for each, the right side's query, then (one_to_one) the left
/// side's. Each returns one number; zero means the expectation holds on that
/// side. Unannotated joins have none. The plan must print (`to_sql` rules).
/// Example: `jy::cardinality_sql(enriched)[0].sql` is
/// `SELECT COUNT(*) FROM (SELECT 1 FROM "customers" WHERE "customers"."customer_id" IS NOT NULL
///  GROUP BY "customers"."customer_id" HAVING COUNT(*) > 1) t` (on one line).
template <relational_plan P>
[[nodiscard]] std::vector<cardinality_query> cardinality_sql(const P& p, dialect d = dialect::duckdb) {
  std::vector<cardinality_query> out;
  if constexpr (!detail::sql::plan_rules<P>::check()) {
    // the rule's error above is the one to read
  } else if constexpr (!detail::sql_calls_ok<P>) {
    detail::report_unmapped_call<P>();
  } else {
    std::size_t joins = 0;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (detail::sql::cardinality_step<P, I>(p, out, joins, d), ...);
    }(std::make_index_sequence<P::step_count>{});
  }
  return out;
}

}  // namespace joinery
