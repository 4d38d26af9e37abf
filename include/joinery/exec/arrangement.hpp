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
/// Layout (no per-key heap objects):
/// * hashed: flat open addressing, power-of-two capacity, linear probing, the
///   key, its group and the group's founding row in the slot (one gather per
///   probe). A build whose keys are all distinct (the common many-to-one
///   case) needs nothing else: no CSR, no key copy, no per-row map.
/// * direct: integer keys whose range max-min is small relative to the row
///   count index a plain array of group ids (no hashing, no comparisons);
///   keys k0, k0+1, ... in row order (a surrogate key) need no array at all
///   (the identity layout: a probe is a subtraction).
/// The per-row group map exists only once a NULL key or a repeated key has
/// been seen (before that, row i founded group i).
/// A hashed table beyond about half the last-level cache also keeps a key
/// filter (key_filter.hpp): one bit per (hash mod 8x the key count), set for
/// every key. A probe whose bit is clear has no match and does not wait for
/// its slot (a left, semi or anti join's misses, often half the probes, then
/// cost a read of the 1-byte-per-key filter instead of a miss to memory);
/// about one absent key in nine passes the filter. The build makes no bits:
/// the first probe loop whose first probes miss often builds them, so a join
/// whose keys match never pays for them. A probe loop that finds the filter
/// ruling out few keys stops reading it. A smaller table beyond a core's L2
/// keeps one only for probe loops whose keys mostly miss (an anti join
/// against a few matches): there a miss walks to an empty slot, and the
/// filter saves more than its read costs only when most probes miss.
///
/// `probe_rows` is the batched probe loop (software prefetch one batch ahead)
/// that exec::probe and every front door run on.
#include <algorithm>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/core/inline.hpp>
#include <joinery/core/key.hpp>
#include <joinery/exec/cache_size.hpp>
#include <joinery/exec/huge_page_allocator.hpp>
#include <joinery/exec/built_on_demand.hpp>
#include <joinery/exec/key_buckets.hpp>
#include <joinery/exec/key_filter.hpp>

namespace joinery::exec {

using row_pos = std::uint32_t;
using group_id = std::uint32_t;
inline constexpr group_id no_group = std::numeric_limits<group_id>::max();
/// Marks "no build row" in a match (a left join's unmatched probe row, or a
/// semi/anti join's kept probe row).
inline constexpr std::size_t unmatched = static_cast<std::size_t>(-1);

/// Work counters: complexity is tested by counting work, not by timing.
struct work_counters {
  std::uint64_t inserts = 0;      // build rows hashed
  std::uint64_t probes = 0;       // lookups
  std::uint64_t comparisons = 0;  // key comparisons during inserts and lookups
  std::uint64_t emitted = 0;      // match positions handed out

  /// Adds another counter set (per-thread counts are merged this way).
  work_counters& operator+=(const work_counters& o) noexcept {
    inserts += o.inserts;
    probes += o.probes;
    comparisons += o.comparisons;
    emitted += o.emitted;
    return *this;
  }
};

namespace detail {
inline std::size_t next_pow2(std::size_t n) noexcept {
  std::size_t c = 16;
  while (c < n) c <<= 1;
  return c;
}

/// Read prefetch of one address (no effect on semantics). On x86 an asm
/// statement, as `prefetch_read_outer` is: GCC 12 deleted the prefetch of
/// a key's bucket from one inlined probe loop (a left join into values in
/// buckets, whose time then doubled: 1e7 x 1e6 stand-alone, the 48 MiB-L3
/// Xeon, 2026-12-07).
inline void prefetch_read(const void* p) noexcept {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
  __asm__ volatile("prefetcht0 (%0)" : : "r"(p));
#elif defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 0, 3);
#else
  (void)p;
#endif
}
/// The same, into the outer caches only: for more lines than L1 holds.
/// On x86 an asm statement: GCC's interprocedural passes count a function
/// whose only statements are `__builtin_prefetch` as having no effect, and
/// delete calls to it.
inline void prefetch_read_outer(const void* p) noexcept {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
  __asm__ volatile("prefetcht1 (%0)" : : "r"(p));
#elif defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 0, 2);
#else
  (void)p;
#endif
}

/// The ring of staged rows of `stage_ahead`, and how far ahead it stages.
inline constexpr std::size_t stage_ring = 32;
inline constexpr std::size_t stage_lead = 24;
static_assert(stage_lead < stage_ring && (stage_ring & (stage_ring - 1)) == 0);

/// Rows [from, n) in input order, each staged (`stage(t, row)`: key read,
/// hashed, its line prefetched, kept at entry t = row % stage_ring of the
/// caller's ring) `stage_lead` rows before it is resolved
/// (`resolve(t, row)`). One row staged, one resolved: the prefetches are
/// spread among the resolves. A batch staged at once issues more
/// prefetches than the core has line-fill buffers, and the loop waits on
/// them with nothing to resolve (group-by of 10^7 rows into 10^5 groups,
/// against a flat table prefetching 16 rows ahead in the same binary:
/// 1.32-1.42x -> 1.06-1.14x its time; 16 rows ahead 1.10-1.19x; the
/// 48 MiB-L3 Xeon, 2026-12-07).
template <class Stage, class Resolve>
JOINERY_DETAIL_ALWAYS_INLINE inline void stage_ahead(std::size_t from, std::size_t n, Stage& stage,
                                                     Resolve& resolve) {
  constexpr std::size_t last = stage_ring - 1;
  const std::size_t staged_first = std::min(n, from + stage_lead);
  for (std::size_t i = from; i < staged_first; ++i) stage(i & last, i);
  std::size_t i = from;
  for (const std::size_t steady = n > stage_lead ? n - stage_lead : 0; i < steady; ++i) {
    stage((i + stage_lead) & last, i + stage_lead);
    resolve(i & last, i);
  }
  for (; i < n; ++i) resolve(i & last, i);
}

/// How a build, fold or probe loop holds a callable it was given: its own
/// copy when copying is cheap and cannot be observed (`Copy`: a call cannot
/// change the object, or the caller does not see it again; small and
/// trivially copyable: typically a closure of references), else a
/// reference. In the loop's own frame the captured addresses stay in
/// registers; through a reference they are reloaded at every row.
template <class F, bool Copy>
struct loop_callable {
  using type = F&;
};
template <class F, bool Copy>
  requires(Copy && std::is_object_v<F> && std::is_trivially_copyable_v<std::remove_cv_t<F>> && sizeof(F) <= 64)
struct loop_callable<F, Copy> {
  using type = std::remove_cv_t<F>;
};
template <class F, bool Copy>
using loop_callable_t = typename loop_callable<F, Copy>::type;
/// A callable whose call operator is const: calling a copy of it changes
/// nothing the caller could see.
template <class F, class... Args>
inline constexpr bool const_callable = std::is_invocable_v<const F&, Args...>;
/// How a loop holds a `key_at(i)` and a `fold(acc, i)`.
template <class KeyAt>
using loop_key_at_t = loop_callable_t<KeyAt, const_callable<KeyAt, std::size_t>>;
template <class Fold, class Acc>
using loop_fold_t = loop_callable_t<Fold, const_callable<Fold, Acc&, std::size_t>>;

/// Keys the direct-address path can index: integers up to 64 bits (bool excluded).
template <class K>
concept direct_addressable =
    std::integral<K> && !std::same_as<K, bool> && sizeof(K) <= sizeof(std::uint64_t);
}  // namespace detail

/// Index of one side: canonical key -> that side's row positions in input order.
/// `Key` is a canonical key (see core/key.hpp): an integer, a string, or a tuple.
///
/// A built arrangement is read-only: `find`, `rows`, `probe_rows` (with an
/// explicit counter set) may run on several threads at once; only the
/// convenience counters of `find`/`matches` are single-threaded.
template <class Key, class Hash = key_hash<Key>>
class arrangement {
 public:
  /// How the index is laid out after `build` (for tests and benchmarks).
  /// `identity`: row i holds key min + i (a dense key in row order, e.g. a
  /// surrogate key): a probe is a subtraction and a bounds check.
  enum class layout { hashed, direct, identity };

