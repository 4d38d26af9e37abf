#pragma once
/// @file
/// `call(f, args...)`: a user function applied to expressions. The function
/// receives each argument's value as read (a nullable column as
/// `std::optional`); its result is the expression's value.
#include <tuple>

#include <joinery/expr/expression.hpp>

namespace joinery {

/// `f(args...)` as an expression node.
template <class F, class... Args>
struct call_expr : detail::expr_tag {
  F fn;
  std::tuple<Args...> args;
};

/// `call(f, args...)`: `f` applied to the values of `args` (expressions or literals).
/// Example: `jy::call(upper, jy::col<users, "email">) == jy::col<accounts, "email">`.
template <class F, class... Args>
[[nodiscard]] constexpr call_expr<F, expr_of_t<Args>...> call(F f, const Args&... args) {
  return {{}, f, std::tuple<expr_of_t<Args>...>(as_expr(args)...)};
}

}  // namespace joinery
