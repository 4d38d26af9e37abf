#pragma once
/// @file
/// The keys of a unique hashed arrangement of integer keys, laid out in
/// buckets of one cache line, for semi and anti joins; built on demand.
///
/// A semi or anti join asks of each probe key only whether the build has
/// it (and, for a residual condition, at which row). The arrangement's
/// slots answer with a walk over 16-byte slots that are at most half full.
/// A bucket holds as many keys as fit a 64-byte line (eight int64 keys),
/// filled in lane order, its unfilled lanes holding a key no build row has:
/// one read answers hit or miss, and the keys take half the slots' bytes
/// or less. The rows sit apart, read only by a residual condition.
///
/// The arrangement's build makes none: the first semi or anti probe loop
/// asks for them, later loops read them (built_on_demand.hpp).
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <joinery/exec/huge_page_allocator.hpp>

namespace joinery::exec::detail {

/// Bit l set when lane l of a bucket's `keys` (`Lanes` of them, the first
/// 16-byte aligned) holds `k`. With SSE2, 8-byte integer keys are compared
/// two at a time: one compare, shuffle and mask per pair, where a compare,
/// set and shift per lane made the in-cache probe of values in buckets
/// instruction-bound.
template <std::size_t Lanes, class Key>
[[gnu::always_inline]] inline std::uint64_t lanes_holding(const Key* keys, const Key& k) noexcept {
#if defined(__SSE2__)
  if constexpr (std::is_integral_v<Key> && sizeof(Key) == 8 && Lanes % 2 == 0) {
    const __m128i probe = _mm_set1_epi64x(static_cast<long long>(k));
    std::uint64_t found = 0;
    for (std::size_t l = 0; l < Lanes; l += 2) {
      // Equal halves, then both halves of a lane equal.
      __m128i eq = _mm_cmpeq_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(keys + l)), probe);
      eq = _mm_and_si128(eq, _mm_shuffle_epi32(eq, 0xB1));
      found |= static_cast<std::uint64_t>(_mm_movemask_pd(_mm_castsi128_pd(eq))) << l;
    }
    return found;
  } else if constexpr (std::is_integral_v<Key> && sizeof(Key) == 4 && Lanes % 4 == 0) {
    const __m128i probe = _mm_set1_epi32(static_cast<int>(k));
    std::uint64_t found = 0;
    for (std::size_t l = 0; l < Lanes; l += 4) {
      const __m128i eq = _mm_cmpeq_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(keys + l)), probe);
      found |= static_cast<std::uint64_t>(_mm_movemask_ps(_mm_castsi128_ps(eq))) << l;
    }
    return found;
  } else
#endif
  {
    std::uint64_t found = 0;
    for (std::size_t l = 0; l < Lanes; ++l) found |= static_cast<std::uint64_t>(keys[l] == k) << l;
    return found;
  }
}

/// How far a key's hash shifts to its bucket among `count` (a power of
/// two): `(h >> bucket_hash_shift(count)) & (count - 1)` is the top bits of
/// its home slot, one shift where slot and bucket took two.
constexpr unsigned bucket_hash_shift(std::size_t count) noexcept {
  return count > 1 ? 64 - static_cast<unsigned>(std::countr_zero(count)) : 63;
}

/// One line of keys: `lanes` of them, filled in order, the rest holding the
/// layout's `empty_key`.
template <class Key>
struct alignas(64) key_bucket {
  static constexpr std::size_t lanes = sizeof(Key) <= 64 ? 64 / sizeof(Key) : 1;
  Key keys[lanes];
  /// True when some key walked past this bucket to a later one (its home
  /// bucket was full): a full bucket holds its first key above its last
  /// then, below it otherwise. A miss walks on only from such a bucket.
  [[nodiscard]] bool walked_past(const Key& empty) const noexcept {
    return (keys[lanes - 1] != empty) & (keys[0] > keys[lanes - 1]);
  }
};

/// A hashed table's occupied slots as (key, row), in slot order, and a
/// key no row has to mark unfilled lanes: one below the least key, else
/// one above the greatest (none when the table holds both ends of the key
/// type). Shared by the keys in buckets and the values in buckets
/// (arranged_values.hpp).
template <class Key>
struct occupied_slots {
  struct keyed_row {
    Key key;
    std::uint32_t row;
  };
  huge_page_vector<keyed_row> rows;  // the first `count` of them
  std::size_t count = 0;
  Key empty_key{};
  bool has_empty_key = false;