  /// Probe rows per batch of the batched probe (the prefetch distance is
  /// one to two batches).
  static constexpr std::size_t probe_batch = 32;
  /// Table size above which a hashed build keeps a key filter: half the
  /// last-level cache (cache_size.hpp; below it, a filtered-out probe saves
  /// too little to pay for the filter's read and branch: measured in
  /// bench/plan and bench/peers).
  [[nodiscard]] static std::size_t filter_min_table_bytes() noexcept { return last_level_cache_bytes() / 2; }
  /// Table size from which a hashed build keeps a key filter for probe
  /// loops whose keys mostly miss, up to `filter_min_table_bytes`: past a
  /// core's L2 (1-2 MiB on the machines measured). 10^7 probes, AMD family
  /// 26 guest, 2026-12-06: anti into 10^5 keys (4 MiB), 90% missing
  /// 171-174 -> 118-122 ms, 75% missing 165-166 -> 159-161 ms; semi into
  /// 10^6 keys (32 MiB, below that guest's limit), 75% missing 336-345 ->
  /// 237-266 ms. With half missing, a filter read throughout took the 10^5
  /// keys' anti join 146-151 -> 193-211 ms: such a loop neither builds nor
  /// reads this one.
  static constexpr std::size_t filter_mostly_misses_min_table_bytes = std::size_t{4} << 20;
  /// Table size up to which a unique hashed build of integer keys without
  /// a key filter (`has_filter`) may be probed without guessing
  /// (`resolve_unique`): the cache one core reaches (cache_size.hpp).
  /// Beyond it the wait on the slot costs more than the mispredictions
  /// saved (a 32 MiB table with an 8 MiB L3, measured in bench/plan and
  /// bench/peers). A table as large as that cache gains: semi and anti
  /// 1e7 x 1e6 (a 32 MiB table, 32 MiB L3 by sysfs, AMD family 26,
  /// 2026-12-06, peers binaries alternately, 7 rounds, 1-thread medians of
  /// 5) with half the keys missing took semi 166-223 against 198-309 ms,
  /// anti 170-210 against 201-261 ms, when the limit was half the cache.
  [[nodiscard]] static std::size_t guessless_max_table_bytes() noexcept { return core_cache_bytes(); }
  /// Probes after which a probe loop stops reading the filter if it ruled
  /// out fewer than a quarter of them (a join whose keys mostly match), or,
  /// the filter not yet built, builds it if a quarter of them missed. A
  /// filter kept for probes that mostly miss (`has_filter_for_misses`) is
  /// built if five eighths missed, and read while it rules out half (about
  /// 9 in 10 absent keys are ruled out).
  static constexpr std::size_t filter_trial = 256;
  /// The first rows of a hashed build, which size its table (see
  /// `estimated_group_count`).
  static constexpr std::size_t sample_rows = 4096;

  arrangement() = default;

  /// Builds over rows [0, n). `key_at(i)` returns `std::optional<Key>`; an empty
  /// optional (a NULL key component) leaves row i out of every group.
  /// `key_at` must be a pure function of i: integer keys may be read twice
  /// (once for their range, once to insert).
  template <class KeyAt>
  void build(std::size_t n, KeyAt&& key_at) {
    build_impl(n, key_at, true);
  }

  /// Builds the grouping only, for a group-by or a cardinality check: group
  /// ids, `group_of_row`, `group_key`, `group_size`, `find`,
  /// `duplicate_group_count` and `unique` as after `build`, but without the
  /// CSR of row positions (one pass less when keys repeat). `rows`, `matches`
  /// and probes are for `build` only (here they see no rows unless unique()).
  template <class KeyAt>
  void build_groups(std::size_t n, KeyAt&& key_at) {
    build_impl(n, key_at, false);
  }

  /// Groups rows [0, n) as `build_groups` does and folds every keyed row
  /// into its group's accumulator: `fold(acc, i)` IN ROW ORDER, each
  /// group's accumulator starting as a copy of `init`. Returns the
  /// accumulators in group order (first appearance).
  ///
  /// A group-by in one pass: while the hashed table stays within
  /// `fold_in_table_max_bytes`, each accumulator sits in its group's slot
  /// (one cache line, prefetched with the slot, found with the key; the
  /// table, and so the slots kept afterwards, at most 0.35 full where that
  /// fits, 0.7 otherwise); a
  /// larger table keeps each row's group and folds in a second pass over
  /// the rows, whose independent accumulator reads overlap (measured
  /// faster beyond the cache). Afterwards `group_count`, `group_key`,
  /// `group_leader`, `group_size`, `duplicate_group_count`, `unique`,
  /// `find` (and, when the keys are distinct, probes) are as after
  /// `build_groups`; `group_of_row` is not kept (the fold has used it).
  /// An exception from `key_at` or `fold` propagates and leaves the
  /// arrangement empty. As `probe_rows` does, the loop calls its own copy
  /// of a `key_at` or `fold` whose call operator is const, when the copy is
  /// small and trivial. `table_limit_bytes` is the in-table limit: a fold
  /// running beside others on their own threads passes
  /// `fold_in_table_shared_max_bytes`.
  template <class Acc, class KeyAt, class Fold>
  [[nodiscard]] std::vector<Acc> fold_groups(std::size_t n, KeyAt&& key_at, const Acc& init, Fold&& fold,
                                             std::size_t table_limit_bytes = fold_in_table_max_bytes()) {
    clear();
    built_ = n;
    work_counters w;
    std::vector<Acc> acc;
    try {
      bool direct = false;
      if constexpr (detail::direct_addressable<Key>) direct = try_direct(n, key_at);
      const bool folded =
          direct ? fold_direct(n, key_at, init, fold, acc, w, table_limit_bytes)
                 : fold_hashed(n, key_at, init, fold, acc, w, table_limit_bytes);
      if (folded) {
        finish_fold();
        counters_ += w;
        return acc;
      }
      // Beyond the cache: the grouping build, then a pass in row order.
      build_impl(n, key_at, false);
      acc.assign(groups_, init);
      fold_in_row_order(n, acc, fold);
      detail::huge_page_vector<group_id>().swap(row_group_);  // not kept (see above)
      return acc;
    } catch (...) {
      clear();
      throw;
    }
  }

  /// The number of groups `n` rows will have, estimated from a build of
  /// their first rows (a sample): repeats among s sampled rows of G equally
  /// likely keys are about s^2/(2G); without repeats, every keyed row (the
  /// sample's share of them: a row with a NULL key founds no group).
  [[nodiscard]] std::size_t estimated_group_count(std::size_t n) const noexcept {
    return estimate_groups(n, built_);
  }
  /// True when `fold_groups` keeps accumulators of type `Acc` for `groups`
  /// groups in its table (one pass; see `fold_in_table_max_bytes`) under
  /// the in-table limit `table_limit_bytes`.
  template <class Acc>
  [[nodiscard]] static bool folds_in_table(std::size_t groups,
                                           std::size_t table_limit_bytes = fold_in_table_max_bytes()) noexcept {
    return detail::next_pow2(groups * 10 / 7 + 1) * sizeof(fold_slot<Acc>) <= table_limit_bytes;
  }
  /// Table size up to which `fold_groups` folds in its table (the
  /// accumulators in the slots), as the rows are inserted, by default: half
  /// the last-level cache (cache_size.hpp), as for the key filter. Beyond
  /// it a second pass over the rows was faster while a fold staged its rows
  /// in batches (10^6 groups with a 32 MiB cache); staged one at a time it
  /// is not, up to `fold_in_table_limit_bytes(n)`, which `exec::fold_groups`
  /// passes.
  [[nodiscard]] static std::size_t fold_in_table_max_bytes() noexcept { return last_level_cache_bytes() / 2; }
  /// The in-table limit of a fold of `n` rows on one thread (`exec::fold_groups`):
  /// `fold_in_table_max_bytes`, or `fold_table_bytes_per_row` bytes a row
  /// where that is more. Its rows staged ahead one at a time
  /// (`detail::stage_ahead`), a fold beyond the cache gathers no slower than
  /// the grouping build of the second pass does, which then writes and reads
  /// a group per row again, while the table costs its fill once: group-by of
  /// 10^7 rows, 10^6 groups, the 48 MiB-L3 Xeon (2026-12-07), in a 128 MiB
  /// table 214-217 ms, 64 MiB 252-265, in two passes 310-388; 3 x 10^6
  /// groups in 512 MiB 417-425 against 447-462; 6 x 10^6 in 1 GiB 908-932
  /// against 496-501.
  [[nodiscard]] static std::size_t fold_in_table_limit_bytes(std::size_t n) noexcept {
    return fold_in_table_limit_bytes(n, fold_in_table_max_bytes());
  }
  /// The same over the cache limit `cache_limit_bytes` (a fold beside
  /// others on their own threads: `fold_in_table_shared_max_bytes`; two
  /// threads, each folding 5 x 10^5 groups of 5 x 10^6 rows, 200-210 ->
  /// 159-165 ms).
  [[nodiscard]] static std::size_t fold_in_table_limit_bytes(std::size_t n, std::size_t cache_limit_bytes) noexcept {
    return std::max(cache_limit_bytes, n * fold_table_bytes_per_row);
  }
  static constexpr std::size_t fold_table_bytes_per_row = 16;
  /// The in-table limit of a fold running beside others on their own
  /// threads (the threaded `exec::fold_groups`): half the cache those limits
  /// were first measured on, whatever this machine's. With a 260 MiB cache,
  /// two threads folding 10^6 groups in tables up to half of it took 423-438
  /// ms against 269 ms with this limit (2026-12-02).
  static constexpr std::size_t fold_in_table_shared_max_bytes = detail::default_last_level_cache_bytes / 2;

  /// True when `rows`/`matches`/probes are available (built by `build`).
  [[nodiscard]] bool has_rows() const noexcept { return unique_ || !positions_.empty() || keyed_ == 0; }

 private:
  /// `estimated_group_count` from the first `sampled` of the `n` rows.
  [[nodiscard]] std::size_t estimate_groups(std::size_t n, std::size_t sampled) const noexcept {
    const std::size_t keyed = sampled == 0 ? n : n / sampled * keyed_ + n % sampled * keyed_ / sampled;
    const std::size_t d = groups_, repeats = keyed_ - d;
    return repeats == 0 ? keyed : std::min(keyed, d + keyed_ * keyed_ / (2 * repeats));
  }

