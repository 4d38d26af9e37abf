#pragma once
/// @file
/// Grouping on the arrangement: group ids in order of first appearance, one
/// hash insert per row, O(n). Callers give NULL its own key component
/// (`std::optional`) when NULL keys form a group, as a plan's group_by does.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <joinery/core/key.hpp>
#include <joinery/exec/arrangement.hpp>
#include <joinery/exec/threads.hpp>

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

/// The number of distinct keys among rows [0, n) that occur more than once
/// (the cardinality check's count; `key_at` as for `group_rows`), on up to
/// `t.count` threads. Part p takes the keys whose hash is p modulo the part
/// count: every part scans all keys, keeps its own, and groups them, so the
/// parts' groups are disjoint and their counts add up (order plays no part
/// in a count). The hash's low bits pick the part; the table uses its high
/// bits, so each part's table stays evenly filled.
template <class Key, class KeyAt>
[[nodiscard]] std::size_t duplicate_group_count(threads t, std::size_t n, KeyAt&& key_at) {
  const std::size_t parts = detail::part_count(t, n);
  if (parts <= 1) return group_rows<Key>(n, key_at).duplicate_group_count();
  std::vector<std::size_t> counts(parts, 0);
  auto part = [&](std::size_t p, std::size_t, std::size_t) {
    std::vector<std::uint32_t> mine;
    mine.reserve(n / parts + n / (4 * parts) + 16);
    const key_hash<Key> hash{};
    for (std::size_t i = 0; i < n; ++i) {
      const std::optional<Key> k = key_at(i);
      if (k && hash(*k) % parts == p) mine.push_back(static_cast<std::uint32_t>(i));
    }
    arrangement<Key> arr;
    arr.build_groups(mine.size(), [&](std::size_t j) { return key_at(mine[j]); });
    counts[p] = arr.duplicate_group_count();
  };
  detail::run_parts(parts, parts, part);
  std::size_t total = 0;
  for (const std::size_t c : counts) total += c;
  return total;
}

}  // namespace joinery::exec
