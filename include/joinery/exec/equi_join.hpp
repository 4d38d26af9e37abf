#pragma once
/// @file
/// The probe loop of the one equi-join kernel: probe rows in input order, each
/// one's matches in build input order, a left join's unmatched row once, in
/// place. Join kinds differ only in what they emit.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/core/inline.hpp>
#include <joinery/exec/arranged_values.hpp>
#include <joinery/exec/arrangement.hpp>
#include <joinery/exec/prefetch_build.hpp>
#include <joinery/exec/threads.hpp>

namespace joinery::exec {

enum class join_kind { inner, left, semi, anti };

namespace detail {
/// The candidate of a row with at most one, read without a branch on
/// whether there is one (row 0 when there is none).
[[gnu::always_inline]] inline std::size_t only_candidate(std::span<const row_pos> candidates) noexcept {
  static constexpr row_pos none = 0;
  return *(candidates.empty() ? &none : candidates.data());
}

/// Whether a semi (anti) join outputs probe row i: some (no) candidate is accepted.
template <join_kind Kind, class Accept>
[[gnu::always_inline]] inline bool keeps_row(std::size_t i, std::span<const row_pos> candidates, Accept& accept) {
  static_assert(Kind == join_kind::semi || Kind == join_kind::anti);
  bool any = false;
  if (candidates.size() <= 1) {
    any = !candidates.empty() && accept(i, only_candidate(candidates));
  } else {
    for (row_pos j : candidates) {
      if (accept(i, static_cast<std::size_t>(j))) {
        any = true;
        break;
      }
    }
  }
  return Kind == join_kind::semi ? any : !any;
}

/// What one probe row emits, given its candidate build rows (shared by the
/// serial and the threaded probe so both emit exactly the same sequence).
template <join_kind Kind, class Accept, class Emit>
[[gnu::always_inline]] inline void emit_row(std::size_t i, std::span<const row_pos> candidates, Accept& accept, Emit& emit) {
  if constexpr (Kind == join_kind::semi || Kind == join_kind::anti) {
    if (keeps_row<Kind>(i, candidates, accept)) emit(i, unmatched);
  } else {
    bool any = false;
    for (row_pos j : candidates) {
      if (!accept(i, static_cast<std::size_t>(j))) continue;
      any = true;
      emit(i, static_cast<std::size_t>(j));
    }
    if constexpr (Kind == join_kind::left) {
      if (!any) emit(i, unmatched);
    }
  }
}

/// Probe rows a semi or anti join collects before handing them to the emit.
inline constexpr std::size_t kept_batch = 128;

template <class E>
inline constexpr bool is_prefetched_emit = false;
template <class Emit, class... T>
inline constexpr bool is_prefetched_emit<prefetched_emit<Emit, T...>> = true;

template <class E>
inline constexpr bool is_valued_emit = false;
template <class Emit, class Values>
inline constexpr bool is_valued_emit<valued_emit<Emit, Values>> = true;

/// False for a semi or anti join into a `valued_emit` (the entry points assert it).
template <join_kind Kind, class Emit>
inline constexpr bool values_fit_kind =
    Kind == join_kind::inner || Kind == join_kind::left || !is_valued_emit<std::remove_cvref_t<Emit>>;
#define JOINERY_DETAIL_VALUES_FIT_KIND_MESSAGE                                                            \
  "joinery: with_values hands the emit build-side values at each match, and a semi or anti join emits " \
  "no build row; pass the emit alone"

/// A left join's row handed to `bare` once: as (i, j) with `matched` when
/// `hit`, else as unmatched with `none` (value-initialised values), chosen
/// without a branch on what is a coin toss. The outcome and the address
/// chosen go through empty asm statements, which keep the compiler from
/// making the select a branch again.
template <class Bare, class Values>
JOINERY_DETAIL_ALWAYS_INLINE inline void hand_over_left_row(Bare& bare, std::size_t i, bool hit, std::size_t j,
                                                            const Values& matched, const Values& none) {
  std::uintptr_t chose_match = hit;
#if defined(__GNUC__) || defined(__clang__)
  __asm__("" : "+r"(chose_match));
#endif
  // The address chosen by a mask, not `?:`, which GCC 12 made a branch
  // again: it read the values only on a match, knowing that `none`'s are
  // zeros (left 1e6 x 1e5, 50% unmatched, stand-alone, the 48 MiB-L3 Xeon,
  // 2026-12-07: 16.1-16.4 -> 11.9-12.3 ms with the lay-out of the values).
  const auto at_match = reinterpret_cast<std::uintptr_t>(&matched);
  const auto at_none = reinterpret_cast<std::uintptr_t>(&none);
  std::uintptr_t at = at_none ^ ((at_match ^ at_none) & (std::uintptr_t{0} - chose_match));
#if defined(__GNUC__) || defined(__clang__)
  __asm__("" : "+r"(at));
#endif
  const Values* chosen = reinterpret_cast<const Values*>(at);
  std::apply([&](const auto&... v) { bare(i, chose_match ? j : unmatched, v...); }, *chosen);
}

/// How a probe loop holds the emit it hands pairs to (`Args`: what it is
/// called with). In the loop's own frame when it is small and trivially
/// copyable: a copy, written back when the loop ends or throws (the emit
/// sees the same calls in the same order), or, when it cannot be assigned
/// and its call operator is const (a closure of references), a copy that
/// needs no writing back. Otherwise the emit itself. Through a reference
/// its fields (a count and a sum) are stored and reloaded at every pair,
/// since the loop's other stores might alias them, and so are the
/// arrangement's fields the loop reads.
template <class E, class... Args>
class loop_emit {
 public:
  explicit loop_emit(E& e) noexcept : e_(e) {}
  [[nodiscard]] E& get() noexcept { return e_; }