  template <class KeyAt>
  void build_impl(std::size_t n, KeyAt& key_at, bool with_rows) {
    clear();
    built_ = n;
    work_counters w;
    bool direct = false;
    if constexpr (detail::direct_addressable<Key>) direct = try_direct(n, key_at);
    if (direct) {
      build_direct(n, key_at, w);
    } else {
      build_hashed(n, key_at, w);
    }
    finish_groups(n, with_rows);
    // Laid out by the first semi or anti probe loop (`keys_in_buckets`).
    if constexpr (detail::direct_addressable<Key>)
      if (with_rows && !direct && unique_ && groups_ != 0) key_buckets_.want();
    // Its bits come with the first probe loop that misses (`ensure_filter`).
    if (with_rows && !direct) {
      const std::size_t table_bytes = slots_.size() * sizeof(slot);
      if (table_bytes > filter_min_table_bytes()) filter_.want();
      else if (table_bytes >= filter_mostly_misses_min_table_bytes) filter_.want(/*mostly_misses=*/true);
    }
    counters_ += w;
  }

 public:

  /// The group of `k`, or `no_group`.
  [[nodiscard]] group_id find(const Key& k) const {
    ++counters_.probes;
    return lookup_group(k, counters_);
  }

  /// The group of each of `n` keys in turn: `f(i, find(key_at(i)))`, with
  /// `no_group` for a key not here; `key_at(i)` returns a `Key` (or a
  /// reference to one) and may be called twice for one i. The hashed
  /// layout's home slots are read a stretch of keys ahead (prefetched):
  /// keys in no particular order wait on each slot otherwise once the
  /// table is beyond L2.
  template <class KeyAt, class F>
  void find_each(std::size_t n, KeyAt&& key_at, F&& f) const {
    counters_.probes += n;
    if (groups_ == 0 || direct_layout()) {
      for (std::size_t i = 0; i < n; ++i) f(i, lookup_group(key_at(i), counters_));
      return;
    }
    constexpr std::size_t ahead = 16;
    std::uint64_t hashes[ahead];
    for (std::size_t i = 0; i < std::min(n, ahead); ++i) {
      hashes[i] = hash_(key_at(i));
      detail::prefetch_read(slots_.data() + slot_of(hashes[i]));
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t h = hashes[i % ahead];
      if (i + ahead < n) {
        hashes[i % ahead] = hash_(key_at(i + ahead));
        detail::prefetch_read(slots_.data() + slot_of(hashes[i % ahead]));
      }
      f(i, lookup_hashed(key_at(i), h, counters_));
    }
  }

  /// Build-side row positions of group `g`, in input order.
  [[nodiscard]] std::span<const row_pos> rows(group_id g) const noexcept {
    if (g == no_group) return {};
    if (unique_) {
      if (!direct_layout()) return {&slots_[group_slot_[g]].first, 1};
      return {positions_.data() + g, 1};
    }
    if (positions_.empty()) return {};  // a grouping-only build
    return {positions_.data() + offsets_[g], offsets_[g + 1] - offsets_[g]};
  }
  /// Build-side row positions matching `k`, in input order (empty if none).
  [[nodiscard]] std::span<const row_pos> matches(const Key& k) const {
    auto r = rows(find(k));
    counters_.emitted += r.size();
    return r;
  }

  [[nodiscard]] std::size_t group_count() const noexcept { return groups_; }
  [[nodiscard]] std::size_t group_size(group_id g) const noexcept {
    return unique_ ? 1 : offsets_[g + 1] - offsets_[g];
  }
  [[nodiscard]] const Key& group_key(group_id g) const noexcept {
    return direct_layout() ? keys_[g] : slots_[group_slot_[g]].key;
  }
  /// The row that founded group `g` (its first row).
  [[nodiscard]] row_pos group_leader(group_id g) const noexcept {
    if (identity_) return static_cast<row_pos>(g);
    if (!direct_layout()) return slots_[group_slot_[g]].first;
    return founders_.empty() ? positions_[g] : founders_[g];
  }
  /// Visits every group in group order: `f(g, key, leader)`. The hashed
  /// layout's slots are read a stretch of groups ahead (prefetched): its
  /// groups sit at random slots, and a pass that waited on each one is
  /// latency-bound beyond L2 (10^5 groups: about 10 ms).
  template <class F>
  void for_each_group(F&& f) const {
    if (direct_layout()) {
      for (std::size_t g = 0; g < groups_; ++g) {
        const auto id = static_cast<group_id>(g);
        f(id, keys_[g], group_leader(id));
      }
      return;
    }
    constexpr std::size_t ahead = 16;
    for (std::size_t g = 0; g < groups_; ++g) {
      if (g + ahead < groups_) detail::prefetch_read(slots_.data() + group_slot_[g + ahead]);
      const slot& sl = slots_[group_slot_[g]];
      f(static_cast<group_id>(g), sl.key, sl.first);
    }
  }
  /// Visits every group once, `f(g, key, leader)` as `for_each_group`
  /// does, in the hashed layout's slot order (in group order for another
  /// layout): one sequential pass over the slots, for a caller that keeps
  /// what it reads by group id, where group order reads them at random.
  template <class F>
  void for_each_group_in_slot_order(F&& f) const {
    if (direct_layout()) {
      for_each_group(f);
      return;
    }
    for (const slot& sl : slots_)
      if (sl.group != no_group) f(sl.group, sl.key, sl.first);
  }
  /// Group of build row i (`no_group` for a row with a NULL key component),
  /// after `build` or `build_groups` (not `fold_groups`).
  [[nodiscard]] group_id group_of_row(std::size_t i) const noexcept {
    // All keys distinct and none NULL: row i founded group i, nothing stored.
    return row_group_.empty() ? static_cast<group_id>(i) : row_group_[i];
  }
  /// Rows that entered a group (rows without a NULL key component).
  [[nodiscard]] std::size_t keyed_rows() const noexcept { return keyed_; }
  [[nodiscard]] std::size_t built_rows() const noexcept { return built_; }
  /// True when no key occurs twice: every probe returns at most one row.
  [[nodiscard]] bool unique() const noexcept { return unique_; }
  /// Number of groups with more than one row (the cardinality check's count),
  /// counted by the build itself.
  [[nodiscard]] std::size_t duplicate_group_count() const noexcept { return duplicate_groups_; }
  /// True when the arrangement keeps a key filter for every probe loop that
  /// misses often (a table beyond `filter_min_table_bytes`, see the file
  /// comment); its bits exist once `filter_built()`.
  [[nodiscard]] bool has_filter() const noexcept { return filter_.wanted() && !filter_.for_mostly_misses(); }
  /// True when it keeps one only for probe loops whose keys mostly miss
  /// (from `filter_mostly_misses_min_table_bytes` up to
  /// `filter_min_table_bytes`); its bits exist once `filter_built()`.
  [[nodiscard]] bool has_filter_for_misses() const noexcept { return filter_.for_mostly_misses(); }
  /// True when a probe loop whose caller stores each outcome resolves a
  /// batch of coin-toss hits and misses without guessing (see
  /// `guessless_max_table_bytes`). Not where the table keeps a key filter:
  /// that pair was not measured.
  [[nodiscard]] bool resolves_without_guessing() const noexcept {
    return detail::direct_addressable<Key> && unique_ && index_layout() == layout::hashed && !has_filter() &&
           slots_.size() * sizeof(slot) <= guessless_max_table_bytes();
  }
  /// True once a probe loop has built the key filter's bits.
  [[nodiscard]] bool filter_built() const noexcept { return filter_.built(); }
  /// The built key filter's size in bits (0 before): at least 8 per key.
  [[nodiscard]] std::size_t filter_size_bits() const noexcept { return filter_.built_bits(); }
  /// A unique hashed build's keys laid out in buckets of a cache line
  /// (key_buckets.hpp), for the probe loops of semi and anti joins: laid
  /// out on the first call, from any thread. Null for another build, and
  /// for one holding both ends of the key type (no key is free to mark an
  /// unfilled lane).
  [[nodiscard]] const detail::key_buckets<Key>* keys_in_buckets() const
    requires detail::direct_addressable<Key>
  {
    const detail::key_buckets<Key>* laid = key_buckets_.build_once([this] {
      return detail::key_buckets<Key>::lay_out(slots_.size(), groups_,
                                               [this](auto&& f) { this->for_every_slot(f); },
                                               [this](const Key& k) { return home_slot_of(k); });
    });
    return laid && !laid->empty() ? laid : nullptr;
  }
  /// True once `keys_in_buckets` has laid them out.
  [[nodiscard]] bool keys_in_buckets_built() const noexcept {
    if constexpr (detail::direct_addressable<Key>) return key_buckets_.built();
    else return false;
  }
  /// The direct layout's indexes: one per key from the smallest to the
  /// largest (0 unless the layout is `direct`).
  [[nodiscard]] std::size_t direct_extent() const noexcept { return direct_.size(); }
  /// The index of key `k` in the direct or identity layout (the key minus
  /// the smallest key), `direct_extent()` or more for a key outside the
  /// range: values laid out by key are found where the probe's group is.
  [[nodiscard]] std::uint64_t direct_index_of(const Key& k) const noexcept
    requires detail::direct_addressable<Key>
  {
    return direct_index(k);
  }
  /// Visits the direct layout's groups in key order, from the smallest key:
  /// `f(index, g, leader)` with the key's `direct_index_of`, its group and
  /// the group's founding row (nothing for another layout). The group ids
  /// are read in order; where every row founded its own group (distinct
  /// keys, none NULL) the founding row is the group id, else it is looked up.
  template <class F>
  void for_each_group_by_key(F&& f) const {
    if (index_layout() != layout::direct) return;
    const bool founded_by_own_row = unique_ && keyed_ == built_;
    for (std::size_t x = 0; x < direct_.size(); ++x) {
      const group_id g = direct_[x];
      if (g == no_group) continue;
      f(x, g, founded_by_own_row ? static_cast<row_pos>(g) : group_leader(g));
    }
  }
  /// The hashed layout's slots (0 unless the layout is `hashed`): a power
  /// of two. Key k sits at `home_slot_of(k)` or at a later slot, the next of
  /// slot s being (s + 1) & (hashed_extent() - 1), before the first empty
  /// one. Values laid out in buckets take their bucket from the home slot's
  /// high bits.
  [[nodiscard]] std::size_t hashed_extent() const noexcept { return direct_layout() ? 0 : slots_.size(); }
  /// The slot where the hashed layout's walk for key `k` starts: the top
  /// log2(hashed_extent()) bits of `hash_function()(k)`.
  [[nodiscard]] std::size_t home_slot_of(const Key& k) const noexcept { return slot_of(hash_(k)); }
  /// The hash of the hashed layout.
  [[nodiscard]] const Hash& hash_function() const noexcept { return hash_; }
  /// Visits the hashed layout's occupied slots in slot order: `f(s, key,
  /// leader)`, with the group's first row (nothing for another layout).
  template <class F>
  void for_each_slot(F&& f) const {
    if (direct_layout()) return;
    for (std::size_t s = 0; s < slots_.size(); ++s) {
      const slot& sl = slots_[s];
      if (sl.group != no_group) f(s, sl.key, sl.first);
    }
  }
  /// Visits every slot of the hashed layout in slot order, occupied or not:
  /// `f(s, key, leader, occupied)`; an empty slot's key and leader are
  /// unspecified. A pass that writes an entry for every slot runs without
  /// a branch on occupancy, which a table under 7/10 full mispredicts
  /// (nothing for another layout).
  template <class F>
  void for_every_slot(F&& f) const {
    if (direct_layout()) return;
    for (std::size_t s = 0; s < slots_.size(); ++s) {
      const slot& sl = slots_[s];
      f(s, sl.key, sl.first, sl.group != no_group);
    }
  }
  /// The layout `build` chose.
  [[nodiscard]] layout index_layout() const noexcept {
    return identity_ ? layout::identity : direct_.empty() ? layout::hashed : layout::direct;
  }

