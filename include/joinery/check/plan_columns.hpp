#pragma once
/// @file
/// Rule `unknown_column` in plans: every column a step reads must be a
/// column of a table bound at that step (the tables before it, and a join's
/// own table). A reference to a table that is not bound there is reported
/// under the same rule, with a note saying so.
#include <cstddef>
#include <type_traits>
#include <utility>

#include <joinery/core/rule.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/check/plan_steps.hpp>
#include <joinery/expr/analysis.hpp>
#include <joinery/schema/table.hpp>

namespace joinery {

/// Instantiated when a plan step reads `Table`'s column `Column` (a `spelled<"name">`) but `Table`
/// is not bound at that step.
template <class Table, class Column>
struct column_of_unbound_table {
  static_assert(detail::always_false<Table>::value,
                "joinery[unknown_column]: the plan reads a column of a table that is not bound at this step "
                "(see column_of_unbound_table<Table, Column> in the note below); bind the table first with "
                "from<T> or join_inner/join_left<T>, or read it inside that join's condition");
};

namespace detail {

template <class Ref, class Scope>
inline constexpr bool column_ok = list_contains_v<typename Ref::table, Scope> && Ref::resolved;

template <class Scope, class Refs>
struct bad_columns;
template <class Scope, class... Refs>
struct bad_columns<Scope, type_list<Refs...>> {
  using type = concat_t<std::conditional_t<column_ok<Refs, Scope>, type_list<>, type_list<Refs>>...>;
};

template <class P, std::size_t I, class Exprs = typename step_info<plan_step_t<P, I>>::exprs>
struct step_bad_columns;
template <class P, std::size_t I, class... E>
struct step_bad_columns<P, I, type_list<E...>> {
  using type = concat_t<typename bad_columns<step_scope_t<P, I>, expr_columns_t<E>>::type...>;
};

template <class P, class Seq = std::make_index_sequence<P::step_count>>
struct plan_bad_columns;
template <class P, std::size_t... I>
struct plan_bad_columns<P, std::index_sequence<I...>> {
  using type = concat_t<typename step_bad_columns<P, I>::type...>;
};

template <class P, std::size_t I, class Exprs = typename step_info<plan_step_t<P, I>>::exprs>
struct step_columns_check;
template <class P, std::size_t I, class... E>
struct step_columns_check<P, I, type_list<E...>> {
  static constexpr void run(findings& out) {
    std::size_t e = 0;
    ((bad_columns<step_scope_t<P, I>, expr_columns_t<E>>::type::size != 0
          ? out.add(rule::unknown_column, step_expr_path<P, I>(e++))
          : void(++e)),
     ...);
  }
};

}  // namespace detail

/// `unknown_column` findings of a plan (one per offending expression).
template <relational_plan P>
[[nodiscard]] constexpr findings validate_plan_columns(const P&) {
  findings out;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (detail::step_columns_check<P, I>::run(out), ...);
  }(std::make_index_sequence<P::step_count>{});
  return out;
}

namespace detail {
/// `true`, or the `joinery[unknown_column]` error naming the first bad column.
template <class P>
constexpr bool check_plan_columns() {
  using bad = typename plan_bad_columns<P>::type;
  if constexpr (bad::size == 0) {
    return true;
  } else {
    using ref = typename column_at<bad, 0>::type;
    if constexpr (!has_column<typename ref::table, ref::name>) {
      (void)unknown_column_in<typename ref::table, spelled<ref::name>>{};
    } else {
      (void)column_of_unbound_table<typename ref::table, spelled<ref::name>>{};
    }
    return false;
  }
}
}  // namespace detail

}  // namespace joinery
