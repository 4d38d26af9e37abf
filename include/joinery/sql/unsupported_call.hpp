#pragma once
/// @file
/// Rule `sql_unsupported_call`: `to_sql` prints `call(f, args...)` only when
/// `f` is one of the library's SQL-mapped functions (`jy::upper`, `jy::lower`:
/// expr/sql_functions.hpp); a user function has no SQL meaning. Decided from
/// the plan's type alone, reported by `validate_sql(plan)` as findings and by
/// `to_sql` / `cardinality_sql` as a `joinery[sql_unsupported_call]` error.
/// (A plan with a user function is still a valid plan: `run` accepts it.)
#include <cstddef>
#include <type_traits>
#include <utility>

#include <joinery/check/plan_steps.hpp>
#include <joinery/core/rule.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/expr/analysis.hpp>
#include <joinery/expr/call.hpp>
#include <joinery/expr/expression.hpp>
#include <joinery/expr/sql_functions.hpp>
#include <joinery/plan/plan.hpp>

namespace joinery {

/// Instantiated when a plan printed as SQL calls the user function `F` (the
/// function object's type: a lambda prints with its file and line).
template <class F>
struct sql_unsupported_call_of {
  static_assert(detail::always_false<F>::value,
                "joinery[sql_unsupported_call]: to_sql cannot print a call to a user function (its type is "
                "the template argument of sql_unsupported_call_of<F> in the note below); use a SQL-mapped "
                "function such as jy::upper or jy::lower, or compute the value upstream and join it in as a "
                "column");
};

namespace detail {

/// The function types of `E`'s calls that have no SQL name, left to right.
template <class E>
struct unmapped_calls {
  using type = type_list<>;  // column references, literals
};
template <class Op, class L, class R>
struct unmapped_calls<binary<Op, L, R>> {
  using type = concat_t<typename unmapped_calls<L>::type, typename unmapped_calls<R>::type>;
};
template <class Op, class E>
struct unmapped_calls<unary<Op, E>> {
  using type = typename unmapped_calls<E>::type;
};
template <class F, class... Args>
struct unmapped_calls<call_expr<F, Args...>> {
  using type = concat_t<std::conditional_t<sql_mapped_function<F>, type_list<>, type_list<F>>,
                        typename unmapped_calls<Args>::type...>;
};

template <class Exprs>
struct exprs_unmapped_calls;
template <class... E>
struct exprs_unmapped_calls<type_list<E...>> {
  using type = concat_t<typename unmapped_calls<E>::type...>;
};

template <class P, std::size_t I>
using step_unmapped_calls_t = typename exprs_unmapped_calls<typename step_info<plan_step_t<P, I>>::exprs>::type;

template <class P, class Seq = std::make_index_sequence<P::step_count>>
struct plan_unmapped_calls;
template <class P, std::size_t... I>
struct plan_unmapped_calls<P, std::index_sequence<I...>> {
  using type = concat_t<step_unmapped_calls_t<P, I>...>;
};

template <class P, std::size_t I, class Exprs = typename step_info<plan_step_t<P, I>>::exprs>
struct step_sql_check;
template <class P, std::size_t I, class... E>
struct step_sql_check<P, I, type_list<E...>> {
  static constexpr void run(findings& out) {
    std::size_t e = 0;
    ((unmapped_calls<E>::type::size != 0 ? out.add(rule::sql_unsupported_call, step_expr_path<P, I>(e++))
                                         : void(++e)),
     ...);
  }
};

/// True when every call in plan `P` is SQL-mapped (a pure type computation, so
/// an `if constexpr` on it never cascades).
template <class P>
inline constexpr bool sql_calls_ok = plan_unmapped_calls<P>::type::size == 0;

/// The `joinery[sql_unsupported_call]` error naming the first user function of `P`.
template <class P>
void report_unmapped_call() {
  (void)sql_unsupported_call_of<typename column_at<typename plan_unmapped_calls<P>::type, 0>::type>{};
}

}  // namespace detail

/// The findings that stop plan `p` from being printed as SQL: one
/// `sql_unsupported_call` per step expression that calls a user function,
/// with the expression's path (`/join/0/on`, `/where/1`, `/select/2`,
/// `/group_by/0`, `/aggregate/1`). Empty when `to_sql(p, d)` compiles (given
/// `validate(p)` is empty too).
/// Example: `static_assert(jy::validate_sql(p).empty());`
template <relational_plan P>
[[nodiscard]] constexpr findings validate_sql(const P&) {
  findings out;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (detail::step_sql_check<P, I>::run(out), ...);
  }(std::make_index_sequence<P::step_count>{});
  return out;
}

}  // namespace joinery