  [[nodiscard]] const work_counters& counters() const noexcept { return counters_; }
  void reset_counters() const noexcept { counters_ = {}; }
  /// Adds work done by a probe loop that counted into its own (per-thread) set.
  void add_work(const work_counters& w) const noexcept { counters_ += w; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return slots_.capacity() * sizeof(slot) + keys_.capacity() * sizeof(Key) +
           (offsets_.capacity() + positions_.capacity() + row_group_.capacity() +
            direct_.capacity() + group_slot_.capacity() + founders_.capacity()) *
               sizeof(row_pos) +
           filter_.memory_bytes() + key_buckets_memory_bytes();
  }

  void clear() {
    slots_.clear();
    group_slot_.clear();
    groups_ = 0;
    keys_.clear();
    offsets_.clear();
    positions_.clear();
    row_group_.clear();
    direct_.clear();
    founders_.clear();
    fold_sizes_.clear();
    filter_.reset();
    if constexpr (detail::direct_addressable<Key>) key_buckets_.reset();
    identity_ = false;
    direct_min_ = Key{};
    mask_ = 0;
    shift_ = 64;
    built_ = 0;
    keyed_ = 0;
    unique_ = true;
    duplicate_groups_ = 0;
  }

  /// The batched probe loop: for i in [begin, end), IN ORDER, calls
  /// `on(i, rows)` with the build positions matching probe row i (empty for a
  /// NULL key or no match). Rows go in batches of `probe_batch`: the keys of
  /// the NEXT batch are read and their slots prefetched before the current
  /// batch is resolved, so many cache misses are in flight at once. `key_at`
  /// therefore runs up to two batches ahead of `on`. The span is valid during
  /// the call. Work is counted into `out` (not into `counters()`), so
  /// disjoint ranges may run on different threads. The loop calls its own
  /// copy of `key_at` and `on` where nobody could tell: the copy is small
  /// and trivial (`detail::loop_callable_t`) and the call operator const
  /// (or `on` a temporary).
  ///
  /// `OutcomeStored`: the caller stores what each row found without
  /// branching on it (a position array, not an emit per match). Then, for a
  /// unique build of integer keys that fits in cache, batches whose hits and
  /// misses come at random are resolved without a branch on the outcome
  /// (`resolve_unique`). A caller that branches on the outcome anyway
  /// (emitting only matches) is faster with the ordinary loop, whose branch
  /// predicts the caller's too.
  template <bool OutcomeStored = false, class KeyAt, class On>
  void probe_rows(std::size_t begin, std::size_t end, KeyAt&& key_at, On&& on,
                  work_counters& out) const {
    if (begin >= end) return;
    constexpr bool owns_on = !std::is_lvalue_reference_v<On>;
    // One loop per layout, chosen once: no per-row layout branches.
    if (groups_ == 0) {
      probe_loop<probe_mode::empty, false, owns_on>(begin, end, key_at, on, out);
      return;
    }
    if constexpr (detail::direct_addressable<Key>) {
      if (identity_) {
        probe_loop<probe_mode::identity, false, owns_on>(begin, end, key_at, on, out);
        return;
      }
      if (!direct_.empty()) {
        if (unique_) probe_loop<probe_mode::direct_unique, false, owns_on>(begin, end, key_at, on, out);
        else probe_loop<probe_mode::direct_groups, false, owns_on>(begin, end, key_at, on, out);
        return;
      }
    }
    {
      if (unique_) probe_loop<probe_mode::hashed_unique, OutcomeStored, owns_on>(begin, end, key_at, on, out);
      else probe_loop<probe_mode::hashed_groups, false, owns_on>(begin, end, key_at, on, out);
    }
  }

 private:

  enum class probe_mode { empty, identity, direct_unique, direct_groups, hashed_unique, hashed_groups };

  [[nodiscard]] bool direct_layout() const noexcept { return identity_ || !direct_.empty(); }

