#pragma once
/// @file
/// The key filter of a large hashed arrangement, built on demand.
///
/// One bit per (hash mod 8x the key count), set for every key: a probe whose
/// bit is clear has no match and need not wait for its slot. It pays only
/// where probes miss (a left, semi or anti join's unmatched rows); a join
/// whose keys all match only pays for building it. So the arrangement's
/// build makes no bits: the first probe loop that finds misses among its
/// first probes asks for them (`build_once`), and later loops read them.
/// Probes run on a const arrangement from several threads at once, hence the
/// once-only build and the acquire/release flag.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

#include <joinery/exec/huge_page_allocator.hpp>

namespace joinery::exec::detail {

class key_filter {
 public:
  key_filter() = default;
  key_filter(key_filter&&) noexcept = default;
  key_filter& operator=(key_filter&&) noexcept = default;
  /// A copy wants its filter as the original does, and has the bits if the
  /// original had them when copied.
  key_filter(const key_filter& o) {
    if (!o.state_) return;
    state_ = std::make_unique<state>();
    state_->mostly_misses = o.state_->mostly_misses;
    if (const state* s = o.ready()) {
      state_->bits = s->bits;
      state_->mask = s->mask;
      std::call_once(state_->once, [] {});
      state_->built.store(true, std::memory_order_release);
    }
  }
  key_filter& operator=(const key_filter& o) {
    if (this != &o) *this = key_filter(o);
    return *this;
  }

  /// No filter (a table in cache, a grouping-only build, or none built yet).
  void reset() noexcept { state_.reset(); }
  /// This arrangement keeps a filter for its probes, built on demand; with
  /// `mostly_misses`, only for probe loops whose keys mostly miss.
  void want(bool mostly_misses = false) {
    state_ = std::make_unique<state>();
    state_->mostly_misses = mostly_misses;
  }
  [[nodiscard]] bool wanted() const noexcept { return state_ != nullptr; }
  /// Wanted only for probe loops whose keys mostly miss (see `want`).
  [[nodiscard]] bool for_mostly_misses() const noexcept { return state_ && state_->mostly_misses; }
  [[nodiscard]] bool built() const noexcept { return ready() != nullptr; }

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
    const state* s = ready();
    return s ? view{s->bits.data(), s->mask} : view{};
  }
  /// The bits, built by `fill(set_bit)` (which calls `set_bit(hash)` for
  /// every key) on the first call among all threads; the others wait for it.
  template <class Fill>
  view build_once(std::size_t keys, Fill&& fill) const {
    std::call_once(state_->once, [&] {
      const std::size_t n = size_bits(keys);
      state_->bits.assign(n / 64, 0);
      state_->mask = n - 1;
      std::uint64_t* b = state_->bits.data();
      const std::uint64_t mask = state_->mask;
      fill([b, mask](std::uint64_t h) noexcept {
        const std::uint64_t i = h & mask;
        b[i >> 6] |= std::uint64_t{1} << (i & 63);
      });
      state_->built.store(true, std::memory_order_release);
    });
    return {state_->bits.data(), state_->mask};
  }
  /// Bits for `keys` keys: 8 per key, one hash (about 12% of absent keys pass).
  [[nodiscard]] static std::size_t size_bits(std::size_t keys) noexcept {
    std::size_t c = 64;
    while (c < keys * 8) c <<= 1;
    return c;
  }
  [[nodiscard]] std::size_t built_bits() const noexcept {
    const state* s = ready();
    return s ? s->bits.size() * 64 : 0;
  }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    const state* s = ready();
    return s ? s->bits.capacity() * sizeof(std::uint64_t) : 0;
  }

 private:
  struct state {
    std::once_flag once;
    std::atomic<bool> built{false};
    huge_page_vector<std::uint64_t> bits;
    std::uint64_t mask = 0;
    bool mostly_misses = false;
  };
  [[nodiscard]] const state* ready() const noexcept {
    return state_ && state_->built.load(std::memory_order_acquire) ? state_.get() : nullptr;
  }
  std::unique_ptr<state> state_;
};

}  // namespace joinery::exec::detail
