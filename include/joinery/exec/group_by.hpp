#pragma once
/// @file
/// Grouping on the arrangement: group ids in order of first appearance, one
/// hash insert per row, O(n). Callers give NULL its own key component
/// (`std::optional`) when NULL keys form a group, as a plan's group_by does.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <joinery/exec/arrangement.hpp>

namespace joinery::exec {

/// Groups rows [0, n) by `key_at(i)` (a `std::optional<Key>`; empty leaves the
/// row ungrouped). Read groups with `group_count()`, `group_of_row(i)`,
/// `group_size(g)` (a grouping-only build: no row lists).
template <class Key, class KeyAt>
[[nodiscard]] arrangement<Key> group_rows(std::size_t n, KeyAt&& key_at) {
  arrangement<Key> arr;
  arr.build_groups(n, key_at);
  return arr;
}

/// The first row of every group (the row that founded it), in group order.
template <class Key, class Hash>
[[nodiscard]] std::vector<std::uint32_t> group_leaders(const arrangement<Key, Hash>& arr) {
  std::vector<std::uint32_t> out(arr.group_count(), static_cast<std::uint32_t>(-1));
  std::size_t found = 0;
  for (std::size_t r = 0; r < arr.built_rows() && found < out.size(); ++r) {
    const group_id g = arr.group_of_row(r);
    if (g != no_group && out[g] == static_cast<std::uint32_t>(-1)) {
      out[g] = static_cast<std::uint32_t>(r);
      ++found;
    }
  }
  return out;
}

}  // namespace joinery::exec