  /// `OwnsOn`: `on` was handed over as a temporary (see `loop_callable_t`).
  template <probe_mode M, bool OutcomeStored, bool OwnsOn, class KeyAtRef, class OnRef>
  void probe_loop(std::size_t begin, std::size_t end, KeyAtRef& key_at_given, OnRef& on_given,
                  work_counters& out) const {
    // Out of line, 1e7 x 1e5 count+sum, 2 MiB-L2 Xeon: 1.45x -> 1.33x the
    // time of the hand-written flat join (with `probe_prefetched`'s flag).
    detail::loop_key_at_t<KeyAtRef> key_at = key_at_given;
    detail::loop_callable_t<OnRef, OwnsOn || detail::const_callable<OnRef, std::size_t, std::span<const row_pos>>> on =
        on_given;
    constexpr std::size_t B = probe_batch;
    constexpr bool is_direct =
        M == probe_mode::direct_unique || M == probe_mode::direct_groups || M == probe_mode::identity;
    constexpr bool is_unique =
        M == probe_mode::direct_unique || M == probe_mode::hashed_unique || M == probe_mode::identity;
    // Counted locally (registers, no sharing between threads), handed out at the end.
    work_counters w;
    struct flush {
      work_counters& from;
      work_counters& to;
      ~flush() { to += from; }
    } flush_at_exit{w, out};
    // Two batches of staged keys: the next one is read and prefetched while
    // the current one is resolved.
    struct staged {
      Key key[B];
      bool has[B];
      std::uint64_t pos[B];  // hashed: the home slot; direct: the array index
    };
    // The key filter, read while it rules out at least a quarter of the
    // probes (half for one kept for mostly-missing probes). Not
    // built yet: the first `filter_trial` probes, resolved without it,
    // decide whether to build it (`missed`).
    detail::key_filter::view filter = filter_.bits();
    bool use_filter = filter.bits != nullptr;
    bool filter_trial_pending = !use_filter && filter_.wanted();
    // Misses out of 8 that build it, rule-outs out of 8 that keep it read.
    const bool mostly_misses = filter_.for_mostly_misses();
    const std::size_t build_eighths = mostly_misses ? 5 : 2, read_eighths = mostly_misses ? 4 : 2;
    std::size_t filter_seen = 0, filter_out = 0, missed = 0;
    staged buf[2];
    // Whether the last batch's hits and misses came as a coin toss (see
    // `guessless_mode` below).
    bool coin_toss = false;
    auto stage = [&]<bool NextLine>(staged& st, std::size_t base, std::size_t cnt) JOINERY_DETAIL_ALWAYS_INLINE {
      for (std::size_t t = 0; t < cnt; ++t) {
        std::optional<Key> k = key_at(base + t);
        st.has[t] = k.has_value();
        if (!k) continue;
        if constexpr (M == probe_mode::empty) {
          (void)k;
        } else if constexpr (is_direct) {
          // The index is the key: nothing else to keep.
          const std::uint64_t idx = direct_index(*k);
          st.pos[t] = idx;
          if constexpr (M != probe_mode::identity)
            if (idx < direct_.size()) detail::prefetch_read(direct_.data() + idx);
        } else {
          const std::uint64_t h = hash_(*k);
          const std::size_t home = slot_of(h);
          // The prefetch does not wait for the filter; a filtered-out key
          // is resolved without waiting for its slot.
          detail::prefetch_read(slots_.data() + home);
          // And, with `NextLine`, the line of the slot after it: a walk from
          // the last slot of a line (a quarter of the homes) would otherwise
          // wait on memory.
          if constexpr (NextLine) detail::prefetch_read(slots_.data() + ((home + 1) & mask_));
          bool maybe = true;
          if (use_filter) {
            maybe = filter.may_contain(h);
            ++filter_seen;
            filter_out += !maybe;
          }
          st.pos[t] = maybe ? home : absent;
          st.key[t] = std::move(*k);
        }
      }
    };
    // Direct+unique: group g was founded by row g (no NULL row, no row map).
    const bool row_is_group = row_group_.empty() && keyed_ == built_;
    // Hashed+unique, integer keys, outcome stored by the caller: when hit or
    // miss is a coin toss (measured on the last batch), `resolve_unique`
    // reads the home slot without a guess, in a table that fits the cache
    // of one core (`resolves_without_guessing`).
    constexpr bool guessless_mode =
        OutcomeStored && M == probe_mode::hashed_unique && detail::direct_addressable<Key>;
    const bool guessless_allowed = guessless_mode && resolves_without_guessing();
    // Resolves one staged batch: `on` for each row, in order.
    auto resolve = [&]<bool Guessless>(const staged& st, std::size_t base, std::size_t cnt)
                       JOINERY_DETAIL_ALWAYS_INLINE {
      for (std::size_t t = 0; t < cnt; ++t) {
        std::span<const row_pos> found;
        row_pos one = 0;
        if (st.has[t]) {
          ++w.probes;
          if constexpr (M == probe_mode::empty) {
          } else if constexpr (M == probe_mode::identity) {
            if (st.pos[t] < groups_) {
              one = static_cast<row_pos>(st.pos[t]);
              found = {&one, 1};
            }
          } else if constexpr (is_direct) {
            const group_id g = st.pos[t] < direct_.size() ? direct_[st.pos[t]] : no_group;
            if (g != no_group) {
              if constexpr (is_unique) {
                one = row_is_group ? g : positions_[g];
                found = {&one, 1};
              } else {
                found = rows(g);
              }
            }
          } else if constexpr (Guessless) {
            if (st.pos[t] != absent) {
              one = resolve_unique(st.key[t], static_cast<std::size_t>(st.pos[t]), w);
              found = {&one, one != no_match};
            }
          } else if (const slot* sl = st.pos[t] == absent
                                          ? nullptr
                                          : find_slot(st.key[t], static_cast<std::size_t>(st.pos[t]), w)) {
            if constexpr (is_unique) {
              one = sl->first;  // unique build: the row sits in the slot, no second gather
              found = {&one, 1};
            } else {
              found = rows(sl->group);
            }
          }
          w.emitted += found.size();
          missed += found.empty();
        }
        on(base + t, found);
      }
    };
    std::size_t base = begin, cnt = std::min(B, end - begin);
    // The line after the home is worth its fetch where a walk stalls the
    // loop: an emit that branches on the outcome, or a coin-toss batch. A
    // stored-outcome probe of predictable hits runs ahead of its walks
    // already, and there the extra lines only crowd the misses in flight
    // (materialize 1e7 x 1e5 on a 2 MiB-L2 Xeon: 243 -> 329 ms CPU). Only a
    // hashed layout walks; only a stored-outcome loop needs both copies.
    auto stage_next = [&](staged& st, std::size_t b, std::size_t n) JOINERY_DETAIL_ALWAYS_INLINE {
      constexpr bool walks = M == probe_mode::hashed_unique || M == probe_mode::hashed_groups;
      if constexpr (!walks) {
        stage.template operator()<false>(st, b, n);
      } else if constexpr (!OutcomeStored) {
        stage.template operator()<true>(st, b, n);
      } else if (coin_toss) {
        stage.template operator()<true>(st, b, n);
      } else {
        stage.template operator()<false>(st, b, n);
      }
    };
    stage_next(buf[0], base, cnt);
    for (unsigned cur = 0; cnt != 0; cur ^= 1U) {
      const std::size_t next = base + cnt, next_cnt = std::min(B, end - next);
      if (next_cnt) stage_next(buf[cur ^ 1U], next, next_cnt);
      if (use_filter && filter_seen >= filter_trial && filter_out * 8 < filter_seen * read_eighths) use_filter = false;
      if (filter_trial_pending && w.probes >= filter_trial) {
        filter_trial_pending = false;
        if (missed * 8 >= w.probes * build_eighths) {
          filter = ensure_filter();
          use_filter = true;
        }
      }
      if constexpr (guessless_mode) {
        const std::uint64_t emitted_before = w.emitted;
        if (coin_toss) resolve.template operator()<true>(buf[cur], base, cnt);
        else resolve.template operator()<false>(buf[cur], base, cnt);
        // Between 1/8 and 7/8 of this batch missed: resolve the next one without guessing.
        const std::uint64_t misses = cnt - (w.emitted - emitted_before);
        coin_toss = guessless_allowed && misses * 8 >= cnt && misses * 8 <= 7 * cnt;
      } else {
        resolve.template operator()<false>(buf[cur], base, cnt);
      }
      base = next;
      cnt = next_cnt;
    }
  }
  struct slot {
    Key key{};
    group_id group = no_group;
    row_pos first = 0;  // row that founded the group (the match of a unique build)
  };

  /// `resolve_unique`'s "no row".
  static constexpr row_pos no_match = std::numeric_limits<row_pos>::max();
  /// A staged probe the filter ruled out.
  static constexpr std::uint64_t absent = ~std::uint64_t{0};

  /// The key filter's bits, built from the slots if no probe loop has yet
  /// (the bit of hash h is its low bits: the slot uses its high ones).
  detail::key_filter::view ensure_filter() const {
    return filter_.build_once(groups_, [this](auto set_bit) {
      for (const slot& sl : slots_)
        if (sl.group != no_group) set_bit(hash_(sl.key));
    });
  }

  [[nodiscard]] std::size_t slot_of(std::uint64_t h) const noexcept {
    return static_cast<std::size_t>(h >> shift_) & mask_;
  }

  [[nodiscard]] std::uint64_t direct_index(const Key& k) const noexcept {
    // Unsigned wrap-around: keys below the minimum land far out of range.
    return static_cast<std::uint64_t>(k) - static_cast<std::uint64_t>(direct_min_);
  }

  [[nodiscard]] const slot* find_slot(const Key& k, std::size_t s, work_counters& w) const {
    for (;;) {
      const slot& sl = slots_[s];
      if (sl.group == no_group) return nullptr;
      ++w.comparisons;
      if (sl.key == k) return &sl;
      s = (s + 1) & mask_;
    }
  }

  /// The row of integer key `k` in a unique build, or `no_match`, from its
  /// home slot `s`, for a probe stream whose hits and misses a predictor
  /// cannot learn: the home slot is resolved with arithmetic, and only a
  /// probe whose home holds another key (the minority) branches to walk on.
  [[nodiscard, gnu::always_inline]] row_pos resolve_unique(const Key& k, std::size_t s, work_counters& w) const {
    const slot& sl = slots_[s];
    const bool occupied = sl.group != no_group;
    const bool hit = occupied & (sl.key == k);
    std::uint32_t walk = occupied & !hit;
#if defined(__GNUC__) || defined(__clang__)
    // Opaque to the optimiser, which would otherwise rebuild the select
    // below into the branches this function exists to avoid.
    __asm__("" : "+r"(walk));
#endif
    w.comparisons += occupied;
    const row_pos one = sl.first | (static_cast<row_pos>(hit) - 1U);  // no_match unless a hit
    if (walk) [[unlikely]] {
      const slot* next = find_slot(k, (s + 1) & mask_, w);
      return next ? next->first : no_match;
    }
    return one;
  }

  [[nodiscard]] group_id lookup_group(const Key& k, work_counters& w) const {
    if (groups_ == 0) return no_group;
    if constexpr (detail::direct_addressable<Key>) {
      if (identity_) {
        const std::uint64_t idx = direct_index(k);
        return idx < groups_ ? static_cast<group_id>(idx) : no_group;
      }
      if (!direct_.empty()) {
        const std::uint64_t idx = direct_index(k);
        return idx < direct_.size() ? direct_[idx] : no_group;
      }
    }
    return lookup_hashed(k, hash_(k), w);
  }
  /// `lookup_group` in the hashed layout, of a key whose hash is `h`.
  [[nodiscard]] group_id lookup_hashed(const Key& k, std::uint64_t h, work_counters& w) const {
    if (const auto f = filter_.bits(); f.bits && !f.may_contain(h)) return no_group;
    const slot* sl = find_slot(k, slot_of(h), w);
    return sl ? sl->group : no_group;
  }

  /// Load factor at most 7/10: linear probing stays short (about 2 slots per
  /// hit, mostly in one cache line) and 10^7 keys fit 2^24 slots, not 2^25.
  [[nodiscard]] static bool overloaded(std::size_t keys, std::size_t cap) noexcept { return keys * 10 > cap * 7; }

