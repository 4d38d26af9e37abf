#pragma once
/// @file
/// The key filter of a large hashed arrangement, built on demand.
///
/// One bit per (hash mod 8x the key count), set for every key: a probe whose
/// bit is clear has no match and need not wait for its slot. It pays only
/// where probes miss (a left, semi or anti join's unmatched rows); a join
/// whose keys all match only pays for building it. So the arrangement's
/// build makes no bits: the first probe loop that finds misses among its
/// first probes asks for them (built_on_demand.hpp), and later loops read
/// them.
#include <cstddef>
#include <cstdint>

#include <joinery/exec/built_on_demand.hpp>
#include <joinery/exec/huge_page_allocator.hpp>

namespace joinery::exec::detail {

class key_filter {
 public:
  /// No filter (a table in cache, a grouping-only build, or none built yet).
  void reset() noexcept {
    bits_.reset();
    mostly_misses_ = false;
  }
  /// This arrangement keeps a filter for its probes, built on demand; with
  /// `mostly_misses`, only for probe loops whose keys mostly miss.
  void want(bool mostly_misses = false) {
    bits_.want();
    mostly_misses_ = mostly_misses;
  }
  [[nodiscard]] bool wanted() const noexcept { return bits_.wanted(); }
  /// Wanted only for probe loops whose keys mostly miss (see `want`).
  [[nodiscard]] bool for_mostly_misses() const noexcept { return bits_.wanted() && mostly_misses_; }
  [[nodiscard]] bool built() const noexcept { return bits_.built(); }

  /// The bits and mask once built (`bits` null before).
  struct view {
    const std::uint64_t* bits = nullptr;
    std::uint64_t mask = 0;
    [[nodiscard]] bool may_contain(std::uint64_t h) const noexcept {
      const std::uint64_t b = h & mask;
      return (bits[b >> 6] >> (b & 63)) & 1U;
    }
  };
  [[nodiscard]] view bits() const noexcept {
    const filter_bits* f = bits_.get();
    return f ? view{f->words.data(), f->mask} : view{};
  }
  /// The bits, built by `fill(set_bit)` (which calls `set_bit(hash)` for
  /// every key) on the first call among all threads; the others wait for it.
  /// The filter must be wanted.
  template <class Fill>
  view build_once(std::size_t keys, Fill&& fill) const {
    const filter_bits* f = bits_.build_once([&] {
      filter_bits out;
      const std::size_t n = size_bits(keys);
      out.words.assign(n / 64, 0);
      out.mask = n - 1;
      std::uint64_t* w = out.words.data();
      const std::uint64_t mask = out.mask;
      fill([w, mask](std::uint64_t h) noexcept {
        const std::uint64_t i = h & mask;
        w[i >> 6] |= std::uint64_t{1} << (i & 63);
      });
      return out;
    });
    return {f->words.data(), f->mask};
  }
  /// Bits for `keys` keys: 8 per key, one hash (about 12% of absent keys pass).
  [[nodiscard]] static std::size_t size_bits(std::size_t keys) noexcept {
    std::size_t c = 64;
    while (c < keys * 8) c <<= 1;
    return c;
  }
  [[nodiscard]] std::size_t built_bits() const noexcept {
    const filter_bits* f = bits_.get();
    return f ? f->words.size() * 64 : 0;
  }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    const filter_bits* f = bits_.get();
    return f ? f->words.capacity() * sizeof(std::uint64_t) : 0;
  }

 private:
  struct filter_bits {
    huge_page_vector<std::uint64_t> words;
    std::uint64_t mask = 0;
  };
  built_on_demand<filter_bits> bits_;
  bool mostly_misses_ = false;
};

}  // namespace joinery::exec::detail
