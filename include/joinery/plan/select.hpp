#pragma once
/// @file
/// `select(as<"name">(expr)...)`: the result's columns, in order. A plan
/// without a select returns every column of every bound table.
#include <tuple>

#include <joinery/expr/as.hpp>
#include <joinery/expr/expression.hpp>
#include <joinery/plan/plan.hpp>

namespace joinery {

/// A named projected expression.
template <class T>
concept select_item = named_item<T> && expression<typename std::remove_cvref_t<T>::value_type>;

/// The projection step (terminal: nothing follows it).
template <class... Items>
struct select_step : detail::plan_step_tag, detail::terminal_step_tag {
  std::tuple<Items...> items;
};

/// `select(as<"a">(e1), as<"b">(e2), ...)`.
template <select_item... Items>
  requires(sizeof...(Items) > 0)
[[nodiscard]] constexpr select_step<Items...> select(const Items&... items) {
  return {{}, {}, std::tuple<Items...>(items...)};
}

}  // namespace joinery