  void init_table(std::size_t expected) {
    const std::size_t cap = detail::next_pow2(expected * 10 / 7 + 1);
    slots_.assign(cap, slot{});
    set_capacity(cap);
  }
  /// The mask and shift of a table of `cap` slots (a power of two).
  void set_capacity(std::size_t cap) noexcept {
    mask_ = cap - 1;
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(cap));
  }

  /// Rehashes into a table sized for `expected` keys at load <= 7/10.
  void rehash(std::size_t expected) {
    rehash_table(slots_, detail::next_pow2(expected * 10 / 7 + 1), slot{}, [](slot& e) -> slot& { return e; });
  }

  /// Moves every occupied entry of `table` (`base(entry)` is its slot) into
  /// a fresh table of `cap` entries (each `empty`), at its key's home slot
  /// or the first free one after it, and records its new slot.
  template <class T, class Base>
  void rehash_table(detail::huge_page_vector<T>& table, std::size_t cap, const T& empty, Base base) {
    detail::huge_page_vector<T> old = std::move(table);
    set_capacity(cap);
    table.assign(cap, empty);
    for (T& e : old) {
      if (base(e).group == no_group) continue;
      std::size_t to = slot_of(hash_(base(e).key));
      while (base(table[to]).group != no_group) to = (to + 1) & mask_;
      group_slot_[base(e).group] = static_cast<std::uint32_t>(to);
      table[to] = std::move(e);
    }
  }

  /// The slot of `table` (`mask` + 1 slots) that holds `k`, walking on from
  /// slot `s`, or the empty slot that ends the walk; each occupied slot met
  /// counts a comparison. The build's walk (`insert_hashed`, `insert_distinct`).
  [[gnu::always_inline]] static std::size_t walk_to_key(const slot* table, std::size_t mask, std::size_t s,
                                                         const Key& k, std::uint64_t& comparisons) {
    for (; table[s].group != no_group; s = (s + 1) & mask) {
      ++comparisons;
      if (table[s].key == k) break;
    }
    return s;
  }

  /// Group of `k`, founding a new one (with row i) when the key is new.
  group_id insert(Key&& k, std::size_t i, work_counters& w) {
    const std::uint64_t h = hash_(k);
    return insert_hashed(std::move(k), h, i, w);
  }
  // Inlined into the build loops: as a call, the 10^7-row plan group-by
  // spent 40% of its time in it (8% faster inlined).
  [[gnu::always_inline]] group_id insert_hashed(Key&& k, std::uint64_t h, std::size_t i, work_counters& w) {
    ++w.inserts;
    const std::size_t s = walk_to_key(slots_.data(), mask_, slot_of(h), k, w.comparisons);
    if (slots_[s].group != no_group) return slots_[s].group;
    const auto g = static_cast<group_id>(groups_++);
    slots_[s].key = std::move(k);
    slots_[s].group = g;
    slots_[s].first = static_cast<row_pos>(i);
    group_slot_.push_back(static_cast<std::uint32_t>(s));
    if (overloaded(groups_, slots_.size())) rehash(slots_.size());  // doubles the table
    return g;
  }

  /// Decides the direct-address layout from the key range (integers only).
  template <class KeyAtRef>
  bool try_direct(std::size_t n, KeyAtRef& key_at_given) {
    detail::loop_key_at_t<KeyAtRef> key_at = key_at_given;
    std::size_t i = 0;
    std::optional<Key> first;
    while (i < n && !(first = key_at(i))) ++i;
    if (!first) return false;
    bool ident = i == 0;  // no NULL and key(i) == key(0) + i so far
    Key lo = *first, hi = *first;
    std::size_t keyed = 1;
    // Blocks of 4096 rows without a branch on the keys (a NULL leaves the
    // range as it is). The range only grows: once it is too wide for n
    // rows at a block's end, the scan stops (sparse keys leave after the
    // first block, not after a full pass).
    for (++i; i < n;) {
      for (const std::size_t block_end = std::min(n, (i | 4095) + 1); i < block_end; ++i) {
        const std::optional<Key> k = key_at(i);
        const Key v = k.value_or(*first);
        keyed += k.has_value();
        ident &= k.has_value();
        ident &= static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(*first) == i;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      if ((i & 4095) == 0 &&
          static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) >= 2 * static_cast<std::uint64_t>(n) + 1024)
        return false;
    }
    if (ident && n < no_group) {  // rows hold key(0), key(0)+1, ...
      identity_ = true;
      direct_min_ = *first;
      return true;
    }
    const std::uint64_t range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    // An array of 4-byte group ids at most ~2 entries per keyed row (a hash
    // table spends 32 bytes per key), and never above 256 Mi entries.
    if (range >= 2 * static_cast<std::uint64_t>(keyed) + 1024 || range >= (std::uint64_t{1} << 28))
      return false;
    direct_min_ = lo;
    direct_.assign(static_cast<std::size_t>(range) + 1, no_group);
    return true;
  }

  /// Starts the per-row group map at row i, the first NULL or repeated key:
  /// every row before it founded its own group (group r = row r).
  void start_row_map(std::size_t n, std::size_t i) {
    row_group_.resize(n);
    for (std::size_t r = 0; r < i; ++r) row_group_[r] = static_cast<group_id>(r);
  }

  /// The direct layout's group of key `k` at build row i, founded when new
  /// (its key and founding row kept; `founded` says so).
  [[gnu::always_inline]] group_id direct_group(const Key& k, std::size_t i, work_counters& w, bool& founded) {
    ++w.inserts;
    ++keyed_;
    group_id& d = direct_[static_cast<std::size_t>(direct_index(k))];
    founded = d == no_group;
    if (founded) {
      d = static_cast<group_id>(groups_++);
      keys_.push_back(k);
      positions_.push_back(static_cast<row_pos>(i));  // founding rows; a CSR may replace them
    }
    return d;
  }

  template <class KeyAtRef>
  void build_direct(std::size_t n, KeyAtRef& key_at_given, work_counters& w) {
    detail::loop_key_at_t<KeyAtRef> key_at = key_at_given;
    if constexpr (detail::direct_addressable<Key>) {
      if (identity_) {
        // Row g founded group g with key min + g: kept for group_key / rows.
        w.inserts += n;
        keyed_ = groups_ = n;
        keys_.resize(n);
        positions_.resize(n);
        for (std::size_t g = 0; g < n; ++g) {
          keys_[g] = static_cast<Key>(static_cast<std::uint64_t>(direct_min_) + g);
          positions_[g] = static_cast<row_pos>(g);
        }
        return;
      }
      bool mapped = false;
      auto put = [&](std::size_t i) JOINERY_DETAIL_ALWAYS_INLINE {
        std::optional<Key> k = key_at(i);
        if (!k) {
          if (!mapped) start_row_map(n, i), mapped = true;
          row_group_[i] = no_group;
          return;
        }
        bool founded = false;
        const group_id d = direct_group(*k, i, w, founded);
        if (!founded) {
          unique_ = false;
          if (!mapped) start_row_map(n, i), mapped = true;
        }
        if (mapped) row_group_[i] = d;
      };
      // The group arrays are sized from a sample of the first rows, as a
      // hashed table is (`presize`): grown by doubling, each build wrote
      // every smaller block once, fresh pages each (see huge_page_allocator.hpp).
      const std::size_t head = std::min(n, sample_rows);
      for (std::size_t i = 0; i < head; ++i) put(i);
      if (head < n && keyed_ > 0) {
        const std::size_t expected = std::min(estimate_groups(n, head), direct_.size());
        keys_.reserve(expected);
        positions_.reserve(expected);
      }
      for (std::size_t i = head; i < n; ++i) put(i);
    } else {
      (void)n, (void)key_at, (void)w;
    }
  }

  template <class KeyAtRef>
  void build_hashed(std::size_t n, KeyAtRef& key_at_given, work_counters& w) {
    detail::loop_key_at_t<KeyAtRef> key_at = key_at_given;
    bool mapped = false;
    // One build row: insert, and keep the row map once it exists.
    auto put = [&](std::size_t i, Key* k, std::uint64_t h) {
      if (!k) {
        if (!mapped) start_row_map(n, i), mapped = true;
        row_group_[i] = no_group;
        return;
      }
      ++keyed_;
      const std::size_t before = groups_;
      const group_id g = insert_hashed(std::move(*k), h, i, w);
      if (groups_ == before) {
        unique_ = false;
        if (!mapped) start_row_map(n, i), mapped = true;
      }
      if (mapped) row_group_[i] = g;
    };
    // The table is sized from a sample of the first rows (`presize`).
    const std::size_t head = std::min(n, sample_rows);
    init_table(head);
    for (std::size_t i = 0; i < head; ++i) {
      std::optional<Key> k = key_at(i);
      put(i, k ? &*k : nullptr, k ? hash_(*k) : 0);
    }
    if (head < n && keyed_ > 0) {
      const std::size_t expected = estimate_groups(n, head);
      presize(expected);
    }
    // The rest in input order, each row staged (read, hashed, home slot
    // and the slot after it prefetched) `detail::stage_lead` rows before
    // it is inserted, as `detail::stage_ahead` does; in chunks of
    // `probe_batch` rows, whose distinct keys go in at once.
    staged_keys st;
    constexpr std::size_t last = detail::stage_ring - 1;
    auto stage = [&](std::size_t r) JOINERY_DETAIL_ALWAYS_INLINE {
      if (r < n) stage_key<true>(st, r & last, r, key_at, slots_.data(), shift_, mask_);
    };
    for (std::size_t r = head; r < std::min(n, head + detail::stage_lead); ++r) stage(r);
    for (std::size_t i = head; i < n;) {
      const std::size_t end = std::min(n, i + probe_batch);
      // Rows of distinct keys first (the whole chunk, in a build of
      // distinct keys), then the rest one by one from the first NULL or
      // repeated key.
      bool ahead_staged = false;
      if (!mapped && !overloaded(groups_ + (end - i), slots_.size()))
        i = insert_distinct(st, i, end, n, key_at, w, ahead_staged);
      for (; i < end; ++i) {
        if (!ahead_staged) stage(i + detail::stage_lead);
        ahead_staged = false;
        const std::size_t t = i & last;
        put(i, st.has[t] ? &st.key[t] : nullptr, st.hash[t]);
      }
    }
  }

