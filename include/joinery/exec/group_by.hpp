#pragma once
/// @file
/// Grouping on the arrangement: group ids in order of first appearance, one
/// hash insert per row, O(n). Callers give NULL its own key component
/// (`std::optional`) when NULL keys form a group, as a plan's group_by does.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
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
  std::vector<std::uint32_t> out(arr.group_count());
  arr.for_each_group([&](group_id g, const Key&, row_pos leader) { out[g] = leader; });
  return out;
}

namespace detail {
/// The part of a hash among `parts`: its low 32 bits scaled to [0, parts)
/// (a multiply, not a division; the tables use the hash's high bits).
inline std::size_t part_of(std::uint64_t h, std::size_t parts) noexcept {
  return static_cast<std::size_t>(((h & 0xffffffffU) * parts) >> 32);
}
}  // namespace detail

namespace detail {
/// Rows [0, n) split into `parts` parts by key hash (NULL keys in none):
/// each thread splits a contiguous share s of the rows, so that
/// `lists[s * parts + p]` holds `pick(i, key)` of part p's rows among them,
/// in row order. Each list has room for the whole share (only the pages
/// written are touched), so the loop is one store through a cursor per row.
template <class T, class Key, class KeyAt, class Pick>
std::vector<std::vector<T, default_init_allocator<T>>> split_by_part(std::size_t parts, std::size_t n, KeyAt& key_at,
                                                                     Pick pick) {
  std::vector<std::vector<T, default_init_allocator<T>>> lists(parts * parts);
  auto split = [&](std::size_t s, std::size_t b, std::size_t e) {
    const key_hash<Key> hash{};
    std::vector<T*> cursor(parts);
    for (std::size_t p = 0; p < parts; ++p) {
      lists[s * parts + p].resize(e - b);
      cursor[p] = lists[s * parts + p].data();
    }
    for (std::size_t i = b; i < e; ++i) {
      const std::optional<Key> k = key_at(i);
      if (k) *cursor[part_of(hash(*k), parts)]++ = pick(i, *k);
    }
    for (std::size_t p = 0; p < parts; ++p)
      lists[s * parts + p].resize(static_cast<std::size_t>(cursor[p] - lists[s * parts + p].data()));
  };
  run_parts(parts, n, split);
  return lists;
}

/// Rows [0, n) sorted into `parts` parts by key hash (NULL keys in none),
/// each part's rows increasing: `split_by_part`, then part p concatenates
/// the shares' lists in share order.
template <class Key, class KeyAt>
std::vector<huge_page_vector<std::uint32_t>> split_rows_by_part(std::size_t parts, std::size_t n, KeyAt& key_at) {
  auto row_of = [](std::size_t i, const Key&) { return static_cast<std::uint32_t>(i); };
  auto lists = split_by_part<std::uint32_t, Key>(parts, n, key_at, row_of);
  std::vector<huge_page_vector<std::uint32_t>> rows(parts);
  auto concatenate = [&](std::size_t p, std::size_t, std::size_t) {
    std::size_t total = 0;
    for (std::size_t s = 0; s < parts; ++s) total += lists[s * parts + p].size();
    rows[p].reserve(total);
    for (std::size_t s = 0; s < parts; ++s) {  // shares in order: rows stay increasing
      auto& l = lists[s * parts + p];
      rows[p].insert(rows[p].end(), l.begin(), l.end());
      position_column().swap(l);
    }
  };
  run_parts(parts, parts, concatenate);
  return rows;
}

/// Global group ids of the parts' groups, merged by founding row (first
/// appearance over all rows): `global[p][l]` is part p's local group l;
/// `leaders` gets the founding rows in global order. `firsts[p]` holds part
/// p's founding rows in its local group order (increasing).
inline void merge_groups_by_first_row(const std::vector<std::vector<std::uint32_t>>& firsts,
                                      std::vector<std::vector<group_id>>& global, std::vector<std::uint32_t>& leaders) {
  const std::size_t parts = firsts.size();
  std::size_t groups = 0;
  global.resize(parts);
  for (std::size_t p = 0; p < parts; ++p) {
    global[p].resize(firsts[p].size());
    groups += firsts[p].size();
  }
  leaders.reserve(groups);
  std::vector<std::size_t> at(parts, 0);
  for (std::size_t g = 0; g < groups; ++g) {
    std::size_t best = parts;
    for (std::size_t p = 0; p < parts; ++p)
      if (at[p] < firsts[p].size() && (best == parts || firsts[p][at[p]] < firsts[best][at[best]])) best = p;
    global[best][at[best]] = static_cast<group_id>(g);
    leaders.push_back(firsts[best][at[best]++]);
  }
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
  out.rows_ = detail::split_rows_by_part<Key>(parts, n, key_at);
  out.parts_.resize(parts);
  auto group_part = [&](std::size_t p, std::size_t, std::size_t) {
    const auto& mine = out.rows_[p];
    out.parts_[p].build_groups(mine.size(), [&](std::size_t j) { return key_at(mine[j]); });
  };
  detail::run_parts(parts, parts, group_part);
  std::vector<std::vector<std::uint32_t>> firsts(parts);
  for (std::size_t p = 0; p < parts; ++p)
    for (const std::uint32_t j : group_leaders(out.parts_[p])) firsts[p].push_back(out.rows_[p][j]);
  detail::merge_groups_by_first_row(firsts, out.global_, out.leaders_);
  return out;
}

/// A grouped fold's result: per group, in group order (first appearance),
/// the accumulator, the founding row and the number of rows.
template <class Acc>
struct folded_groups {
  std::vector<Acc> accumulators;
  std::vector<std::uint32_t> leaders;
  std::vector<std::uint32_t> sizes;
  [[nodiscard]] std::size_t group_count() const noexcept { return accumulators.size(); }
};

namespace detail {
/// `fold_groups` with the in-table limit `table_limit_bytes` (see
/// `arrangement::fold_groups`).
template <class Key, class Acc, class KeyAt, class Fold>
[[nodiscard]] folded_groups<Acc> fold_groups_within(std::size_t table_limit_bytes, std::size_t n, KeyAt&& key_at,
                                                    const Acc& init, Fold&& fold) {
  arrangement<Key> arr;
  folded_groups<Acc> out;
  out.accumulators = arr.fold_groups(n, key_at, init, fold, table_limit_bytes);
  out.leaders = group_leaders(arr);
  out.sizes.resize(arr.group_count());
  for (std::size_t g = 0; g < out.sizes.size(); ++g)
    out.sizes[g] = static_cast<std::uint32_t>(arr.group_size(static_cast<group_id>(g)));
  return out;
}
}  // namespace detail

/// Groups rows [0, n) by `key_at(i)` (as `group_rows`) and folds each keyed
/// row into its group's accumulator: `fold(acc, i)`, each group's rows in
/// row order, each accumulator starting as a copy of `init`. One pass over
/// the rows while the table stays in cache, or within
/// `arrangement::fold_in_table_limit_bytes(n)` (`arrangement::fold_groups`).
/// `fold` must not throw.
///
/// Example: count and sum per key,
/// `exec::fold_groups<std::int64_t>(n, key_at, cs{}, [&](cs& a, std::size_t i) { ++a.count; a.sum += v[i]; })`.
template <class Key, class Acc, class KeyAt, class Fold>
[[nodiscard]] folded_groups<Acc> fold_groups(std::size_t n, KeyAt&& key_at, const Acc& init, Fold&& fold) {
  return detail::fold_groups_within<Key>(arrangement<Key>::fold_in_table_limit_bytes(n), n, key_at, init, fold);
}

/// The same on up to `t.count` threads: the rows are split by key hash (as
/// `group_rows(threads, ...)`), each part folds its own groups on its own
/// thread, and every group still sees its rows in row order, so the
/// accumulators equal one thread's bit for bit. `key_at` and `fold` are
/// called from several threads at once (never two on one accumulator).
template <class Key, class Acc, class KeyAt, class Fold>
[[nodiscard]] folded_groups<Acc> fold_groups(threads t, std::size_t n, KeyAt&& key_at, const Acc& init,
                                             Fold&& fold) {
  const std::size_t parts = detail::part_count(t, n);
  if (parts <= 1) return fold_groups<Key>(n, key_at, init, fold);
  const auto rows = detail::split_rows_by_part<Key>(parts, n, key_at);
  std::vector<folded_groups<Acc>> local(parts);
  auto fold_part = [&](std::size_t p, std::size_t, std::size_t) {
    const auto& mine = rows[p];
    local[p] = detail::fold_groups_within<Key>(
        arrangement<Key>::fold_in_table_limit_bytes(mine.size(), arrangement<Key>::fold_in_table_shared_max_bytes),
        mine.size(),
        [&](std::size_t j) { return key_at(mine[j]); }, init, [&](Acc& a, std::size_t j) { fold(a, mine[j]); });
    for (auto& l : local[p].leaders) l = mine[l];  // the part's rows -> rows
  };
  detail::run_parts(parts, parts, fold_part);
  std::vector<std::vector<std::uint32_t>> firsts(parts);
  for (std::size_t p = 0; p < parts; ++p) firsts[p] = std::move(local[p].leaders);
  std::vector<std::vector<group_id>> global;
  folded_groups<Acc> out;
  detail::merge_groups_by_first_row(firsts, global, out.leaders);
  out.accumulators.resize(out.leaders.size(), init);
  out.sizes.resize(out.leaders.size());
  for (std::size_t p = 0; p < parts; ++p) {
    for (std::size_t l = 0; l < global[p].size(); ++l) {
      out.accumulators[global[p][l]] = std::move(local[p].accumulators[l]);
      out.sizes[global[p][l]] = local[p].sizes[l];
    }
  }
  return out;
}

/// The same with a `combine(into, from)` that merges two accumulators of
/// one group, `into` holding its earlier rows and `from` its later ones
/// (e.g. adds counts and integer sums). With few groups each thread then
/// folds a contiguous range of rows into its own table and the tables are
/// merged in range order (no split of the rows: each row is read once);
/// with many groups the rows are split by key hash as above and `combine`
/// is not called.
template <class Key, class Acc, class KeyAt, class Fold, class Combine>
[[nodiscard]] folded_groups<Acc> fold_groups(threads t, std::size_t n, KeyAt&& key_at, const Acc& init,
                                             Fold&& fold, Combine&& combine) {
  const std::size_t parts = detail::part_count(t, n);
  if (parts <= 1) return fold_groups<Key>(n, key_at, init, fold);
  {
    arrangement<Key> sample;
    sample.build_groups(std::min(n, arrangement<Key>::sample_rows), key_at);
    if (!arrangement<Key>::template folds_in_table<Acc>(sample.estimated_group_count(n),
                                                        arrangement<Key>::fold_in_table_shared_max_bytes))
      return fold_groups<Key>(t, n, key_at, init, fold);
  }
  std::vector<arrangement<Key>> arr(parts);
  std::vector<std::vector<Acc>> acc(parts);
  std::vector<std::vector<Key>> keys(parts);  // per part, by local group (none kept for part 0)
  std::vector<std::vector<std::uint32_t>> leaders(parts), sizes(parts);
  auto fold_range = [&](std::size_t p, std::size_t b, std::size_t e) {
    acc[p] = arr[p].fold_groups(
        e - b, [&](std::size_t j) { return key_at(b + j); }, init, [&](Acc& a, std::size_t j) { fold(a, b + j); },
        arrangement<Key>::fold_in_table_shared_max_bytes);
    // What the merge reads of the part, copied out on the part's thread.
    const std::size_t count = arr[p].group_count();
    if (p > 0) keys[p].resize(count);
    leaders[p].resize(count);
    sizes[p].resize(count);
    arr[p].for_each_group_in_slot_order([&](group_id l, const Key& k, row_pos leader) {
      if (p > 0) keys[p][l] = k;
      leaders[p][l] = static_cast<std::uint32_t>(b + leader);
      sizes[p][l] = static_cast<std::uint32_t>(arr[p].group_size(l));
    });
  };
  detail::run_parts(parts, n, fold_range);
  // Part 0's groups are the first groups, in its order. Each later
  // part's keys are looked up in the parts before it, in part order: a key
  // found there is an earlier group, which takes the part's rows by
  // `combine`; a key found in none is a new group, founded in this part.
  // The parts' groups are in order of first appearance within each part,
  // so the groups stay in order of first appearance over the rows.
  folded_groups<Acc> out;
  out.accumulators = std::move(acc[0]);
  out.leaders = std::move(leaders[0]);
  out.sizes = std::move(sizes[0]);
  std::vector<std::vector<group_id>> global(parts);  // part p's groups -> groups (p >= 1)
  for (std::size_t p = 1; p < parts; ++p) {
    const std::size_t count = keys[p].size();
    auto& mine = global[p];
    mine.assign(count, no_group);
    for (std::size_t q = 0; q < p; ++q)
      arr[q].find_each(
          count, [&](std::size_t l) -> const Key& { return keys[p][l]; },
          [&](std::size_t l, group_id g) {
            if (mine[l] == no_group && g != no_group) mine[l] = q == 0 ? g : global[q][g];
          });
    // Earlier groups sit at random places: read a stretch ahead.
    constexpr std::size_t ahead = 16;
    for (std::size_t l = 0; l < count; ++l) {
      if (l + ahead < count && mine[l + ahead] != no_group) {
        detail::prefetch_read(out.accumulators.data() + mine[l + ahead]);
        detail::prefetch_read(out.sizes.data() + mine[l + ahead]);
      }
      if (mine[l] == no_group) {  // founded in this part
        mine[l] = static_cast<group_id>(out.accumulators.size());
        out.accumulators.push_back(std::move(acc[p][l]));
        out.leaders.push_back(leaders[p][l]);
        out.sizes.push_back(sizes[p][l]);
      } else {
        combine(out.accumulators[mine[l]], std::move(acc[p][l]));
        out.sizes[mine[l]] += sizes[p][l];
      }
    }
  }
  return out;
}

/// The number of distinct keys among rows [0, n) that occur more than once
/// (the cardinality check's count; `key_at` as for `group_rows`), on up to
/// `t.count` threads: each groups the keys of its share of the hash values,
/// so the parts' groups are disjoint and their counts add up.
template <class Key, class KeyAt>
[[nodiscard]] std::size_t duplicate_group_count(threads t, std::size_t n, KeyAt&& key_at) {
  const std::size_t parts = detail::part_count(t, n);
  if (parts <= 1) return group_rows<Key>(n, key_at).duplicate_group_count();
  std::vector<std::size_t> count(parts, 0);
  if constexpr (std::is_trivially_copyable_v<Key> && std::is_trivially_default_constructible_v<Key>) {
    // The keys split by part first, each thread a contiguous share of the
    // rows, then each part grouped from its own keys: every row is read
    // once, and no part's build meets a row of another part (one it would
    // take for NULL, by a branch as likely taken as not). 10^6 distinct keys
    // on 2 threads, the 48 MiB-L3 Xeon, 2026-12-07: 36.9-37.6 ms with each
    // part reading every row, 17.2-17.8 so; one thread 26.9-32.4. Copying
    // each part's lists into one array first took 16.2-16.8 ms, with every
    // key held twice at the peak.
    auto key_of = [](std::size_t, const Key& k) { return k; };
    const auto lists = detail::split_by_part<Key, Key>(parts, n, key_at, key_of);
    auto count_part = [&](std::size_t p, std::size_t, std::size_t) {
      // Key j of the part is in the first of its lists (one per share)
      // that ends beyond j: read in place, not copied into one array.
      std::vector<std::size_t> begin(parts + 1, 0);
      for (std::size_t s = 0; s < parts; ++s) begin[s + 1] = begin[s] + lists[s * parts + p].size();
      arrangement<Key> part;
      part.build_groups(begin[parts], [&](std::size_t j) {
        std::size_t s = 0;
        while (j >= begin[s + 1]) ++s;
        return std::optional<Key>(lists[s * parts + p][j - begin[s]]);
      });
      count[p] = part.duplicate_group_count();
    };
    detail::run_parts(parts, parts, count_part);
  } else {
    // Part p reads every row and groups the keys whose hash falls in its
    // share (the others count as NULL): no copy of the keys.
    auto count_part = [&](std::size_t p, std::size_t, std::size_t) {
      const key_hash<Key> hash{};
      arrangement<Key> part;
      part.build_groups(n, [&](std::size_t i) {
        std::optional<Key> k = key_at(i);
        if (k && detail::part_of(hash(*k), parts) != p) k.reset();
        return k;
      });
      count[p] = part.duplicate_group_count();
    };
    detail::run_parts(parts, parts, count_part);
  }
  std::size_t total = 0;
  for (const std::size_t c : count) total += c;
  return total;
}

}  // namespace joinery::exec
