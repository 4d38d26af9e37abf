#pragma once
/// @file
/// The arrangement: the one index every front door joins and groups through.
///
/// Building it scans one side in input order, gives each distinct canonical
/// key a group id in order of FIRST APPEARANCE, and lays the row positions of
/// every group out contiguously (CSR) in input order. A probe is one hash
/// lookup that returns the group's positions, so an equi-join is
/// O(|build| + |probe| + |matches|) and its matches come out in a
/// deterministic order that never depends on hash iteration.
///
/// The table is flat open addressing with the key stored in the slot (one
/// gather per probe), power-of-two capacity, linear probing; no per-key heap
/// objects.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <joinery/core/key.hpp>

namespace joinery::exec {

using row_pos = std::uint32_t;
using group_id = std::uint32_t;
inline constexpr group_id no_group = std::numeric_limits<group_id>::max();

/// Work counters: complexity is tested by counting work, not by timing.
struct work_counters {
  std::uint64_t inserts = 0;      // build rows hashed
  std::uint64_t probes = 0;       // lookups
  std::uint64_t comparisons = 0;  // key comparisons during inserts and lookups
  std::uint64_t emitted = 0;      // match positions handed out
};

namespace detail {
inline std::size_t next_pow2(std::size_t n) noexcept {
  std::size_t c = 16;
  while (c < n) c <<= 1;
  return c;
}
}  // namespace detail

/// Index of one side: canonical key -> that side's row positions in input order.
/// `Key` is a canonical key (see core/key.hpp): an integer, a string, or a tuple.
template <class Key, class Hash = key_hash<Key>>
class arrangement {
 public:
  arrangement() = default;

  /// Builds over rows [0, n). `key_at(i)` returns `std::optional<Key>`; an empty
  /// optional (a NULL key component) leaves row i out of every group.
  template <class KeyAt>
  void build(std::size_t n, KeyAt&& key_at) {
    clear();
    row_group_.assign(n, no_group);
    init_table(n < 1024 ? n : 1024);
    for (std::size_t i = 0; i < n; ++i) {
      std::optional<Key> k = key_at(i);
      if (!k) continue;
      const group_id g = insert(std::move(*k));
      row_group_[i] = g;
      ++sizes_[g];
    }
    // CSR: offsets by prefix sum, then a stable fill keeps input order per group.
    offsets_.assign(keys_.size() + 1, 0);
    for (std::size_t g = 0; g < keys_.size(); ++g) offsets_[g + 1] = offsets_[g] + sizes_[g];
    positions_.resize(offsets_.back());
    std::vector<row_pos> cursor(offsets_.begin(), offsets_.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
      if (row_group_[i] != no_group) positions_[cursor[row_group_[i]]++] = static_cast<row_pos>(i);
  }

  /// The group of `k`, or `no_group`.
  [[nodiscard]] group_id find(const Key& k) const {
    ++counters_.probes;
    if (keys_.empty()) return no_group;
    std::size_t s = slot_of(hash_(k));
    for (;;) {
      const slot& sl = slots_[s];
      if (sl.group == no_group) return no_group;
      ++counters_.comparisons;
      if (sl.key == k) return sl.group;
      s = (s + 1) & mask_;
    }
  }

  /// Build-side row positions of group `g`, in input order.
  [[nodiscard]] std::span<const row_pos> rows(group_id g) const noexcept {
    if (g == no_group) return {};
    return {positions_.data() + offsets_[g], offsets_[g + 1] - offsets_[g]};
  }
  /// Build-side row positions matching `k`, in input order (empty if none).
  [[nodiscard]] std::span<const row_pos> matches(const Key& k) const {
    auto r = rows(find(k));
    counters_.emitted += r.size();
    return r;
  }

  [[nodiscard]] std::size_t group_count() const noexcept { return keys_.size(); }
  [[nodiscard]] std::size_t group_size(group_id g) const noexcept { return sizes_[g]; }
  [[nodiscard]] const Key& group_key(group_id g) const noexcept { return keys_[g]; }
  /// Group of build row i (`no_group` for a row with a NULL key component).
  [[nodiscard]] group_id group_of_row(std::size_t i) const noexcept { return row_group_[i]; }
  /// Rows that entered a group (rows without a NULL key component).
  [[nodiscard]] std::size_t keyed_rows() const noexcept { return positions_.size(); }
  [[nodiscard]] std::size_t built_rows() const noexcept { return row_group_.size(); }
  /// True when no key occurs twice: every probe returns at most one row.
  [[nodiscard]] bool unique() const noexcept { return keys_.size() == positions_.size(); }
  /// Number of groups with more than one row (the cardinality check's count).
  [[nodiscard]] std::size_t duplicate_group_count() const noexcept {
    std::size_t d = 0;
    for (auto s : sizes_) d += s > 1;
    return d;
  }

  [[nodiscard]] const work_counters& counters() const noexcept { return counters_; }
  void reset_counters() const noexcept { counters_ = {}; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return slots_.capacity() * sizeof(slot) + keys_.capacity() * sizeof(Key) +
           (sizes_.capacity() + offsets_.capacity() + positions_.capacity() + row_group_.capacity()) *
               sizeof(row_pos);
  }

  void clear() {
    slots_.clear();
    keys_.clear();
    sizes_.clear();
    offsets_.clear();
    positions_.clear();
    row_group_.clear();
    mask_ = 0;
    shift_ = 64;
  }

 private:
  struct slot {
    Key key{};
    group_id group = no_group;
  };

  [[nodiscard]] std::size_t slot_of(std::uint64_t h) const noexcept {
    return static_cast<std::size_t>(h >> shift_) & mask_;
  }

  void init_table(std::size_t expected) {
    const std::size_t cap = detail::next_pow2(expected * 2);
    slots_.assign(cap, slot{});
    mask_ = cap - 1;
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(cap));
  }

  void grow() {
    std::vector<slot> old = std::move(slots_);
    init_table(old.size());  // doubles: capacity = next_pow2(2 * old)
    for (auto& sl : old) {
      if (sl.group == no_group) continue;
      std::size_t s = slot_of(hash_(sl.key));
      while (slots_[s].group != no_group) s = (s + 1) & mask_;
      slots_[s] = std::move(sl);
    }
  }

  group_id insert(Key&& k) {
    ++counters_.inserts;
    std::size_t s = slot_of(hash_(k));
    for (;;) {
      slot& sl = slots_[s];
      if (sl.group == no_group) break;
      ++counters_.comparisons;
      if (sl.key == k) return sl.group;
      s = (s + 1) & mask_;
    }
    const auto g = static_cast<group_id>(keys_.size());
    slots_[s].key = k;
    slots_[s].group = g;
    keys_.push_back(std::move(k));
    sizes_.push_back(0);
    if (keys_.size() * 2 > slots_.size()) grow();  // load factor <= 1/2
    return g;
  }

  std::vector<slot> slots_;
  std::vector<Key> keys_;           // by group id (first appearance)
  std::vector<row_pos> sizes_;      // rows per group
  std::vector<row_pos> offsets_;    // CSR offsets, size groups+1
  std::vector<row_pos> positions_;  // row positions grouped, input order within a group
  std::vector<group_id> row_group_; // group of each build row
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  [[no_unique_address]] Hash hash_{};
  mutable work_counters counters_{};
};

}  // namespace joinery::exec
