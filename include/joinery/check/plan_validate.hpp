#pragma once
/// @file
/// `validate(plan)`: every plan rule's findings, in step order of the rules
/// (unknown_column, then the cardinality shape rules E079);
/// `validate(plan, sources<T...>{})` adds `missing_source`.
#include <joinery/check/plan_columns.hpp>
#include <joinery/check/plan_expect.hpp>
#include <joinery/check/plan_sources.hpp>
#include <joinery/core/rule.hpp>
#include <joinery/plan/plan.hpp>

namespace joinery {

/// The findings of plan `p` (empty when every entry point accepts it).
/// Example: `static_assert(jy::validate(enriched).empty());`
template <relational_plan P>
[[nodiscard]] constexpr findings validate(const P& p) {
  findings out = validate_plan_columns(p);
  out.append(validate_plan_expect(p));
  return out;
}

/// As `validate(p)`, plus `missing_source` for running it with relations of `Tables...`.
template <relational_plan P, class... Tables>
[[nodiscard]] constexpr findings validate(const P& p, sources<Tables...> s) {
  findings out = validate(p);
  out.append(validate_plan_sources(p, s));
  return out;
}

namespace detail {
/// What every plan entry point asserts: `true`, or the first rule's
/// `joinery[<rule>]` error (the cascade stops at the caller's `if constexpr`).
template <class P, class... Tables>
constexpr bool check_plan() {
  if constexpr (!check_plan_columns<P>()) {
    return false;
  } else if constexpr (!check_plan_expect<P>()) {
    return false;
  } else {
    return check_plan_sources<P, Tables...>();
  }
}
}  // namespace detail

}  // namespace joinery
