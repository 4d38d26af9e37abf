#pragma once
/// @file
/// `jy::validate(node)` for aggregate nodes: the join-resolution findings of
/// DESIGN.md §2.3 / §4 as a constexpr list, each `{rule, path}` with paths
/// `/join/<clause>/on/<pair>/<0|1>` and `/join/<clause>/syms/<0|1>`. The
/// relational plans' `validate` (check/validate.hpp) is a separate overload;
/// overload resolution picks by node type.
#include <joinery/aggregate/node.hpp>
#include <joinery/check/aggregate_resolve.hpp>
#include <joinery/core/rule.hpp>

namespace joinery {

/// The findings of an aggregate node (empty when every key resolves).
/// @code
/// static_assert(jy::validate(prior_value).empty());
/// @endcode
template <class Out, class Ranges, class Joins, class Reduce>
[[nodiscard]] constexpr findings validate(const aggregate_node<Out, Ranges, Joins, Reduce>&) noexcept {
  return detail::agg::findings_of<aggregate_node<Out, Ranges, Joins, Reduce>>();
}

}  // namespace joinery
