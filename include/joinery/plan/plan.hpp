#pragma once
/// @file
/// `plan<Name, From, Steps...>`: a relational plan as a constexpr value. A
/// plan starts at `from<T>` and grows by `|` with join, where, select and
/// group_by/aggregate steps; `model<"name">(p)` names it (the result table's
/// name). Steps are plain aggregates of expressions, so a plan's whole shape
/// is in its type: that is what `check/` reads.
#include <tuple>
#include <type_traits>

#include <joinery/core/fixed_string.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/schema/table.hpp>

namespace joinery {

namespace detail {
/// Base of every plan step (join, where, select, group_by, aggregate).
struct plan_step_tag {};
/// Steps after which nothing may follow (select, aggregate).
struct terminal_step_tag {};
}  // namespace detail

/// A step of a plan (what `plan | step` accepts).
template <class S>
concept plan_step = std::is_base_of_v<detail::plan_step_tag, std::remove_cvref_t<S>>;

/// A relational plan: rows of `From`, transformed by `Steps` in order.
template <fixed_string Name, table_type From, class... Steps>
struct plan {
  static constexpr auto name = Name;
  using from_table = From;
  using step_list = type_list<Steps...>;
  static constexpr std::size_t step_count = sizeof...(Steps);
  std::tuple<Steps...> steps;
};

namespace detail {
template <class P>
struct is_plan : std::false_type {};
template <fixed_string N, class F, class... S>
struct is_plan<plan<N, F, S...>> : std::true_type {};
}  // namespace detail

/// A relational plan value.
template <class P>
concept relational_plan = detail::is_plan<std::remove_cvref_t<P>>::value;

/// `from<T>`: every row of table (or alias) `T`; the start of every plan.
template <table_type T>
inline constexpr plan<"result", T> from{};

/// `model<"name">(p)`: the same plan under a name (the result table's name and
/// the `<model>` of cardinality messages).
template <fixed_string Name, fixed_string N, class F, class... S>
[[nodiscard]] constexpr plan<Name, F, S...> model(const plan<N, F, S...>& p) {
  return {p.steps};
}

namespace detail {
template <class S>
inline constexpr bool is_terminal_step = std::is_base_of_v<terminal_step_tag, S>;
template <class S>
struct step_traits {  // specialised by join steps
  static constexpr bool binds_table = false;
  static constexpr bool nullable = false;
  using table = void;
};
}  // namespace detail

}  // namespace joinery
