#pragma once
// Hand-written baselines the kernel is measured against in the same binary:
// a simple flat open-addressing hash join (key + row in the slot, linear
// probing, load <= 1/2) with and without batched software prefetch, a flat
// group-by of the same kind, and the memory-limit probes (sequential read,
// random gather).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <joinery/core/key.hpp>

namespace joinery::bench {

/// The flat table: power-of-two slots of {key, row}; row == -1 marks empty.
struct flat_table {
  struct slot {
    std::int64_t key;
    std::int64_t row;
  };
  std::vector<slot> slots;
  std::uint64_t mask = 0;
  unsigned shift = 64;

  explicit flat_table(const std::vector<std::int64_t>& keys) {
    std::size_t cap = 16;
    while (cap < 2 * keys.size()) cap <<= 1;
    slots.assign(cap, slot{0, -1});
    mask = cap - 1;
    shift = 64 - static_cast<unsigned>(__builtin_ctzll(cap));
    for (std::size_t r = 0; r < keys.size(); ++r) {
      std::uint64_t s = home(keys[r]);
      while (slots[s].row >= 0 && slots[s].key != keys[r]) s = (s + 1) & mask;
      if (slots[s].row < 0) slots[s] = {keys[r], static_cast<std::int64_t>(r)};  // first row wins (unique keys)
    }
  }
  [[nodiscard]] std::uint64_t home(std::int64_t k) const noexcept {
    return (joinery::detail::mix64(static_cast<std::uint64_t>(k)) >> shift) & mask;
  }
  [[nodiscard]] std::int64_t find_from(std::uint64_t s, std::int64_t k) const noexcept {
    for (;;) {
      const slot& sl = slots[s];
      if (sl.row < 0) return -1;
      if (sl.key == k) return sl.row;
      s = (s + 1) & mask;
    }
  }
};

struct count_sum {
  std::int64_t count = 0;
  std::int64_t sum = 0;
};

/// Inner many-to-one join, count + sum of the build payload: one lookup per probe row.
inline count_sum flat_join(const std::vector<std::int64_t>& build_keys, const std::vector<std::int64_t>& build_val,
                           const std::vector<std::int64_t>& probe_keys) {
  flat_table t(build_keys);
  count_sum r;
  for (std::int64_t k : probe_keys) {
    const std::int64_t row = t.find_from(t.home(k), k);
    if (row >= 0) {
      ++r.count;
      r.sum += build_val[static_cast<std::size_t>(row)];
    }
  }
  return r;
}

/// The same with batched prefetch: hash a batch of 32 keys, prefetch their
/// slots, then resolve the batch.
inline count_sum flat_join_prefetch(const std::vector<std::int64_t>& build_keys,
                                    const std::vector<std::int64_t>& build_val,
                                    const std::vector<std::int64_t>& probe_keys) {
  flat_table t(build_keys);
  constexpr std::size_t B = 32;
  std::uint64_t home[B];
  count_sum r;
  const std::size_t n = probe_keys.size();
  for (std::size_t base = 0; base < n; base += B) {
    const std::size_t cnt = n - base < B ? n - base : B;
    for (std::size_t b = 0; b < cnt; ++b) {
      home[b] = t.home(probe_keys[base + b]);
      __builtin_prefetch(&t.slots[home[b]]);
    }
    for (std::size_t b = 0; b < cnt; ++b) {
      const std::int64_t row = t.find_from(home[b], probe_keys[base + b]);
      if (row >= 0) {
        ++r.count;
        r.sum += build_val[static_cast<std::size_t>(row)];
      }
    }
  }
  return r;
}

/// Group-by count + sum per key: a flat open-addressing table of 32-byte
/// slots {key, count, sum} (count 0: empty), linear probing, doubled while
/// more than half full; a batch of 32 keys is hashed and its slots
/// prefetched before the batch is folded. Returns the number of groups and
/// the sum over all groups.
inline count_sum flat_group_by(const std::vector<std::int64_t>& keys, const std::vector<std::int64_t>& vals) {
  struct alignas(32) slot {
    std::int64_t key = 0;
    std::int64_t count = 0;
    std::int64_t sum = 0;
  };
  std::vector<slot> t(1024);
  std::uint64_t mask = t.size() - 1;
  unsigned shift = 64 - 10;
  std::size_t groups = 0;
  auto home = [&](std::int64_t k) { return (joinery::detail::mix64(static_cast<std::uint64_t>(k)) >> shift) & mask; };
  // Key k's slot, or the empty one it would take, from slot s.
  auto walk = [&](std::uint64_t s, std::int64_t k) {
    while (t[s].count != 0 && t[s].key != k) s = (s + 1) & mask;
    return s;
  };
  constexpr std::size_t B = 32;
  std::uint64_t h[B];
  const std::size_t n = keys.size();
  for (std::size_t base = 0; base < n; base += B) {
    const std::size_t cnt = n - base < B ? n - base : B;
    for (std::size_t b = 0; b < cnt; ++b) {
      h[b] = home(keys[base + b]);
      __builtin_prefetch(&t[h[b]]);
    }
    for (std::size_t b = 0; b < cnt; ++b) {
      const std::int64_t k = keys[base + b];
      std::uint64_t s = walk(h[b], k);
      if (t[s].count == 0) {
        if (2 * (groups + 1) > t.size()) {
          // Double, then re-home this key and the rest of the batch.
          std::vector<slot> old = std::move(t);
          t.assign(old.size() * 2, slot{});
          mask = t.size() - 1;
          --shift;
          for (const slot& o : old) {
            if (o.count == 0) continue;
            t[walk(home(o.key), o.key)] = o;
          }
          for (std::size_t c = b; c < cnt; ++c) h[c] = home(keys[base + c]);
          s = walk(h[b], k);
        }
        t[s].key = k;
        ++groups;
      }
      ++t[s].count;
      t[s].sum += vals[base + b];
    }
  }
  count_sum r;
  r.count = static_cast<std::int64_t>(groups);
  for (const slot& o : t) r.sum += o.sum;
  return r;
}

/// `n` random 8-byte gathers into a table of `bytes` (independent loads, so
/// the core keeps as many misses in flight as it can).
inline std::int64_t random_gather(const std::vector<std::int64_t>& table, std::size_t n) {
  const std::uint64_t mask = table.size() - 1;  // power of two
  std::uint64_t s = 0;                          // unsigned: wraps, never overflows
  for (std::size_t i = 0; i < n; ++i) s += static_cast<std::uint64_t>(table[joinery::detail::mix64(i) & mask]);
  return static_cast<std::int64_t>(s);
}

/// Sequential read (sum) of a column.
inline std::int64_t sequential_read(const std::vector<std::int64_t>& col) {
  std::uint64_t s = 0;  // unsigned: wraps, never overflows
  for (std::int64_t v : col) s += static_cast<std::uint64_t>(v);
  return static_cast<std::int64_t>(s);
}

/// A power-of-two table of about `bytes` bytes of int64.
inline std::vector<std::int64_t> gather_table(std::size_t bytes) {
  std::size_t n = 1;
  while (n * sizeof(std::int64_t) < bytes) n <<= 1;
  std::vector<std::int64_t> t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = static_cast<std::int64_t>(i);
  return t;
}

}  // namespace joinery::bench
