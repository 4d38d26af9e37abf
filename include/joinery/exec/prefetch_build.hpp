#pragma once
/// @file
/// An emit that reads build-side values at each match, made to wait less.
/// The value an emit reads at match j is a second miss after the wait on
/// j's slot, and a left join's branch on a coin toss (matched or not)
/// throws away the reads in flight after a wrong guess. Wrapped in
/// `prefetch_build`, the probe prefetches the values at j as it emits the
/// pair, and hands the pair to the emit `held_pairs(build)` pairs later, in the
/// same order (DESIGN.md §3's canonical order is unchanged). Measured at
/// 1e7 x 1e6 (bench.peers, 2026-12-01): left count+sum with half the keys
/// missing 321-358 -> 291-300 ms; inner count+sum (2026-12-02, old and
/// new binaries alternately) 319-370 -> 261-299 ms, 1e6 x 1e6 51-52 ->
/// 46-51 ms. Below `prefetch_min_column_bytes` of values nothing is held.
#include <cstddef>
#include <ranges>
#include <span>
#include <tuple>
#include <utility>

#include <joinery/exec/arrangement.hpp>

namespace joinery::exec {

/// Column size from which a probe prefetches the build-side values its emit
/// reads (about a core's L2: below it they stay in cache, and holding pairs
/// back only costs).
inline constexpr std::size_t prefetch_min_column_bytes = std::size_t{1} << 20;

/// Pairs a probe holds back while it prefetches their values.
inline constexpr std::size_t prefetch_depth = 16;
/// Pairs held back when the probe itself reads nothing beyond the probe
/// keys (an identity arrangement: the key is the build row). The value
/// prefetches are then the only misses in flight, and more of them can be:
/// dense keys in row order at 1e7 x 1e6, 96-112 -> 91-100 ms (AMD EPYC,
/// 8 MiB L3, 2026-12-02). Where the probe gathers slots or a direct array,
/// a deeper ring measured no faster (32) or slower (64).
inline constexpr std::size_t prefetch_depth_unprobed = 64;
static_assert((prefetch_depth & (prefetch_depth - 1)) == 0 &&
                  (prefetch_depth_unprobed & (prefetch_depth_unprobed - 1)) == 0 &&
                  prefetch_depth <= prefetch_depth_unprobed,
              "the held pairs' ring wraps with a mask and holds either depth");

/// The pairs a probe of `build` holds back (`prefetch_depth` or, when the
/// probe reads no slot, `prefetch_depth_unprobed`).
template <class Key, class Hash>
[[nodiscard]] std::size_t held_pairs(const arrangement<Key, Hash>& build) noexcept {
  return build.index_layout() == arrangement<Key, Hash>::layout::identity ? prefetch_depth_unprobed
                                                                           : prefetch_depth;
}

namespace detail {
/// True when some column reaches `prefetch_min_column_bytes`: its values
/// at random rows are not in a core's cache.
template <class... T>
[[nodiscard]] constexpr bool any_column_beyond_cache(std::span<const T>... columns) noexcept {
  return ((columns.size_bytes() >= prefetch_min_column_bytes) || ...);
}

/// What the probe loop prefetches at build row j: each column of at least
/// `prefetch_min_column_bytes`.
template <class... T>
struct value_prefetch {
  std::tuple<std::span<const T>...> columns;
  bool active = false;  // a column is large enough to be worth it

  void prefetch(std::size_t j) const noexcept {
    std::apply([j](const auto&... c) { (prefetch_value(c, j), ...); }, columns);
  }
  template <class V>
  static void prefetch_value(std::span<const V> c, std::size_t j) noexcept {
    // A column shorter than the build is read at row 0 rather than past its end.
    if (c.size_bytes() >= prefetch_min_column_bytes) prefetch_read(c.data() + (j < c.size() ? j : 0));
  }
};
}  // namespace detail

/// An emit and the build-side columns it reads at match j; made by
/// `prefetch_build`. `exec::probe`, `exec::probe_parts` (as the sink a
/// part's `make_sink` returns) and the threaded `exec::probe` take it in
/// place of the emit; `base()` is the emit itself, which sees exactly the
/// pairs a bare emit would, in the same order, up to `held_pairs(build)` pairs
/// later. If the emit throws, the pairs still held back are not emitted,
/// as the rows not yet probed are not.
template <class Emit, class... T>
class prefetched_emit {
 public:
  prefetched_emit(Emit emit, std::span<const T>... columns)
      : emit_(std::forward<Emit>(emit)),
        values_{std::tuple<std::span<const T>...>(columns...), detail::any_column_beyond_cache(columns...)} {}

  /// The wrapped emit (a reference when `prefetch_build` was given an lvalue).
  [[nodiscard]] Emit& base() noexcept { return emit_; }
  [[nodiscard]] const Emit& base() const noexcept { return emit_; }
  /// False when every column is small enough to stay in cache: the probe
  /// then hands each pair over at once, as to the bare emit.
  [[nodiscard]] bool prefetching() const noexcept { return values_.active; }
  /// What the probe loop prefetches at a match.
  [[nodiscard]] const detail::value_prefetch<T...>& values() const noexcept { return values_; }

 private:
  Emit emit_;
  detail::value_prefetch<T...> values_;
};

/// Wraps `emit` (kept by reference when it is an lvalue, moved in
/// otherwise) with the build-side columns it reads at build row j
/// (contiguous, indexed by build row), for a probe to prefetch
/// `held_pairs(build)` pairs before the emit sees j. Without a column of at
/// least `prefetch_min_column_bytes` nothing is held back. The columns must
/// outlive the probe.
template <class Emit, std::ranges::contiguous_range C, std::ranges::contiguous_range... Cs>
[[nodiscard]] auto prefetch_build(Emit&& emit, const C& column, const Cs&... columns) {
  return prefetched_emit<Emit, std::ranges::range_value_t<C>, std::ranges::range_value_t<Cs>...>(
      std::forward<Emit>(emit), std::span(column), std::span(columns)...);
}

}  // namespace joinery::exec
