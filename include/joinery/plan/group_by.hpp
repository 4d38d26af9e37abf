#pragma once
/// @file
/// `group_by(keys...) | aggregate(as<"n">(count()), as<"s">(sum(e)), min, max)`.
/// Groups come out in order of first appearance; NULL keys form one group;
/// `count` is `std::int64_t`; `sum` of integers is 64-bit; sum/min/max of a
/// non-nullable expression are non-nullable (every group has a row), of a
/// nullable one skip NULLs and are NULL when a group has none.
#include <tuple>
#include <type_traits>

#include <joinery/core/type_list.hpp>
#include <joinery/expr/as.hpp>
#include <joinery/expr/column_ref.hpp>
#include <joinery/expr/count.hpp>
#include <joinery/expr/expression.hpp>
#include <joinery/plan/plan.hpp>

namespace joinery {

/// Aggregate-function tags of `aggregate_fn`.
namespace agg_kind {
struct sum {};
struct min {};
struct max {};
}  // namespace agg

/// `sum(e)`, `min(e)`, `max(e)` over a group's rows.
template <class Kind, expression E>
struct aggregate_fn {
  using kind = Kind;
  using arg_type = E;
  E arg;
};

/// Sum of `e` over each group (the plan's `sum`; the aggregate IR's `sum`
/// takes factors, not plan expressions).
template <expression E>
[[nodiscard]] constexpr aggregate_fn<agg_kind::sum, E> sum(const E& e) {
  return {e};
}
/// Least value of `e` in each group.
template <expression E>
[[nodiscard]] constexpr aggregate_fn<agg_kind::min, E> min(const E& e) {
  return {e};
}
/// Greatest value of `e` in each group.
template <expression E>
[[nodiscard]] constexpr aggregate_fn<agg_kind::max, E> max(const E& e) {
  return {e};
}

namespace detail {
template <class T>
struct is_aggregate_fn : std::is_same<T, count_t> {};
template <class K, class E>
struct is_aggregate_fn<aggregate_fn<K, E>> : std::true_type {};

template <class K>
constexpr auto named_key(const K& k) {
  if constexpr (named_item<K>) {
    static_assert(expression<typename K::value_type>, "joinery: a group key is an expression");
    return k;
  } else if constexpr (is_column_ref_v<K>) {
    return named<K::name, K>{k};  // a plain column keeps its name
  } else {
    static_assert(always_false<K>::value,
                  "joinery: name a computed group key: group_by(jy::as<\"name\">(expr))");
    return 0;
  }
}
}  // namespace detail

/// An `as<"n">(count())`, `as<"n">(sum(e))`, `min`, `max` item.
template <class T>
concept aggregate_item =
    named_item<T> && detail::is_aggregate_fn<typename std::remove_cvref_t<T>::value_type>::value;

/// The grouping step; `aggregate(...)` must follow it.
template <class... Keys>
struct group_by_step : detail::plan_step_tag {
  std::tuple<Keys...> keys;
};

/// `group_by(k...)`: each key a column reference (named after the column) or
/// `as<"name">(expr)`.
template <class... Keys>
  requires(sizeof...(Keys) > 0)
[[nodiscard]] constexpr auto group_by(const Keys&... keys) {
  using step = group_by_step<decltype(detail::named_key(keys))...>;
  return step{{}, {detail::named_key(keys)...}};
}

/// The aggregation step (terminal); follows `group_by`.
template <class... Items>
struct aggregate_step : detail::plan_step_tag, detail::terminal_step_tag {
  std::tuple<Items...> items;
};

/// `aggregate(as<"n">(count()), as<"s">(sum(e)), ...)`: one output column per item,
/// after the group keys.
template <aggregate_item... Items>
  requires(sizeof...(Items) > 0)
[[nodiscard]] constexpr aggregate_step<Items...> aggregate(const Items&... items) {
  return {{}, {}, std::tuple<Items...>(items...)};
}

}  // namespace joinery
