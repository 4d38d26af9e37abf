#pragma once
/// @file
/// Grouping on the arrangement: group ids in order of first appearance, one
/// hash insert per row, O(n). Callers give NULL its own key component
/// (`std::optional`) when NULL keys form a group, as a plan's group_by does.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <joinery/core/key.hpp>
#include <joinery/exec/arrangement.hpp>
#include <joinery/exec/match_set.hpp>
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

namespace detail {
/// The part of a hash among `parts`: its low 32 bits scaled to [0, parts)
/// (a multiply, not a division; the tables use the hash's high bits).
inline std::size_t part_of(std::uint64_t h, std::size_t parts) noexcept {
  return static_cast<std::size_t>(((h & 0xffffffffU) * parts) >> 32);
}
}  // namespace detail

/// Rows grouped on several threads (`group_rows(threads, n, key_at)`).
///
/// Part p takes the rows whose key hash falls in its share of the hash
/// values and groups them on its own thread, so the parts' groups are disjoint. The
/// global group ids are still in order of first appearance over all rows:
/// the parts' founding rows are merged in row order. A caller aggregates
/// part by part (each part's rows, in row order, with their local groups)
/// and writes each local group's result at its global id; no two parts
/// touch the same group.
template <class Key>
class partitioned_groups {
 public:
  [[nodiscard]] std::size_t part_count() const noexcept { return parts_.size(); }
  [[nodiscard]] std::size_t group_count() const noexcept { return leaders_.size(); }
  /// The row that founded every group, in group order (first appearance).
  [[nodiscard]] std::span<const std::uint32_t> leaders() const noexcept { return leaders_; }
  /// The rows of part `p`, increasing (rows with a NULL key are in no part).
  [[nodiscard]] std::span<const std::uint32_t> rows(std::size_t p) const noexcept { return rows_[p]; }
  /// Part `p`'s grouping of its rows: `group_of_row(j)` is the local group of `rows(p)[j]`.
  [[nodiscard]] const arrangement<Key>& part(std::size_t p) const noexcept { return parts_[p]; }
  /// Part `p`'s local group -> global group id.
  [[nodiscard]] std::span<const group_id> global_ids(std::size_t p) const noexcept { return global_[p]; }
  /// Distinct keys that occur more than once (the cardinality check's count).
  [[nodiscard]] std::size_t duplicate_group_count() const noexcept {
    std::size_t total = 0;
    for (const auto& a : parts_) total += a.duplicate_group_count();
    return total;
  }

 private:
  template <class K, class KeyAt>
  friend partitioned_groups<K> group_rows(threads t, std::size_t n, KeyAt&& key_at);

  std::vector<arrangement<Key>> parts_;
  std::vector<detail::huge_page_vector<std::uint32_t>> rows_;
  std::vector<std::vector<group_id>> global_;
  std::vector<std::uint32_t> leaders_;
};

/// Groups rows [0, n) by `key_at(i)` (as `group_rows(n, key_at)`) on up to
/// `t.count` threads; `key_at` is called from several threads at once.
/// Each thread first sorts a contiguous share of the rows into parts by key
/// hash (the hash's low bits: the tables use the high ones, so each part's
/// table stays evenly filled), then groups one part.
template <class Key, class KeyAt>
[[nodiscard]] partitioned_groups<Key> group_rows(threads t, std::size_t n, KeyAt&& key_at) {
  const std::size_t parts = detail::part_count(t, n);
  partitioned_groups<Key> out;
  out.parts_.resize(parts);
  out.rows_.resize(parts);
  out.global_.resize(parts);
  // Share s of the rows, split by part: lists[s * parts + p], each in row
  // order. Each list has room for the whole share (only the pages written
  // are touched), so the loop is one store through a cursor per row.
  std::vector<position_column> lists(parts * parts);
  auto split = [&](std::size_t s, std::size_t b, std::size_t e) {
    const key_hash<Key> hash{};
    std::vector<std::uint32_t*> cursor(parts);
    for (std::size_t p = 0; p < parts; ++p) {
      lists[s * parts + p].resize(e - b);
      cursor[p] = lists[s * parts + p].data();
    }
    for (std::size_t i = b; i < e; ++i) {
      const std::optional<Key> k = key_at(i);
      if (k) *cursor[detail::part_of(hash(*k), parts)]++ = static_cast<std::uint32_t>(i);
    }
    for (std::size_t p = 0; p < parts; ++p)
      lists[s * parts + p].resize(static_cast<std::size_t>(cursor[p] - lists[s * parts + p].data()));
  };
  detail::run_parts(parts, n, split);
  auto group_part = [&](std::size_t p, std::size_t, std::size_t) {
    std::size_t total = 0;
    for (std::size_t s = 0; s < parts; ++s) total += lists[s * parts + p].size();
    auto& mine = out.rows_[p];
    mine.reserve(total);
    for (std::size_t s = 0; s < parts; ++s) {  // shares in order: rows stay increasing
      auto& l = lists[s * parts + p];
      mine.insert(mine.end(), l.begin(), l.end());
      position_column().swap(l);
    }
    out.parts_[p].build_groups(mine.size(), [&](std::size_t j) { return key_at(mine[j]); });
  };
  detail::run_parts(parts, parts, group_part);
  // Global ids: the parts' groups merged by founding row.
  std::vector<std::vector<std::uint32_t>> firsts(parts);
  std::size_t groups = 0;
  for (std::size_t p = 0; p < parts; ++p) {
    for (const std::uint32_t j : group_leaders(out.parts_[p])) firsts[p].push_back(out.rows_[p][j]);
    out.global_[p].resize(firsts[p].size());
    groups += firsts[p].size();
  }
  out.leaders_.reserve(groups);
  std::vector<std::size_t> at(parts, 0);
  for (std::size_t g = 0; g < groups; ++g) {
    std::size_t best = parts;
    for (std::size_t p = 0; p < parts; ++p)
      if (at[p] < firsts[p].size() && (best == parts || firsts[p][at[p]] < firsts[best][at[best]])) best = p;
    out.global_[best][at[best]] = static_cast<group_id>(g);
    out.leaders_.push_back(firsts[best][at[best]++]);
  }
  return out;
}

/// The number of distinct keys among rows [0, n) that occur more than once
/// (the cardinality check's count; `key_at` as for `group_rows`), on up to
/// `t.count` threads (see `group_rows(threads, ...)`: the parts' groups are
/// disjoint, so their counts add up).
template <class Key, class KeyAt>
[[nodiscard]] std::size_t duplicate_group_count(threads t, std::size_t n, KeyAt&& key_at) {
  if (detail::part_count(t, n) <= 1) return group_rows<Key>(n, key_at).duplicate_group_count();
  return group_rows<Key>(t, n, key_at).duplicate_group_count();
}

}  // namespace joinery::exec
