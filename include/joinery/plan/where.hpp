#pragma once
/// @file
/// `where(cond)`: keeps the rows for which `cond` is true (not false, not NULL).
#include <joinery/expr/expression.hpp>
#include <joinery/plan/plan.hpp>

namespace joinery {

/// A filter step.
template <expression Cond>
struct where_step : detail::plan_step_tag {
  using condition = Cond;
  Cond cond;
};

/// `where(cond)`: see `where_step`.
template <expression C>
[[nodiscard]] constexpr where_step<C> where(const C& cond) {
  return {{}, cond};
}

}  // namespace joinery
