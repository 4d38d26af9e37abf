#pragma once
/// @file
/// Internals of `to_sql` and `cardinality_sql`: a plan's row steps as SQL
/// clauses. `from<T>` and each inner/left join become the FROM clause (SQL's
/// joins associate to the left, as a plan's steps do); each `where` and each
/// semi/anti join (`EXISTS` / `NOT EXISTS`, correlated) a conjunct of WHERE.
/// Hoisting a `where` past later joins keeps its meaning: it reads only
/// tables bound before it, and a later join keeps or drops all the rows of
/// one left row together (a left join keeps it at least once).
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/check/plan_validate.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/plan/env.hpp>
#include <joinery/plan/join.hpp>
#include <joinery/plan/plan.hpp>
#include <joinery/plan/result.hpp>
#include <joinery/plan/scope.hpp>
#include <joinery/plan/where.hpp>
#include <joinery/schema/table.hpp>
#include <joinery/sql/dialect.hpp>
#include <joinery/sql/render.hpp>
#include <joinery/sql/unsupported_call.hpp>

namespace joinery::detail::sql {

/// The name of the column every source table is expected to carry: the row's
/// position in the relation joinery reads (0, 1, 2, ...). ORDER BY over it
/// reproduces joinery's deterministic order (DESIGN.md §3).
inline constexpr std::string_view pos_column = "_pos";

/// `"base" AS "alias"`, or `"base"` when the table is not an alias.
template <class T>
void table_sql(std::string& out) {
  using base = base_table_t<T>;
  quote_ident(out, base::name.view());
  if (base::name.view() != T::name.view()) {
    out += " AS ";
    quote_ident(out, T::name.view());
  }
}

/// The type environment of step `I`'s expressions: the tables bound before
/// it, plus a join's own table.
template <class P, std::size_t I, class S = std::tuple_element_t<I, decltype(std::declval<P>().steps)>>
struct step_env {
  using type = typed_env<scope_bindings_t<P, I>>;
};
template <class P, std::size_t I, join_op K, class T, class C, class E>
struct step_env<P, I, join_step<K, T, C, E>> {
  using type = typed_env<concat_t<scope_bindings_t<P, I>, type_list<table_binding<T, false>>>>;
};
template <class P, std::size_t I>
using step_env_t = typename step_env<P, I>::type;

/// An expression of step `I` as SQL.
template <class P, std::size_t I, class E>
void expr_sql(std::string& out, const E& e, dialect d, bool top = false) {
  expr_writer<step_env_t<P, I>>{out, d}(e, top);
}

/// A list of WHERE conjuncts: each kept both bare (when alone) and parenthesised.
struct conditions {
  std::vector<std::string> bare;
  std::vector<std::string> wrapped;

  template <class P, std::size_t I, class E>
  void add_expr(const E& e, dialect d) {
    std::string top, inner;
    expr_sql<P, I>(top, e, d, true);
    expr_sql<P, I>(inner, e, d, false);
    bare.push_back(std::move(top));
    wrapped.push_back(std::move(inner));
  }
  void add_text(std::string s) {
    bare.push_back(s);
    wrapped.push_back(std::move(s));
  }
  [[nodiscard]] bool empty() const noexcept { return bare.empty(); }
  /// The conjuncts ANDed (parenthesised unless alone).
  [[nodiscard]] std::string joined() const {
    if (bare.size() == 1) return bare.front();
    std::string out;
    for (const auto& w : wrapped) out += (out.empty() ? "" : " AND ") + w;
    return out;
  }
};

/// Appends step `I` of `p` to the FROM clause or the WHERE conjuncts.
template <class P, std::size_t I>
void row_step_sql(const P& p, std::string& from, conditions& where, dialect d) {
  const auto& step = std::get<I>(p.steps);
  using S = std::remove_cvref_t<decltype(step)>;
  if constexpr (requires { S::kind; typename S::table; }) {
    using T = typename S::table;
    if constexpr (S::kind == join_op::inner || S::kind == join_op::left) {
      from += S::kind == join_op::inner ? "\nJOIN " : "\nLEFT JOIN ";
      table_sql<T>(from);
      from += " ON ";
      expr_sql<P, I>(from, step.on, d, true);
    } else {
      std::string ex = S::kind == join_op::semi ? "EXISTS (SELECT 1 FROM " : "NOT EXISTS (SELECT 1 FROM ";
      table_sql<T>(ex);
      ex += " WHERE ";
      expr_sql<P, I>(ex, step.on, d, true);
      ex += ')';
      where.add_text(std::move(ex));
    }
  } else if constexpr (requires { step.cond; }) {
    where.template add_expr<P, I>(step.cond, d);
  }
  // select, group_by and aggregate are written by the caller
}

/// `FROM ... [JOIN ...]` and the WHERE conjuncts of steps `[0, Upto)`.
template <class P, std::size_t Upto>
std::string from_sql(const P& p, conditions& where, dialect d) {
  std::string from = "FROM ";
  table_sql<typename P::from_table>(from);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (row_step_sql<P, I>(p, from, where, d), ...);
  }(std::make_index_sequence<Upto>{});
  return from;
}

/// `"t0"."_pos", "t1"."_pos", ...` over the bindings (row order of DESIGN.md §3).
template <class Bindings>
struct order_keys;
template <class... B>
struct order_keys<type_list<B...>> {
  static std::string sql() {
    std::string out;
    ((out += out.empty() ? "" : ", ", column_sql(out, B::table::name.view(), pos_column)), ...);
    return out;
  }
};

/// True when plan `P` passes the rules of `validate(p)` (else that rule's
/// error, as `run` reports it). The SQL rule is checked separately, as
/// `sql_calls_ok<P>`.
template <class P, class Tables = plan_tables_t<P>>
struct plan_rules;
template <class P, class... Ts>
struct plan_rules<P, type_list<Ts...>> {
  static constexpr bool check() { return check_plan<P, Ts...>(); }
};

}  // namespace joinery::detail::sql