  /// The `groups` occupied slots of `for_every_slot(f(slot, key, row,
  /// occupied))`, gathered without a branch on each: in a table at most
  /// 7/10 full that branch is a coin toss (a 10^5-key table: 0.8 ms of
  /// mispredictions, against 0.15 ms for the pass).
  template <class ForEverySlot>
  static occupied_slots gather(std::size_t groups, ForEverySlot&& for_every_slot) {
    occupied_slots out;
    out.rows.resize(groups + 1);
    keyed_row* to = out.rows.data();  // a pointer: stores through it cannot alias it
    for_every_slot([&to](std::size_t, const Key& key, std::uint32_t row, bool filled) {
      *to = keyed_row{key, row};
      to += filled;
    });
    out.count = static_cast<std::size_t>(to - out.rows.data());
    if (out.count == 0) return out;
    Key least = out.rows[0].key, greatest = least;
    for (std::size_t e = 0; e < out.count; ++e) {
      least = std::min(least, out.rows[e].key);
      greatest = std::max(greatest, out.rows[e].key);
    }
    out.has_empty_key = true;
    if (least > std::numeric_limits<Key>::min()) out.empty_key = static_cast<Key>(least - 1);
    else if (greatest < std::numeric_limits<Key>::max()) out.empty_key = static_cast<Key>(greatest + 1);
    else out.has_empty_key = false;
    return out;
  }
};

/// The laid-out keys: a power of two of buckets. Key k is in bucket
/// `home >> shift` (its home slot in the arrangement) or in a later one,
/// the next of bucket b being (b + 1) & (size - 1), each before it full and
/// `walked_past`.
template <class Key>
struct key_buckets {
  using bucket = key_bucket<Key>;
  huge_page_vector<bucket> buckets;
  huge_page_vector<std::uint32_t> rows;  // lane l of bucket b: rows[b * lanes + l]
  Key empty_key{};
  unsigned shift = 0;
  /// The bucket of a key whose hash is h: `(h >> hash_shift) & (buckets.size()
  /// - 1)`, its home slot >> shift in one shift.
  unsigned hash_shift = 63;

  /// Lays out `groups` keys of a hashed table of `extent` slots (a power of
  /// two), given by `for_every_slot(f(slot, key, row, occupied))`;
  /// `home_slot_of(key)` is a key's home slot. At most one key per two lanes,
  /// so few spill into the next bucket. Empty when no key is free to mark an
  /// unfilled lane (the build holds both ends of the key type).
  template <class ForEverySlot, class HomeSlotOf>
  static key_buckets lay_out(std::size_t extent, std::size_t groups, ForEverySlot&& for_every_slot,
                             HomeSlotOf&& home_slot_of) {
    key_buckets out;
    if (groups == 0) return out;
    // In slot order: the buckets fill nearly in order.
    const auto occupied = occupied_slots<Key>::gather(groups, for_every_slot);
    if (!occupied.has_empty_key) return out;
    out.empty_key = occupied.empty_key;

    constexpr std::size_t lanes = bucket::lanes;
    const std::size_t wanted_lanes = std::bit_ceil(2 * groups);
    const std::size_t count = std::max<std::size_t>(1, std::min(extent, wanted_lanes) / lanes);
    out.shift = static_cast<unsigned>(std::countr_zero(extent) - std::countr_zero(count));
    out.hash_shift = bucket_hash_shift(count);
    bucket unfilled{};
    for (Key& k : unfilled.keys) k = out.empty_key;
    out.buckets.assign(count, unfilled);
    out.rows.resize(count * lanes);
    // Each bucket's filled lanes, apart: counted from its keys, the next
    // key's lane waited on the store of the last one.
    huge_page_vector<std::uint8_t> filled(count);
    huge_page_vector<std::uint8_t> passed(count);  // some key walked past it (a full one)
    const std::size_t mask = count - 1;
    for (std::size_t e = 0; e < occupied.count; ++e) {
      const auto& [key, row] = occupied.rows[e];
      std::size_t b = home_slot_of(key) >> out.shift;
      while (filled[b] == lanes) [[unlikely]] {
        passed[b] = 1;
        b = (b + 1) & mask;
      }
      const std::size_t lane = filled[b]++;
      out.buckets[b].keys[lane] = key;
      out.rows[b * lanes + lane] = row;
    }
    // A full bucket says by the order of its first and last keys whether a
    // key walked past it (`walked_past`).
    for (std::size_t b = 0; b < count; ++b) {
      Key* const k = out.buckets[b].keys;
      if (filled[b] != lanes || (k[0] > k[lanes - 1]) == (passed[b] != 0)) continue;
      std::swap(k[0], k[lanes - 1]);
      std::swap(out.rows[b * lanes], out.rows[b * lanes + lanes - 1]);
    }
    return out;
  }

  [[nodiscard]] bool empty() const noexcept { return buckets.empty(); }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return buckets.capacity() * sizeof(bucket) + rows.capacity() * sizeof(std::uint32_t);
  }
};

}  // namespace joinery::exec::detail
