#pragma once
/// @file
/// `plan | step`: appends a step. Structural mistakes (a step after `select`,
/// `aggregate` without `group_by`, a table joined twice) stop here with a
/// message that says what to write instead.
#include <tuple>
#include <type_traits>

#include <joinery/expr/analysis.hpp>
#include <joinery/plan/group_by.hpp>
#include <joinery/plan/plan.hpp>
#include <joinery/plan/scope.hpp>

namespace joinery {

namespace detail {
template <class... S>
struct last_step {
  using type = void;
};
template <class S0, class... S>
struct last_step<S0, S...> {
  using type = nth_type<sizeof...(S), S0, S...>;
};
template <class S>
struct is_group_by : std::false_type {};
template <class... K>
struct is_group_by<group_by_step<K...>> : std::true_type {};
template <class S>
struct is_aggregate : std::false_type {};
template <class... I>
struct is_aggregate<aggregate_step<I...>> : std::true_type {};
}  // namespace detail

/// Appends `step` to plan `p`.
template <fixed_string N, class F, class... S, plan_step Step>
[[nodiscard]] constexpr plan<N, F, S..., Step> operator|(const plan<N, F, S...>& p, const Step& step) {
  using last = typename detail::last_step<S...>::type;
  if constexpr (!std::is_void_v<last>) {
    static_assert(!detail::is_terminal_step<last>,
                  "joinery: select(...) and aggregate(...) end a plan; put where/join steps before them");
    static_assert(!detail::is_group_by<last>::value || detail::is_aggregate<Step>::value,
                  "joinery: group_by(...) must be followed by aggregate(...)");
  }
  static_assert(!detail::is_aggregate<Step>::value || detail::is_group_by<last>::value,
                "joinery: aggregate(...) follows group_by(...); write group_by(keys...) | aggregate(...)");
  if constexpr (!std::is_void_v<typename detail::step_traits<Step>::table>) {
    static_assert(!list_contains_v<typename detail::step_traits<Step>::table, plan_tables_t<plan<N, F, S...>>>,
                  "joinery: this table is already in the plan; join it again under another name with "
                  "jy::alias<T, \"name\">");
  }
  return {std::tuple_cat(p.steps, std::tuple<Step>(step))};
}

}  // namespace joinery