  /// The ring of staged build or fold rows (`detail::stage_ahead`): keys
  /// read and hashed, home slots prefetched.
  struct staged_keys {
    Key key[detail::stage_ring];
    std::uint64_t hash[detail::stage_ring];
    bool has[detail::stage_ring];  // false: a NULL key
  };
  /// Inserts rows [i, end), staged in the ring `st`, up to the first NULL
  /// or repeated key, each founding a group as `insert` does, staging row
  /// r + stage_lead (below n) before row r; returns the first row not
  /// inserted (`ahead_staged`: its row + stage_lead is staged already).
  /// The caller makes sure the table cannot fill up in the chunk (no
  /// rehash) and that no row map is kept yet.
  /// The table, its mask and the group count are locals here: through the
  /// members, each key stored into a slot may alias them (an integer key
  /// and `std::size_t` do), so they were read again for every row. A build
  /// of 10^5 distinct keys (stand-alone, min of 100, against the flat
  /// table's build in the same binary, the 48 MiB-L3 Xeon, 2026-12-07):
  /// 2.0-2.7 -> 1.5-1.7 ms (the flat table's 1.1-1.8); 10^6 keys 39-42 ->
  /// 34-35 ms.
  template <class KeyAt>
  std::size_t insert_distinct(staged_keys& st, std::size_t i, std::size_t end, std::size_t n, KeyAt& key_at,
                              work_counters& w, bool& ahead_staged) {
    slot* const table = slots_.data();
    const std::size_t mask = mask_;
    const unsigned shift = shift_;
    constexpr std::size_t last = detail::stage_ring - 1;
    std::uint32_t founded_at[probe_batch];
    const std::size_t from = i;
    std::size_t groups = groups_;
    std::uint64_t comparisons = 0;
    for (; i < end; ++i) {
      // Row i + stage_lead staged first, as `stage_ahead` does (the caller
      // is told when the row that stops the loop has had it staged).
      if (i + detail::stage_lead < n)
        stage_key<true>(st, (i + detail::stage_lead) & last, i + detail::stage_lead, key_at, table, shift, mask);
      ahead_staged = true;
      const std::size_t t = i & last;
      if (!st.has[t]) break;
      std::uint64_t walked = 0;  // comparisons of this row: counted once it is inserted here
      const std::size_t s =
          walk_to_key(table, mask, static_cast<std::size_t>(st.hash[t] >> shift) & mask, st.key[t], walked);
      if (table[s].group != no_group) break;  // repeated: `put` takes it, and counts its comparisons
      comparisons += walked;
      table[s].key = std::move(st.key[t]);
      table[s].group = static_cast<group_id>(groups++);
      table[s].first = static_cast<row_pos>(i);
      founded_at[i - from] = static_cast<std::uint32_t>(s);
      ahead_staged = false;
    }
    const std::size_t inserted = i - from;
    group_slot_.insert(group_slot_.end(), founded_at, founded_at + inserted);
    w.inserts += inserted;
    w.comparisons += comparisons;
    keyed_ += inserted;
    groups_ = groups;
    return i;
  }
  /// Stages row `i` as entry `t` of the ring; `table` is the slot array
  /// whose home slot (`shift`, `mask` as `slot_of`: a fold passes its own
  /// copies, which its accumulator writes cannot alias) is prefetched,
  /// with `NextLine` the slot after it too (a walk into the next line).
  template <bool NextLine, class KeyAt, class T>
  JOINERY_DETAIL_ALWAYS_INLINE void stage_key(staged_keys& st, std::size_t t, std::size_t i, KeyAt& key_at,
                                              const T* table, unsigned shift, std::size_t mask) const {
    std::optional<Key> k = key_at(i);
    st.has[t] = k.has_value();
    if (!k) return;
    const std::uint64_t h = hash_(*k);
    st.hash[t] = h;
    st.key[t] = std::move(*k);
    const std::size_t home = static_cast<std::size_t>(h >> shift) & mask;
    detail::prefetch_read(table + home);
    if constexpr (NextLine) detail::prefetch_read(table + ((home + 1) & mask));
  }

  /// Sizes the table for `expected` keys: a build of distinct keys gets its
  /// final table at once (no rehash chain), one with few groups keeps a
  /// table that stays in cache.
  void presize(std::size_t expected) {
    if (overloaded(expected, slots_.size())) rehash(expected);
    group_slot_.reserve(expected);
  }

  /// `fold_groups` over the direct layout, when the array and the
  /// accumulators fit in `fold_in_table_max_bytes`: group ids from the
  /// array, the accumulators in group order, folded as the rows are
  /// grouped. Returns false (nothing done) otherwise.
  template <class Acc, class KeyAtRef, class FoldRef>
  bool fold_direct(std::size_t n, KeyAtRef& key_at_given, const Acc& init, FoldRef& fold_given,
                   std::vector<Acc>& acc, work_counters& w, std::size_t limit) {
    detail::loop_key_at_t<KeyAtRef> key_at = key_at_given;
    detail::loop_fold_t<FoldRef, Acc> fold = fold_given;
    if constexpr (detail::direct_addressable<Key>) {
      // Within the cache only: its rows read the array, the accumulator and
      // the count without a prefetch.
      if (identity_ || direct_.size() * (sizeof(group_id) + sizeof(Acc) + sizeof(row_pos)) >
                           std::min(limit, fold_in_table_max_bytes()))
        return false;
      for (std::size_t i = 0; i < n; ++i) {
        std::optional<Key> k = key_at(i);
        if (!k) continue;
        bool founded = false;
        const group_id d = direct_group(*k, i, w, founded);
        if (founded) {
          fold_sizes_.push_back(0);
          acc.push_back(init);
        }
        ++fold_sizes_[d];
        fold(acc[d], i);
      }
      return true;
    } else {
      (void)n, (void)key_at, (void)init, (void)fold, (void)acc, (void)w, (void)limit;
      return false;
    }
  }

  /// `fold_groups` beyond the in-table limit, after the grouping build:
  /// each keyed row folded into `acc[its group]`, in row order. The
  /// accumulators are gathered at random (beyond the cache); each one is
  /// prefetched a stretch of rows ahead (10^6 groups of 10^7 rows: the pass
  /// 80-94 -> 53-59 ms, measured).
  template <class Acc, class Fold>
  void fold_in_row_order(std::size_t n, std::vector<Acc>& acc, Fold& fold) const {
    if (row_group_.empty()) {  // row i founded group i
      for (std::size_t i = 0; i < n; ++i) fold(acc[i], i);
      return;
    }
    constexpr std::size_t ahead = 16;
    const group_id* group = row_group_.data();
    const std::size_t lead = n > ahead ? n - ahead : 0;
    std::size_t i = 0;
    for (; i < lead; ++i) {
      const group_id later = group[i + ahead];
      detail::prefetch_read(acc.data() + (later == no_group ? 0 : later));
      if (group[i] != no_group) fold(acc[group[i]], i);
    }
    for (; i < n; ++i)
      if (group[i] != no_group) fold(acc[group[i]], i);
  }

  /// A slot of `fold_groups`' table: the arrangement's slot and the group's
  /// accumulator, found in one cache line.
  template <class Acc>
  struct fold_slot {
    slot base;
    Acc acc;
  };