 private:
  E& e_;
};
template <class E, class... Args>
inline constexpr bool loop_emit_copied =
    std::is_trivially_copyable_v<E> && sizeof(E) <= 64 &&
    (std::is_copy_assignable_v<E> || std::is_invocable_v<const E&, Args...>);
template <class E, class... Args>
  requires loop_emit_copied<E, Args...>
class loop_emit<E, Args...> {
 public:
  explicit loop_emit(E& e) noexcept : given_(e), copy_(e) {}
  loop_emit(const loop_emit&) = delete;
  loop_emit& operator=(const loop_emit&) = delete;
  ~loop_emit() {
    if constexpr (std::is_copy_assignable_v<E>) given_ = copy_;
  }
  [[nodiscard]] E& get() noexcept { return copy_; }

 private:
  E& given_;
  E copy_;
};
/// The `loop_emit` of an emit handed (i, j, v...), the values of `std::tuple<T...>`.
template <class E, class Values>
struct loop_emit_of_values_t;
template <class E, class... T>
struct loop_emit_of_values_t<E, std::tuple<T...>> {
  using type = loop_emit<E, std::size_t, std::size_t, const T&...>;
};
template <class E, class Values>
using loop_emit_of_values = typename loop_emit_of_values_t<E, Values>::type;

/// Rows [begin, end) of an inner or left join into a `valued_emit` whose
/// values were laid out by key: one entry per row, prefetched
/// `stage_lead` rows ahead (`stage_ahead`), and no read of the arrangement
/// itself (the entry says whether the key has a row).
template <join_kind Kind, class Key, class Hash, class KeyAt, class Accept, class Emit>
JOINERY_DETAIL_ALWAYS_INLINE inline void probe_arranged(const arrangement<Key, Hash>& build, std::size_t begin,
                                                        std::size_t end, KeyAt& key_at_given, Accept& accept,
                                                        Emit& emit, work_counters& w) {
  using entry = typename std::remove_cvref_t<decltype(emit.values())>::entry;
  const std::span<const entry> entries = emit.values().entries();
  // In this frame, as in `probe_bucketed`.
  loop_key_at_t<KeyAt> key_at = key_at_given;
  loop_emit_of_values<std::remove_reference_t<decltype(emit.base())>, decltype(entry::values)> held(emit.base());
  auto& bare = held.get();
  std::uint64_t probes = 0, emitted = 0;
  // Ring entries (`stage_ahead`): at or beyond the entries is no key, or a key outside the range.
  std::uint64_t index[stage_ring];
  bool has[stage_ring];
  auto stage = [&](std::size_t t, std::size_t i) JOINERY_DETAIL_ALWAYS_INLINE {
    const std::optional<Key> k = key_at(i);
    has[t] = k.has_value();
    index[t] = k ? build.direct_index_of(*k) : entries.size();
    if (index[t] < entries.size()) prefetch_read(entries.data() + index[t]);
  };
  const entry none{};  // a key outside the range, or a left join's unmatched row
  auto resolve = [&](std::size_t t, std::size_t i) JOINERY_DETAIL_ALWAYS_INLINE {
    probes += has[t];
    const entry* e = index[t] < entries.size() ? entries.data() + index[t] : &none;
    const bool found = e->row != entry::no_row;
    emitted += found;
    const bool hit = found && accept(i, static_cast<std::size_t>(e->row));
    if constexpr (Kind == join_kind::inner) {
      if (hit) std::apply([&](const auto&... v) { bare(i, static_cast<std::size_t>(e->row), v...); }, e->values);
    } else {
      hand_over_left_row(bare, i, hit, static_cast<std::size_t>(e->row), e->values, none.values);
    }
  };
  stage_ahead(begin, end, stage, resolve);
  w.probes += probes;
  w.emitted += emitted;
}

/// Rows [begin, end) of an inner or left join into a `valued_emit` whose
/// values were laid out by key without a hole: a key in range has a row,
/// so a row reads its values alone (and its row only if the emit uses j).
/// A plain loop, no batch prefetched ahead: the reads are independent, and
/// the staged batches of `probe_arranged` took twice as long over these
/// arrays (dense shuffled 1e7 x 1e6, stand-alone, AMD family 26,
/// 2026-12-07: probe 19-22 against 9-12 ms; 1e6 x 1e5 1.7-1.9 against 0.7).
template <join_kind Kind, class Key, class Hash, class KeyAt, class Accept, class Emit>
JOINERY_DETAIL_ALWAYS_INLINE inline void probe_by_key(const arrangement<Key, Hash>& build, std::size_t begin,
                                                      std::size_t end, KeyAt& key_at_given, Accept& accept,
                                                      Emit& emit, work_counters& w) {
  const auto values = emit.values().values_by_key();
  const row_pos* const rows = emit.values().rows_by_key().data();
  const std::size_t extent = values.size();
  using values_type = std::remove_cvref_t<decltype(values[0])>;
  // In this frame, as in `probe_bucketed`.
  loop_key_at_t<KeyAt> key_at = key_at_given;
  loop_emit_of_values<std::remove_reference_t<decltype(emit.base())>, values_type> held(emit.base());
  auto& bare = held.get();
  std::uint64_t probes = 0, emitted = 0;
  const values_type none{};  // a left join's unmatched row
  for (std::size_t i = begin; i < end; ++i) {
    const std::optional<Key> k = key_at(i);
    // `extent` or more: no key, or a key outside the range.
    const std::uint64_t index = k ? build.direct_index_of(*k) : extent;
    probes += k.has_value();
    const bool found = index < extent;
    emitted += found;
    const std::size_t at = found ? static_cast<std::size_t>(index) : 0;
    const std::size_t j = rows[at];
    if constexpr (Kind == join_kind::inner) {
      if (found && accept(i, j)) std::apply([&](const auto&... v) { bare(i, j, v...); }, values[at]);
    } else {
      hand_over_left_row(bare, i, found && accept(i, j), j, values[at], none);
    }
  }
  w.probes += probes;
  w.emitted += emitted;
}

/// Up to `B` staged probe rows: their keys and home buckets, read by
/// `stage`, which prefetches each home bucket (`has[t]`: row t has a key).
template <class Key, std::size_t B>
struct staged_homes {
  Key key[B];
  std::size_t home[B];
  bool has[B];
  /// Row `i` as entry `t`.
  template <class KeyAt, class HomeOf, class Bucket>
  JOINERY_DETAIL_ALWAYS_INLINE void stage(std::size_t t, std::size_t i, KeyAt& key_at, const HomeOf& home_of,
                                          const Bucket* buckets) {
    const std::optional<Key> k = key_at(i);
    has[t] = k.has_value();
    if (!k) return;
    key[t] = *k;
    home[t] = home_of(*k);
    prefetch_read(buckets + home[t]);
  }
};

/// The walk for key `k` over buckets of keys (values in buckets, or keys
/// in buckets) from bucket `b`: the bucket it stops at and the lanes there
/// that hold `k` (none when `k` is absent). It stops at a bucket holding
/// `k`, else at one no key walked past (`walked_past`); `empty` marks the
/// unfilled lanes and matches nothing. `comparisons` counts each bucket
/// read (a local of the loop: a counter it shares with the emit's stores
/// would be stored and reloaded at every row).
struct bucket_walk {
  std::size_t bucket;
  std::uint64_t found;
};
template <class Bucket, class Key>
[[gnu::always_inline]] inline bucket_walk walk_buckets(const Bucket* buckets, std::size_t mask, std::size_t b,
                                                       const Key& k, const Key& empty, std::uint64_t& comparisons) {
  std::uint64_t found;
  for (;;) {
    const Bucket& x = buckets[b];
    ++comparisons;
    found = lanes_holding<Bucket::lanes>(x.keys, k);
    std::uint32_t walk = (found == 0) & x.walked_past(empty);
#if defined(__GNUC__) || defined(__clang__)
    // Opaque to the optimiser, which would otherwise branch on the outcome
    // of each comparison.
    __asm__("" : "+r"(walk));
#endif
    if (!walk) [[likely]] break;
    b = (b + 1) & mask;
  }
  return {b, found & (0 - static_cast<std::uint64_t>(k != empty))};
}

/// Rows [begin, end) of an inner or left join into a `valued_emit` whose
/// values were laid out in buckets: a row reads one bucket, which says at
/// once whether its key is there (and in which lane, with the values
/// beside it) or absent (the bucket has an unfilled lane, or is full and
/// no key walked past it); only a key past a full bucket walks on. Each
/// row's bucket is prefetched `stage_lead` rows ahead (`stage_ahead`). A
/// comparison is counted for each bucket read.
template <join_kind Kind, class Key, class Hash, class KeyAt, class Accept, class Emit>
JOINERY_DETAIL_ALWAYS_INLINE inline void probe_bucketed(const arrangement<Key, Hash>& build, std::size_t begin,
                                                        std::size_t end, KeyAt& key_at_given, Accept& accept,
                                                        Emit& emit, work_counters& w) {
  const auto& laid = emit.values().in_buckets();
  using bucket = typename std::remove_cvref_t<decltype(laid)>::bucket;
  constexpr std::size_t lanes = bucket::lanes;
  const bucket* const buckets = laid.buckets.data();
  const row_pos* const rows = laid.rows.data();
  const std::size_t mask = laid.buckets.size() - 1;
  const Key empty = laid.empty_key;
  const unsigned hash_shift = laid.hash_shift;
  using values_type = std::remove_cvref_t<decltype(buckets->values[0])>;
  // The key reader, the emit and the counters in this frame: the loop's
  // stores then alias nothing it reads. With 10^3 keys, all in L1, this
  // probe had taken as long as with 10^5: bound by its instructions, not
  // by memory (docs/performance.md, "The kernel").
  loop_key_at_t<KeyAt> key_at = key_at_given;
  loop_emit_of_values<std::remove_reference_t<decltype(emit.base())>, values_type> held(emit.base());
  auto& bare = held.get();
  std::uint64_t probes = 0, comparisons = 0, emitted = 0;
  staged_homes<Key, stage_ring> st;
  const Hash& hash = build.hash_function();
  auto home_of = [&hash, hash_shift, mask](const Key& k) JOINERY_DETAIL_ALWAYS_INLINE {
    return static_cast<std::size_t>(hash(k) >> hash_shift) & mask;
  };
  auto stage = [&](std::size_t t, std::size_t i) JOINERY_DETAIL_ALWAYS_INLINE {
    st.stage(t, i, key_at, home_of, buckets);
  };
  const values_type none{};  // a left join's unmatched row
  auto resolve = [&](std::size_t t, std::size_t i) JOINERY_DETAIL_ALWAYS_INLINE {
    if (!st.has[t]) {
      if constexpr (Kind == join_kind::left) std::apply([&](const auto&... v) { bare(i, unmatched, v...); }, none);
      return;
    }
    ++probes;
    if constexpr (Kind == join_kind::inner) {
      // Only a match is emitted, after a branch on it: a miss takes the
      // same branch to see whether the walk goes on, where the walk of a
      // left join decides without one.
      const Key k = st.key[t];
      std::size_t b = st.home[t];
      ++comparisons;
      std::uint64_t found = lanes_holding<lanes>(buckets[b].keys, k) & (0 - static_cast<std::uint64_t>(k != empty));
      if (found == 0) [[unlikely]] {
        if (!buckets[b].walked_past(empty)) return;
        const bucket_walk on = walk_buckets(buckets, mask, (b + 1) & mask, k, empty, comparisons);
        if (on.found == 0) return;
        b = on.bucket;
        found = on.found;
      }
      ++emitted;
      const auto lane = static_cast<std::size_t>(std::countr_zero(found));
      const std::size_t j = rows[b * lanes + lane];
      if (accept(i, j)) std::apply([&](const auto&... v) { bare(i, j, v...); }, buckets[b].values[lane]);
    } else {
      const auto [b, found] = walk_buckets(buckets, mask, st.home[t], st.key[t], empty, comparisons);
      const std::size_t lane =
          static_cast<std::size_t>(std::countr_zero(found | (std::uint64_t{1} << lanes))) & (lanes - 1);
      const bool match = found != 0;
      emitted += match;
      const std::size_t j = rows[b * lanes + lane];
      hand_over_left_row(bare, i, match && accept(i, j), j, buckets[b].values[lane], none);
    }
  };
  stage_ahead(begin, end, stage, resolve);
  w.probes += probes;
  w.comparisons += comparisons;
  w.emitted += emitted;
}

/// The callers of `probe_range`, told apart so that each gets its own
/// instantiation: one shared by the serial and the threaded probe was
/// compiled out of line, with the emit's state in memory.
struct serial_probe_site {};
struct part_probe_site {};

/// Rows [begin, end) of a semi or anti join. Whether a row is kept is
/// stored without a branch (its number is written, the count advanced by
/// the outcome), and the kept rows go to the emit `kept_batch` at a time, in
/// order: a branch per row on a coin toss mispredicts half the time. If the
/// emit throws, the rows still collected are not emitted.
template <join_kind Kind, class Site, class Key, class Hash, class KeyAt, class Accept, class Emit>
JOINERY_DETAIL_ALWAYS_INLINE inline void probe_kept(const arrangement<Key, Hash>& build, std::size_t begin,
                                                    std::size_t end, KeyAt& key_at, Accept& accept, Emit& emit,
                                                    work_counters& w) {
  std::size_t kept[kept_batch];
  std::size_t n = 0;
  auto hand_over = [&] {
    for (std::size_t k = 0; k < n; ++k) emit(kept[k], unmatched);
    n = 0;
  };
  build.template probe_rows</*OutcomeStored=*/true>(
      begin, end, key_at,
      [&](std::size_t i, std::span<const row_pos> candidates) JOINERY_DETAIL_ALWAYS_INLINE {
        kept[n] = i;
        n += keeps_row<Kind>(i, candidates, accept);
        if (n == kept_batch) hand_over();
      },
      w);
  hand_over();
}

/// Rows [begin, end) of a semi or anti join, read from the build's keys in
/// buckets (`arrangement::keys_in_buckets`): a row reads one line, which
/// says whether its key is there (and in which lane, its row beside it) or
/// absent (an unfilled lane, or a full bucket no key walked past); only a
/// key past a full bucket walks on. Each row's bucket is prefetched
/// `stage_lead` rows ahead (`stage_ahead`). Kept rows are stored
/// without a branch and handed over as `probe_kept` does. A comparison is
/// counted for each bucket read.
template <join_kind Kind, class Key, class Hash, class KeyAt, class Accept, class Emit>
JOINERY_DETAIL_ALWAYS_INLINE inline void probe_kept_in_buckets(const arrangement<Key, Hash>& build,
                                                               const key_buckets<Key>& keys, std::size_t begin,
                                                               std::size_t end, KeyAt& key_at_given,
                                                               Accept& accept, Emit& emit_given, work_counters& w) {
  using bucket = key_bucket<Key>;
  constexpr std::size_t lanes = bucket::lanes;
  const bucket* const buckets = keys.buckets.data();
  const std::uint32_t* const rows = keys.rows.data();
  const std::size_t mask = keys.buckets.size() - 1;
  const unsigned hash_shift = keys.hash_shift;
  const Key empty = keys.empty_key;
  // In this frame, as in `probe_bucketed`.
  loop_key_at_t<KeyAt> key_at = key_at_given;
  loop_emit<Emit, std::size_t, std::size_t> held(emit_given);
  auto& emit = held.get();
  std::uint64_t probes = 0, comparisons = 0, emitted = 0;
  staged_homes<Key, stage_ring> st;
  const Hash& hash = build.hash_function();
  auto home_of = [&hash, hash_shift, mask](const Key& k) JOINERY_DETAIL_ALWAYS_INLINE {
    return static_cast<std::size_t>(hash(k) >> hash_shift) & mask;
  };
  auto stage = [&](std::size_t t, std::size_t i) JOINERY_DETAIL_ALWAYS_INLINE {
    st.stage(t, i, key_at, home_of, buckets);
  };
  std::size_t kept[kept_batch];
  std::size_t n = 0;
  auto hand_over = [&] {
    for (std::size_t k = 0; k < n; ++k) emit(kept[k], unmatched);
    n = 0;
  };
  auto resolve = [&](std::size_t t, std::size_t i) JOINERY_DETAIL_ALWAYS_INLINE {
    bool any = false;
    if (st.has[t]) [[likely]] {
      ++probes;
      const auto [b, found] = walk_buckets(buckets, mask, st.home[t], st.key[t], empty, comparisons);
      const bool match = found != 0;
      emitted += match;
      const std::size_t lane = static_cast<std::size_t>(std::countr_zero(found | (std::uint64_t{1} << (lanes - 1))));
      any = match && accept(i, static_cast<std::size_t>(rows[b * lanes + lane]));
    }
    kept[n] = i;
    n += Kind == join_kind::semi ? any : !any;
    if (n == kept_batch) hand_over();
  };
  stage_ahead(begin, end, stage, resolve);
  hand_over();
  w.probes += probes;
  w.comparisons += comparisons;
  w.emitted += emitted;
}

/// Rows [begin, end) probed into a `prefetched_emit`: each pair goes to the
/// bare emit `held_pairs(build)` pairs after its values were prefetched. The
/// pairs are held after `emit_row`: held before it, its branch on each
/// row's outcome no longer followed the probe's own and mispredicted apart
/// (measured alternatives in docs/performance.md).
template <join_kind Kind, class Site, class Key, class Hash, class KeyAt, class Accept, class Emit>
JOINERY_DETAIL_ALWAYS_INLINE inline void probe_prefetched(const arrangement<Key, Hash>& build, std::size_t begin,
                                                          std::size_t end, KeyAt& key_at, Accept& accept, Emit& emit,
                                                          work_counters& w) {
  auto& emit_pair = emit.base();
  // An inner join's pair is always a match: a `valued_emit` then reads its
  // values at j without `value_at_row`'s select for an unmatched row
  // (count+sum 1e7 x 1e6, every key present, stand-alone, old and new
  // binaries alternately, AMD family 26, 2026-12-06: faster in 10 of 10
  // runs, 128-167 against 142-224 ms).
  auto bare = [&emit_pair](std::size_t i, std::size_t j) JOINERY_DETAIL_ALWAYS_INLINE {
    if constexpr (Kind == join_kind::inner && is_valued_emit<std::remove_cvref_t<decltype(emit_pair)>>)
      emit_pair.matched(i, j);
    else
      emit_pair(i, j);
  };
  const auto& values = emit.values();
  struct held_pair {
    std::size_t i = 0, j = 0;
  };
  held_pair held[prefetch_depth_unprobed];
  const std::size_t depth = held_pairs(build), wrap = depth - 1;
  std::size_t next = 0, count = 0;
  // Held by value: a loop kept out of line would reload it through two
  // references at every pair.
  const bool active = values.active;
  auto hold = [&, active](std::size_t i, std::size_t j) JOINERY_DETAIL_ALWAYS_INLINE {
    if (!active) {  // every column fits in cache: straight through
      bare(i, j);
      return;
    }
    // An unmatched row prefetches the first value: no branch on a coin toss.
    values.prefetch(j == unmatched ? 0 : j);
    held_pair& h = held[next];
    if (count == depth) bare(h.i, h.j);
    else ++count;
    h = {i, j};
    next = (next + 1) & wrap;
  };
  build.probe_rows(
      begin, end, key_at,
      [&](std::size_t i, std::span<const row_pos> candidates) JOINERY_DETAIL_ALWAYS_INLINE {
        // A left join's row of at most one candidate is held once, its
        // pair or its unmatched pair chosen without a branch on a coin toss;
        // a `valued_emit` then reads the value without one either
        // (`value_at_random_row`). Alone this measured faster stand-alone
        // (5 of 6 runs, up to 8%) but not in the peers binary; with the
        // masked read, left count+sum 1e7 x 1e6 took 218-229 against
        // 247-264 ms (AMD family 26, 2026-12-06). In cache, where each pair
        // is handed over as it is found, it measured no faster.
        if constexpr (Kind == join_kind::left) {
          if (candidates.size() <= 1) {
            const std::size_t j = only_candidate(candidates);
            const bool hit = !candidates.empty() && accept(i, j);
            hold(i, hit ? j : unmatched);
            return;
          }
        }
        emit_row<Kind>(i, candidates, accept, hold);
      },
      w);
  for (; count != 0; --count) {
    const held_pair& h = held[(next - count) & wrap];
    bare(h.i, h.j);
  }
}

/// Rows [begin, end) of an inner or left join into an emit that reads
/// build-side columns small enough for a core's cache, each pair handed
/// over as it is found. Out of line: inlined beside `probe_prefetched`,
/// GCC 12 kept both probe loops out of line, and the prefetching one lost
/// (stand-alone inner count+sum 1e7 x 1e6 into `with_values`: 221-228 ->
/// 251-269 ms); this way it inlines that one as before.
template <join_kind Kind, class Site, class Key, class Hash, class KeyAt, class Accept, class Emit>
JOINERY_DETAIL_NOINLINE void probe_read_in_cache(const arrangement<Key, Hash>& build, std::size_t begin,
                                                 std::size_t end, KeyAt& key_at, Accept& accept, Emit& emit,
                                                 work_counters& w) {
  build.probe_rows(
      begin, end, key_at,
      [&](std::size_t i, std::span<const row_pos> candidates) JOINERY_DETAIL_ALWAYS_INLINE {
        emit_row<Kind>(i, candidates, accept, emit);
      },
      w);
}

/// Rows [begin, end) of `probe_rows` probed into `emit`, serial or as one
/// part of a threaded probe.
template <join_kind Kind, class Site, class Key, class Hash, class KeyAt, class Accept, class Emit>
JOINERY_DETAIL_ALWAYS_INLINE inline void probe_range(const arrangement<Key, Hash>& build, std::size_t probe_rows,
                                                     std::size_t begin, std::size_t end, KeyAt& key_at,
                                                     Accept& accept, Emit& emit, work_counters& w) {
  constexpr bool prefetched = is_prefetched_emit<std::remove_cvref_t<Emit>>;
  if constexpr (is_valued_emit<std::remove_cvref_t<Emit>>) {
    emit.values().check_for(build);
    if constexpr (direct_addressable<Key>) {
      if (emit.values().laid_out()) {
        probe_arranged<Kind>(build, begin, end, key_at, accept, emit, w);
        return;
      }
      if (emit.values().laid_out_without_holes()) {
        probe_by_key<Kind>(build, begin, end, key_at, accept, emit, w);
        return;
      }
      if (emit.values().lay_out_in_buckets_for(probe_rows)) {
        probe_bucketed<Kind>(build, begin, end, key_at, accept, emit, w);
        return;
      }
    }
    // Not laid out: the columns are read at j. Small enough for a core's
    // cache, they are read as each pair is found, through copies of their
    // spans held here: through the emit's pointer to them they were loaded
    // again at every pair, since the compiler cannot tell that the emit's
    // own stores leave them unchanged, and the held-pairs ring only cost
    // (1e7 x 1e5 count+sum compiled stand-alone, AMD family 26, 2026-12-04:
    // 1.41x-1.46x -> 1.20x-1.24x the hand-written `flat_join_prefetch`).
    // An inner join's j is always a match: it reads c[j] without the left
    // join's select of a value for `unmatched` (`value_at_row`), which cost
    // more than the read (inner count+sum 1e6 x 1e5, dense keys in row order
    // (the identity layout), stand-alone probe, AMD family 26, 2026-12-06:
    // 3.3 -> 1.4 ms).
    if (!emit.values().columns_beyond_cache()) {
      auto& bare = emit.base();
      auto read_at = [&bare, columns = emit.values().columns()](std::size_t i, std::size_t j)
                         JOINERY_DETAIL_ALWAYS_INLINE {
                           if constexpr (Kind == join_kind::inner)
                             std::apply([&](const auto&... c) { bare(i, j, c[j]...); }, columns);
                           else
                             std::apply([&](const auto&... c) { bare(i, j, value_at_row(c, j)...); }, columns);
                         };
      probe_read_in_cache<Kind, Site>(build, begin, end, key_at, accept, read_at, w);
      return;
    }
    // Beyond a core's cache they are prefetched as `prefetch_build` does.
    auto read = std::apply(
        [&](const auto&... c) {
          return prefetched_emit<Emit&, typename std::remove_cvref_t<decltype(c)>::value_type...>(emit, c...);
        },
        emit.values().columns());
    probe_prefetched<Kind, Site>(build, begin, end, key_at, accept, read, w);
  } else if constexpr (Kind == join_kind::semi || Kind == join_kind::anti) {
    if constexpr (direct_addressable<Key>) {
      if (const key_buckets<Key>* keys = build.keys_in_buckets()) {
        if constexpr (prefetched) probe_kept_in_buckets<Kind>(build, *keys, begin, end, key_at, accept, emit.base(), w);
        else probe_kept_in_buckets<Kind>(build, *keys, begin, end, key_at, accept, emit, w);
        return;
      }
    }
    // No build-side value is read at a kept row: nothing to prefetch.
    if constexpr (prefetched) probe_kept<Kind, Site>(build, begin, end, key_at, accept, emit.base(), w);
    else probe_kept<Kind, Site>(build, begin, end, key_at, accept, emit, w);
  } else if constexpr (prefetched) {
    probe_prefetched<Kind, Site>(build, begin, end, key_at, accept, emit, w);
  } else {
    build.probe_rows(
        begin, end, key_at,
        [&](std::size_t i, std::span<const row_pos> candidates) JOINERY_DETAIL_ALWAYS_INLINE {
          emit_row<Kind>(i, candidates, accept, emit);
        },
        w);
  }
}
}  // namespace detail

/// Probes `build` with rows [0, n_probe) of the other side.
/// * `key_at(i)`: `std::optional<Key>` of probe row i (empty: a NULL key, no
///   match); a pure function of i: it is read a few rows ahead of the row
///   being emitted (batched, prefetched probe);
/// * `accept(i, j)`: the residual condition on a candidate pair (true when none);
/// * `emit(i, j)`: receives the match set in canonical order; j is `unmatched`
///   for a left join's unmatched row and for semi/anti output rows (which
///   reach it in order, collected `detail::kept_batch` rows at a time). An
///   emit that reads build-side values at j from columns beyond the cache
///   runs faster as `prefetch_build(emit, columns...)` (prefetch_build.hpp).
///   The probe of values laid out for `with_values`, and of keys in buckets,
///   may call a small trivially copyable emit through its own copy, written
///   back when the probe returns or throws (`detail::loop_emit`): `key_at`
///   and `accept` must not read the emit's state. A sink that holds its
///   totals by value runs fastest there.
template <join_kind Kind, class Key, class Hash, class KeyAt, class Accept, class Emit>
void probe(const arrangement<Key, Hash>& build, std::size_t n_probe, KeyAt&& key_at, Accept&& accept,
           Emit&& emit) {
  static_assert(detail::values_fit_kind<Kind, Emit>, JOINERY_DETAIL_VALUES_FIT_KIND_MESSAGE);
  work_counters w;
  detail::probe_range<Kind, detail::serial_probe_site>(build, n_probe, 0, n_probe, key_at, accept, emit, w);
  build.add_work(w);
}

/// The multi-threaded probe: rows [0, n_probe) are cut into at most
/// `t.count` contiguous parts, part p is probed on its own thread into its own
/// sink `make_sink(p)` (called on the calling thread, in part order, before
/// any probing), and the sinks come back in part order: concatenating (or
/// merging) them gives exactly the serial probe's sequence.
/// `key_at` and `accept` run on several threads at once (they must only read);
/// each sink is used by one thread. Work counts are kept per thread and added
/// to `build.counters()` after the join.
template <join_kind Kind, class Key, class Hash, class KeyAt, class Accept, class MakeSink>
auto probe_parts(threads t, const arrangement<Key, Hash>& build, std::size_t n_probe, KeyAt&& key_at,
                 Accept&& accept, MakeSink&& make_sink)
    -> std::vector<std::remove_cvref_t<std::invoke_result_t<MakeSink&, std::size_t>>> {
  using sink_t = std::remove_cvref_t<std::invoke_result_t<MakeSink&, std::size_t>>;
  static_assert(detail::values_fit_kind<Kind, sink_t>, JOINERY_DETAIL_VALUES_FIT_KIND_MESSAGE);
  // Each part's sink and counters on their own cache lines: no false sharing.
  struct alignas(64) part_state {
    std::optional<sink_t> sink;  // emptied while the part probes into its own copy
    work_counters work{};
  };
  const std::size_t parts = detail::part_count(t, n_probe);
  std::vector<part_state> state(parts);
  for (std::size_t p = 0; p < parts; ++p) state[p].sink.emplace(make_sink(p));
  // Each part probes into a sink and counters in its own stack frame: held
  // in the vector, they were stored and loaded again at every row, since
  // the compiler cannot tell that the emit's stores leave them alone (dense
  // shuffled 1e7 x 1e6 count+sum on 2 threads, peers harness, the 48 MiB-L3
  // Xeon, 2026-12-07: 53-63 -> 32-35 ms, 2 ms of it the lay-out by key).
  auto part = [&](std::size_t p, std::size_t begin, std::size_t end) {
    sink_t sink = std::move(*state[p].sink);
    state[p].sink.reset();
    work_counters work{};
    detail::probe_range<Kind, detail::part_probe_site>(build, n_probe, begin, end, key_at, accept, sink, work);
    state[p].sink.emplace(std::move(sink));
    state[p].work = work;
  };
  detail::run_parts(parts, n_probe, part);
  std::vector<sink_t> sinks;
  sinks.reserve(parts);
  for (auto& s : state) {
    build.add_work(s.work);
    sinks.push_back(std::move(*s.sink));
  }
  return sinks;
}

/// `probe` under a thread policy: the candidate pairs are found on up to
/// `t.count` threads (see `probe_parts`), then `emit` receives them on the
/// calling thread in exactly the serial order. Use `probe_parts` to also
/// spread the emitting work.
template <join_kind Kind, class Key, class Hash, class KeyAt, class Accept, class Emit>
void probe(threads t, const arrangement<Key, Hash>& build, std::size_t n_probe, KeyAt&& key_at,
           Accept&& accept, Emit&& emit) {
  if (detail::part_count(t, n_probe) <= 1) {
    probe<Kind>(build, n_probe, key_at, accept, emit);
    return;
  }
  if constexpr (detail::is_valued_emit<std::remove_cvref_t<Emit>>) emit.values().check_for(build);
  using pairs = std::vector<std::pair<std::size_t, std::size_t>>;
  auto make = [](std::size_t) {
    struct sink {
      pairs out;
      void operator()(std::size_t i, std::size_t j) { out.emplace_back(i, j); }
    };
    return sink{};
  };
  auto parts = probe_parts<Kind>(t, build, n_probe, key_at, accept, make);
  if constexpr (detail::is_prefetched_emit<std::remove_cvref_t<Emit>>) {
    // The pairs are known: prefetch the values of the pair `held_pairs(build)` ahead.
    auto& bare = emit.base();
    const bool ahead = emit.prefetching();
    const std::size_t depth = held_pairs(build);
    for (const auto& s : parts) {
      for (std::size_t k = 0; k < s.out.size(); ++k) {
        if (ahead && k + depth < s.out.size()) {
          const std::size_t j = s.out[k + depth].second;
          emit.values().prefetch(j == unmatched ? 0 : j);
        }
        bare(s.out[k].first, s.out[k].second);
      }
    }
  } else {
    for (auto& s : parts)
      for (const auto& [i, j] : s.out) emit(i, j);
  }
}

/// A join whose condition has no equality key at all: the nested loop the user
/// wrote, in the same canonical order. The only quadratic path.
template <join_kind Kind, class Accept, class Emit>
void nested_loop(std::size_t n_probe, std::size_t n_build, Accept&& accept, Emit&& emit) {
  for (std::size_t i = 0; i < n_probe; ++i) {
    bool any = false;
    for (std::size_t j = 0; j < n_build; ++j) {
      if (!accept(i, j)) continue;
      any = true;
      if constexpr (Kind == join_kind::inner || Kind == join_kind::left) emit(i, j);
      else break;
    }
    if constexpr (Kind == join_kind::left) {
      if (!any) emit(i, unmatched);
    } else if constexpr (Kind == join_kind::semi) {
      if (any) emit(i, unmatched);
    } else if constexpr (Kind == join_kind::anti) {
      if (!any) emit(i, unmatched);
    }
  }
}

}  // namespace joinery::exec

#undef JOINERY_DETAIL_VALUES_FIT_KIND_MESSAGE