  /// `fold_groups` over the hashed layout: the accumulators sit in the
  /// slots while the rows are folded (one gather per row), and the
  /// arrangement's slots are cut out of them at the end.
  template <class Acc, class KeyAtRef, class FoldRef>
  bool fold_hashed(std::size_t n, KeyAtRef& key_at_given, const Acc& init, FoldRef& fold_given,
                   std::vector<Acc>& acc, work_counters& w, std::size_t limit) {
    // The loop's own copies (see `probe_loop`). 1e7 rows, 1e5 groups, out
    // of line: 1.29x -> 1.16x the time of a hand-written group-by.
    detail::loop_key_at_t<KeyAtRef> key_at = key_at_given;
    detail::loop_fold_t<FoldRef, Acc> fold = fold_given;
    // While folding, a slot's `first` counts the group's rows and
    // `founders_` keeps the founding rows. The first rows size the table
    // (as `presize` does).
    const std::size_t head = std::min(n, sample_rows);
    detail::huge_page_vector<fold_slot<Acc>> table;
    set_capacity(detail::next_pow2(head * 10 / 7 + 1));
    table.assign(mask_ + 1, fold_slot<Acc>{slot{}, init});
    // The table's fields in locals: the caller's fold writes memory the
    // compiler cannot tell apart from them (an int64 sum may alias a count).
    fold_slot<Acc>* t_data = table.data();
    std::size_t mask = mask_;
    unsigned shift = shift_;
    std::uint64_t keyed = 0, comparisons = 0;
    // Row i (key k, home slot s) into its group, found or founded: its slot.
    auto locate = [&](Key&& k, std::size_t s, std::size_t i) JOINERY_DETAIL_ALWAYS_INLINE -> std::size_t {
      ++keyed;
      for (;;) {
        const slot& sl = t_data[s].base;
        if (sl.group == no_group) [[unlikely]] {
          s = found_group(table, std::move(k), s, i, init);
          t_data = table.data();  // the table may have grown
          mask = mask_;
          shift = shift_;
          break;
        }
        ++comparisons;
        if (sl.key == k) break;
        s = (s + 1) & mask;
      }
      ++t_data[s].base.first;
      return s;
    };
    // The sample is grouped before anything is folded: a table beyond the
    // limit is built as `build_groups` does instead (nothing folded twice).
    std::vector<group_id> head_groups(head, no_group);
    for (std::size_t i = 0; i < head; ++i) {
      std::optional<Key> k = key_at(i);
      if (!k) continue;
      const std::size_t home = slot_of(hash_(*k));
      const std::size_t s = locate(std::move(*k), home, i);  // may move the table
      head_groups[i] = t_data[s].base.group;
    }
    keyed_ = keyed;
    if (head < n && keyed > 0) {
      const std::size_t expected = estimate_groups(n, head);
      if (!folds_in_table<Acc>(expected, limit)) return false;
      // At most 0.35 full where that still fits the limit: the fold table
      // lives only for the pass, and a sparser one walks less (10^5
      // groups: 98 -> 80 ms, measured); else the usual 0.7.
      std::size_t cap = detail::next_pow2(expected * 20 / 7 + 1);
      if (cap * sizeof(fold_slot<Acc>) > limit) cap = detail::next_pow2(expected * 10 / 7 + 1);
      if (cap > table.size()) {
        grow_fold_table(table, cap, init);
        t_data = table.data();
        mask = mask_;
        shift = shift_;
      }
      group_slot_.reserve(expected);
      founders_.reserve(expected);
    }
    for (std::size_t i = 0; i < head; ++i)
      if (head_groups[i] != no_group) fold(t_data[group_slot_[head_groups[i]]].acc, i);
    // Only the home slot is prefetched: a second line per row crowds the
    // lines in flight, and a walk past the home's line is rare in a table
    // at most 0.35 full.
    staged_keys st;
    auto stage = [&](std::size_t t, std::size_t i) JOINERY_DETAIL_ALWAYS_INLINE {
      stage_key<false>(st, t, i, key_at, t_data, shift, mask);
    };
    auto fold_row = [&](std::size_t t, std::size_t i) JOINERY_DETAIL_ALWAYS_INLINE {
      if (!st.has[t]) return;
      // Home slot from the hash now: the table may have grown since the row was staged.
      const std::size_t home = static_cast<std::size_t>(st.hash[t] >> shift) & mask;
      const std::size_t s = locate(std::move(st.key[t]), home, i);  // may move the table
      fold(t_data[s].acc, i);
    };
    detail::stage_ahead(head, n, stage, fold_row);
    keyed_ = keyed;
    w.inserts += keyed;
    w.comparisons += comparisons;
    cut_out_slots(table, acc);
    return true;
  }

  /// The end of an in-table fold: the accumulators in group order, the
  /// group sizes, the founding rows back in the slots, and the
  /// arrangement's slots cut out of the fold's.
  template <class Acc>
  void cut_out_slots(detail::huge_page_vector<fold_slot<Acc>>& table, std::vector<Acc>& acc) {
    acc.reserve(groups_);
    fold_sizes_.resize(groups_);
    constexpr std::size_t ahead = 16;  // groups sit at random slots (see `for_each_group`)
    for (std::size_t g = 0; g < groups_; ++g) {
      if (g + ahead < groups_) detail::prefetch_read(table.data() + group_slot_[g + ahead]);
      fold_slot<Acc>& fs = table[group_slot_[g]];
      acc.push_back(std::move(fs.acc));
      fold_sizes_[g] = fs.base.first;
      fs.base.first = founders_[g];
    }
    founders_.clear();
    slots_.clear();
    slots_.reserve(table.size());
    for (fold_slot<Acc>& fs : table) slots_.push_back(std::move(fs.base));
    detail::huge_page_vector<fold_slot<Acc>>().swap(table);
  }

  /// The fold's new group: key `k` in empty slot `s` of `table`, founded by
  /// row `i`; returns its slot (another one when the table grew).
  template <class Acc>
  std::size_t found_group(detail::huge_page_vector<fold_slot<Acc>>& table, Key&& k, std::size_t s, std::size_t i,
                          const Acc& init) {
    const auto g = static_cast<group_id>(groups_++);
    slot& sl = table[s].base;
    sl.key = std::move(k);
    sl.group = g;
    sl.first = 0;
    group_slot_.push_back(static_cast<std::uint32_t>(s));
    founders_.push_back(static_cast<row_pos>(i));
    if (!overloaded(groups_, table.size())) return s;
    grow_fold_table(table, table.size() * 2, init);
    return group_slot_[g];
  }

  /// Rehashes the fold's table into `cap` slots; each accumulator moves with its slot.
  template <class Acc>
  void grow_fold_table(detail::huge_page_vector<fold_slot<Acc>>& table, std::size_t cap, const Acc& init) {
    rehash_table(table, cap, fold_slot<Acc>{slot{}, init}, [](fold_slot<Acc>& e) -> slot& { return e.base; });
  }

  /// After `fold_groups`: group sizes from the fold's counts. A build with
  /// repeats keeps them as CSR offsets (no positions, so no probes), and
  /// the direct layout keeps its founding rows apart.
  void finish_fold() {
    unique_ = groups_ == keyed_;
    if (!unique_) {
      offsets_.assign(groups_ + 1, 0);
      for (std::size_t g = 0; g < groups_; ++g) {
        duplicate_groups_ += fold_sizes_[g] > 1;
        offsets_[g + 1] = offsets_[g] + fold_sizes_[g];
      }
      if (direct_layout()) founders_ = std::move(positions_);
      positions_.clear();
    }
    fold_sizes_ = {};
  }

  /// After the insert pass: a unique build is done (the slots, or in the
  /// direct layout positions_, hold the founding rows); otherwise lay out the
  /// CSR and count duplicate groups.
  void finish_groups(std::size_t n, bool with_rows) {
    if (unique_) return;
    if (direct_layout()) founders_ = std::move(positions_);  // founding rows; the CSR takes positions_
    const std::size_t groups = groups_;
    offsets_.assign(groups + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
      if (row_group_[i] != no_group) ++offsets_[row_group_[i] + 1];
    for (std::size_t g = 0; g < groups; ++g) {
      duplicate_groups_ += offsets_[g + 1] > 1;
      offsets_[g + 1] += offsets_[g];
    }
    positions_.clear();
    if (!with_rows) return;
    positions_.assign(offsets_.back(), 0);
    std::vector<row_pos> cursor(offsets_.begin(), offsets_.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
      if (row_group_[i] != no_group) positions_[cursor[row_group_[i]]++] = static_cast<row_pos>(i);
  }

  detail::huge_page_vector<slot> slots_;
  detail::huge_page_vector<std::uint32_t> group_slot_;  // hashed: slot of each group (its key and founding row)
  std::size_t groups_ = 0;
  detail::huge_page_vector<Key> keys_;          // direct: key of each group
  detail::huge_page_vector<row_pos> offsets_;   // CSR offsets, size groups+1 (empty when unique)
  detail::huge_page_vector<row_pos> positions_; // CSR positions; direct+unique: founding row per group
  detail::huge_page_vector<group_id> row_group_;  // group of each build row (empty while the identity)
  detail::huge_page_vector<group_id> direct_;   // direct layout: group of key direct_min_ + index
  detail::huge_page_vector<row_pos> founders_;  // direct with repeats: founding row of each group
  detail::huge_page_vector<row_pos> fold_sizes_;  // fold_groups: rows per group so far
  detail::key_filter filter_;  // hashed, large: the key filter, built on demand
  struct no_key_buckets {};
  // hashed, unique, integer keys: the keys in buckets, laid out on demand
  [[no_unique_address]] std::conditional_t<detail::direct_addressable<Key>,
                                           detail::built_on_demand<detail::key_buckets<Key>>, no_key_buckets>
      key_buckets_;
  [[nodiscard]] std::size_t key_buckets_memory_bytes() const noexcept {
    if constexpr (detail::direct_addressable<Key>) {
      const auto* laid = key_buckets_.get();
      return laid ? laid->memory_bytes() : 0;
    } else {
      return 0;
    }
  }
  Key direct_min_{};
  bool identity_ = false;            // identity layout (direct_ stays empty)
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  std::size_t built_ = 0;
  std::size_t keyed_ = 0;
  bool unique_ = true;
  std::size_t duplicate_groups_ = 0;
  [[no_unique_address]] Hash hash_{};
  mutable work_counters counters_{};
};

}  // namespace joinery::exec
