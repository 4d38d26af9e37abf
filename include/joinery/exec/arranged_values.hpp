#pragma once
/// @file
/// Build-side values laid out where the probe finds its match, and an emit
/// that is handed them.
///
/// An emit that reads a build column at match j waits twice per probe row:
/// on the arrangement (which row is j?) and then on the column at j.
/// `prefetch_build` overlaps the second wait with later rows, but it is
/// still a second random read that can only start once the first is done.
/// `arrange_values(build, columns...)` copies the columns once into the
/// arrangement's own order: for a direct layout of distinct keys, one
/// entry per key holding the row and its values (with no hole in the key
/// range, the values alone and the rows beside them). A probe through
/// `with_values(emit, values)` then reads one entry per row, fetched as
/// soon as the probe key is known, and calls `emit(i, j, v...)`. Dense
/// shuffled keys, 1e7 x 1e6 (stand-alone, the 2 MiB-L2 Xeon, 2026-12-03):
/// the probe took 237-262 ms through `prefetch_build` against 73-81 ms
/// reading the entries, which took 7-8 ms to lay out. For a hashed layout
/// of distinct integer keys, the first probe loop long enough to pay for it
/// (`lay_out_in_buckets_for`) copies them into
/// buckets of four keys with their values beside them, which
/// an inner or left join's probe reads in place of the arrangement's slots:
/// one read says whether the key is there and hands its values, where the
/// slot and then the column took two reads that waited on each other, and
/// the walk over slots branched on each. Other layouts read the columns at
/// j: as each pair is found while they fit a core's cache, else prefetched
/// as `prefetch_build` does. The pairs and values are the same either way.
#include <algorithm>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/core/type_list.hpp>
#include <joinery/exec/arrangement.hpp>
#include <joinery/exec/built_on_demand.hpp>
#include <joinery/exec/huge_page_allocator.hpp>
#include <joinery/exec/key_buckets.hpp>
#include <joinery/exec/prefetch_build.hpp>

namespace joinery::exec {

namespace detail {
/// Column c's value at build row j, value-initialised for `unmatched`. A
/// left join's unmatched rows come at random: a number is read at row 0 and
/// selected, without a branch on a coin toss.
template <class T>
[[gnu::always_inline]] inline decltype(auto) value_at_row(std::span<const T> c, std::size_t j) {
  if constexpr (std::is_arithmetic_v<T>) {
    const bool hit = j != unmatched;
    const T v = c.empty() ? T{} : c[hit ? j : 0];
    return hit ? v : T{};
  } else {
    static const T none{};
    return j == unmatched ? none : c[j];
  }
}

/// A number of 1, 2, 4 or 8 bytes: read as its bits, and masked to zero.
template <class T>
concept maskable_number = std::is_arithmetic_v<T> && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                                                      sizeof(T) == 8);
template <class T>
using bits_of = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<sizeof(T) == 2, std::uint16_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

/// `value_at_row` for a j that comes at random, matched or not (a left
/// join's pairs handed over from the held ring): a number is read at row j,
/// or row 0 for `unmatched`, and its bits masked to zero for `unmatched`.
/// The outcome goes through an empty asm statement: GCC 12 turned
/// `value_at_row`'s select back into a branch on j (count+sum 1e7 x 1e6,
/// half unmatched, AMD family 26, 2026-12-06, peers binary, 3 rounds: 1
/// thread 247-264 -> 218-229 ms, 2 threads 125-134 -> 110-116 ms). Where
/// j is known at the call (a match, or `unmatched` itself) `value_at_row`
/// is cheaper, and the in-cache probe keeps it (1e6 x 1e5: 13.1-13.4
/// against 14.3-14.9 ms masked).
template <class T>
[[gnu::always_inline]] inline decltype(auto) value_at_random_row(std::span<const T> c, std::size_t j) {
  if constexpr (maskable_number<T>) {
    if (c.empty()) return T{};
    std::uint64_t miss = j == unmatched;
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(miss));
#endif
    const std::uint64_t keep = miss - 1;  // all ones for a match
    using bits = bits_of<T>;
    return std::bit_cast<T>(static_cast<bits>(std::bit_cast<bits>(c[j & keep]) & static_cast<bits>(keep)));
  } else {
    return value_at_row(c, j);
  }
}

/// The row of an entry no build row fills.
inline constexpr row_pos no_entry_row = std::numeric_limits<row_pos>::max();

/// One key's row and values in a direct layout (`row` is `no_row` for a
/// key that no build row has).
template <class... T>
struct arranged_entry {
  static constexpr row_pos no_row = no_entry_row;
  row_pos row = no_row;
  std::tuple<T...> values{};
};

/// A bucket of a hashed layout of distinct integer keys: up to four keys
/// and their values, filled in lane order, the unfilled lanes holding the
/// layout's `empty_key` (a key no build row has). For an int64 key and
/// one int64 column it is one 64-byte line: a probe compares its key with
/// all four at once, and a miss is a bucket with an unfilled lane.
template <class Key, class... T>
struct alignas(64) keyed_bucket {
  static constexpr std::size_t lanes = 4;
  Key keys[lanes];
  std::tuple<T...> values[lanes];
  /// True when some key walked past this bucket to a later one (its home
  /// bucket was full): a full bucket holds its first key above its last
  /// then, below it otherwise. A miss walks on only from such a bucket.
  [[nodiscard]] bool walked_past(const Key& empty) const noexcept {
    return (keys[lanes - 1] != empty) & (keys[0] > keys[lanes - 1]);
  }
};

/// The buckets of a hashed layout of distinct integer keys (see
/// `arranged_values::lay_out_in_buckets_for`): a power of two of them; key
/// k is in bucket `home_slot_of(k) >> shift` or in a later one, the next of
/// bucket b being (b + 1) & (buckets.size() - 1), each before it full.
template <class Key, class... T>
struct value_buckets {
  using bucket = keyed_bucket<Key, T...>;
  huge_page_vector<bucket> buckets;
  huge_page_vector<row_pos> rows;  // lane l of bucket b: rows[b * bucket::lanes + l]
  Key empty_key{};                 // the key of an unfilled lane: one no build row has
  unsigned shift = 0;
  /// The bucket of a key whose hash (`hash_function()`) is h: `(h >>
  /// hash_shift) & (buckets.size() - 1)`, its home slot >> shift in one shift.
  unsigned hash_shift = 63;
  [[nodiscard]] bool empty() const noexcept { return buckets.empty(); }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return buckets.capacity() * sizeof(bucket) + rows.capacity() * sizeof(row_pos);
  }
};
}  // namespace detail

/// Build columns laid out for probes of one arrangement; made by
/// `arrange_values`. Valid while that arrangement is neither rebuilt nor
/// destroyed, and the columns are unchanged (they are read again, at
/// match j, where no entries were laid out). Read-only once made: the
/// parts of a threaded probe share it.
template <class Key, class Hash, class... T>
class arranged_values {
 public:
  using entry = detail::arranged_entry<T...>;
  using bucket = detail::keyed_bucket<Key, T...>;

  arranged_values(const arrangement<Key, Hash>& build, std::span<const T>... columns)
      : build_(&build),
        rows_(build.built_rows()),
        groups_(build.group_count()),
        columns_(columns...),
        beyond_cache_(detail::any_column_beyond_cache(columns...)) {
    for (const std::size_t size : {columns.size()...}) {
      if (size < rows_)
        throw std::length_error("exec::arrange_values: a column has " + std::to_string(size) +
                                " values for a build of " + std::to_string(rows_) + " rows");
    }
    if constexpr (detail::direct_addressable<Key> && (std::is_trivially_copyable_v<T> && ...)) {
      // Distinct keys only: a key of several rows has no one entry. Columns
      // in a core's cache too: the id array and then the column at j are
      // two dependent reads of about 12 bytes a key, beyond a 1 MiB L2 at
      // 10^5 keys (1e6 x 1e5 dense shuffled, copy included: 3.0-3.2 ->
      // 1.6-1.7 ms; the copy had cost more while its block was faulted in
      // afresh for every join, before mid-size blocks were kept).
      using layout = typename arrangement<Key, Hash>::layout;
      if (build.unique() && build.has_rows()) {
        if (build.index_layout() == layout::direct) lay_out(build);
        // Read at j, a value waits on the slot's read (in a core's cache) or
        // is a second random read (beyond it, prefetched while later rows
        // are probed); in a bucket beside the key, a hit or a miss is one
        // read (docs/performance.md, "The kernel"). Also where the table
        // keeps a key filter, which rules misses out before their slot is
        // read: the buckets measured faster (left count+sum 1e7 x 1e6, half
        // unmatched, the 48 MiB-L3 Xeon, 2026-12-07, 1 thread: 426-429 ->
        // 331-359 ms; inner 303-311 -> 237-257 ms), and reading the filter
        // before the bucket slower again (313-359 -> 378-403 ms). Laid out
        // by the first probe loop long enough to pay for them
        // (`lay_out_in_buckets_for`).
        else if (build.index_layout() == layout::hashed)
          buckets_.want();
      }
    }
  }

  /// True when the values were laid out by key (a direct layout of
  /// distinct keys with a hole in its range): a probe then reads
  /// `entries()` instead of the columns.
  [[nodiscard]] bool laid_out() const noexcept { return !entries_.empty(); }
  /// True when the values were laid out by key for a direct layout of
  /// distinct keys without a hole (every key of its range has a row): a
  /// probe then reads `values_by_key()` and, for j, `rows_by_key()`.
  [[nodiscard]] bool laid_out_without_holes() const noexcept { return !values_by_key_.empty(); }
  /// The values of direct index x (see `arrangement::direct_index_of`).
  [[nodiscard]] std::span<const std::tuple<T...>> values_by_key() const noexcept {
    return {values_by_key_.data(), values_by_key_.size()};
  }
  /// The row of direct index x.
  [[nodiscard]] std::span<const row_pos> rows_by_key() const noexcept {
    return {rows_by_key_.data(), rows_by_key_.size()};
  }
  /// Entry of direct index x (see `arrangement::direct_index_of`).
  [[nodiscard]] std::span<const entry> entries() const noexcept { return {entries_.data(), entries_.size()}; }
  /// Probe rows per build key from which a probe loop has the values laid
  /// out in buckets: the lay-out reads every key and row once at random,
  /// about what one probe row per key saves. Inner count+sum into 10^6
  /// keys (stand-alone, the 48 MiB-L3 Xeon, 2026-12-07, min of 15; lay-out
  /// + probe against the probe of the slots and columns): 10^6 probe rows
  /// 43 against 25-27 ms, 2 x 10^6 72 against 56, 3 x 10^6 91 against 98,
  /// 10^7 204 against 312.
  static constexpr std::size_t bucket_min_probes_per_key = 3;
  /// Lays the values out in buckets, once, for a probe loop of `probe_rows`
  /// rows in all (all parts of a threaded probe) when they are wanted (a
  /// hashed layout of distinct integer keys and trivially copyable values)
  /// and it is long enough (`bucket_min_probes_per_key`); from any thread.
  /// Returns `laid_out_in_buckets()`.
  bool lay_out_in_buckets_for(std::size_t probe_rows) const {
    if (!buckets_.wanted()) return false;
    if (!buckets_.built() && probe_rows < bucket_min_probes_per_key * groups_) return false;
    return !buckets_.build_once([this] { return lay_out_in_buckets(); })->empty();
  }
  /// True when the values were laid out in buckets (by
  /// `lay_out_in_buckets_for`; not for a key type holding both its ends,
  /// where no key is free to mark an unfilled lane): an inner or left
  /// join's probe then reads `in_buckets()` instead of the arrangement's
  /// slots and the columns.
  [[nodiscard]] bool laid_out_in_buckets() const noexcept {
    const auto* laid = buckets_.get();
    return laid && !laid->empty();
  }
  /// The buckets once laid out (`laid_out_in_buckets()`).
  [[nodiscard]] const detail::value_buckets<Key, T...>& in_buckets() const noexcept { return *buckets_.get(); }
  /// The buckets: a power of two of them. Key k is in bucket
  /// `bucket_of(k)` or in a later one, the next of bucket b being
  /// (b + 1) & (buckets().size() - 1), each before it full.
  [[nodiscard]] std::span<const bucket> buckets() const noexcept {
    return {in_buckets().buckets.data(), in_buckets().buckets.size()};
  }
  /// The row of lane l of bucket b is `bucket_rows()[b * bucket::lanes + l]`.
  [[nodiscard]] std::span<const row_pos> bucket_rows() const noexcept {
    return {in_buckets().rows.data(), in_buckets().rows.size()};
  }
  /// The key of an unfilled lane: one no build row has.
  [[nodiscard]] const Key& empty_key() const noexcept { return in_buckets().empty_key; }
  /// The bucket where the walk for key `k` starts.
  [[nodiscard]] std::size_t bucket_of(const Key& k) const noexcept {
    return build_->home_slot_of(k) >> in_buckets().shift;
  }
  [[nodiscard]] const std::tuple<std::span<const T>...>& columns() const noexcept { return columns_; }
  /// True when some column reaches `prefetch_min_column_bytes` (its values
  /// at random rows are not in a core's cache): a probe that reads the
  /// columns then prefetches them.
  [[nodiscard]] bool columns_beyond_cache() const noexcept { return beyond_cache_; }
  /// Bytes of the entries (0 when not laid out).
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return entries_.capacity() * sizeof(entry) + values_by_key_.capacity() * sizeof(std::tuple<T...>) +
           rows_by_key_.capacity() * sizeof(row_pos) + (buckets_.get() ? buckets_.get()->memory_bytes() : 0);
  }

  /// Throws `std::invalid_argument` unless `build` is the arrangement these
  /// values were laid out for, as it was then: the entries would otherwise
  /// hand the emit another build's rows.
  void check_for(const arrangement<Key, Hash>& build) const {
    if (&build != build_ || build.built_rows() != rows_ || build.group_count() != groups_)
      throw std::invalid_argument(
          "exec::with_values: the values were arranged for another arrangement, or for this one before it was "
          "rebuilt; call arrange_values again");
  }

 private:
  void lay_out(const arrangement<Key, Hash>& build) {
    // In key order: the entries are written in order, with no fill before,
    // and the columns read at random, reads independent of each other that
    // the core overlaps (written at random in group order, 10^6 shuffled
    // dense keys took 4.9-5.4 against 2.4-3.1 ms; the 48 MiB-L3 Xeon,
    // 2026-12-07).
    auto values_at = [this](row_pos j) {
      return std::apply([j](const auto&... c) { return std::tuple<T...>(c[j]...); }, columns_);
    };
    if (build.group_count() == build.direct_extent()) {
      // No hole: a key in range has a row, so no entry need say so. The
      // values alone, 8 bytes for one int64 column against an entry's 16,
      // are read a third of the time (1e7 random reads into 10^6 values,
      // AMD family 26 guest, 2026-12-07: 9-11 against 24-34 ms); the rows
      // apart, read only by an emit that uses j.
      values_by_key_.reserve(build.direct_extent());
      rows_by_key_.reserve(build.direct_extent());
      build.for_each_group_by_key([&](std::size_t, group_id, row_pos j) {
        rows_by_key_.push_back(j);
        values_by_key_.push_back(values_at(j));
      });
      return;
    }
    // Distinct keys: a group's leader is its only row.
    entries_.reserve(build.direct_extent());
    build.for_each_group_by_key([&](std::size_t x, group_id, row_pos j) {
      entries_.resize(x);  // the keys without a row before it
      entries_.push_back(entry{j, values_at(j)});
    });
    entries_.resize(build.direct_extent());
  }

  /// The buckets hold a lane per slot of the arrangement while it is at
  /// most half full, else two: at most two keys a bucket on average, so
  /// few spill into the next one. Key k's bucket is its home slot's high
  /// bits, and the keys are taken in slot order: the buckets fill nearly
  /// in order.
  detail::value_buckets<Key, T...> lay_out_in_buckets() const {
    detail::value_buckets<Key, T...> out;
    if constexpr (detail::direct_addressable<Key>) {
      const arrangement<Key, Hash>& build = *build_;
      const std::size_t extent = build.hashed_extent(), groups = build.group_count();
      if (groups == 0) return out;
      const auto occupied =
          detail::occupied_slots<Key>::gather(groups, [&build](auto&& f) { build.for_every_slot(f); });
      // No key free to mark an unfilled lane: the columns are read at j.
      if (!occupied.has_empty_key) return out;
      const Key empty = occupied.empty_key;
      out.empty_key = empty;

      const std::size_t lanes = groups * 2 <= extent ? extent : 2 * extent;
      const std::size_t count = std::max<std::size_t>(1, lanes / bucket::lanes);
      const unsigned shift = static_cast<unsigned>(std::countr_zero(extent) - std::countr_zero(count));
      out.shift = shift;
      out.hash_shift = detail::bucket_hash_shift(count);
      bucket unfilled{};
      for (Key& k : unfilled.keys) k = empty;
      out.buckets.assign(count, unfilled);
      out.rows.resize(count * bucket::lanes);
      bucket* const to = out.buckets.data();
      row_pos* const rows = out.rows.data();
      const auto columns = columns_;
      const std::size_t mask = count - 1;
      // Each bucket's filled lanes, apart: counted from its keys, the next
      // key's lane waited on the store of the last one.
      std::vector<std::uint16_t> filled(count);
      // Whether some key walked past the bucket (always a full one).
      std::vector<std::uint8_t> passed(count);
      constexpr std::size_t ahead = 16;
      for (std::size_t e = 0; e < occupied.count; ++e) {
        // The values of a row a stretch ahead, prefetched: the rows come in slot order, at random.
        if (e + ahead < occupied.count) {
          const row_pos r = occupied.rows[e + ahead].row;
          std::apply([r](const auto&... c) { (detail::prefetch_read(c.data() + r), ...); }, columns);
        }
        const Key key = occupied.rows[e].key;
        const row_pos j = occupied.rows[e].row;
        std::size_t b = build.home_slot_of(key) >> shift;
        while (filled[b] == bucket::lanes) [[unlikely]] {
          passed[b] = 1;
          b = (b + 1) & mask;
        }
        const std::size_t lane = filled[b]++;
        to[b].keys[lane] = key;
        to[b].values[lane] = std::apply([j](const auto&... c) { return std::tuple<T...>(c[j]...); }, columns);
        rows[b * bucket::lanes + lane] = j;
      }
      // A full bucket says whether a key walked past it by the order of its
      // first and last keys (`walked_past`): a probe's miss walks on only
      // from such a bucket, not from every full one.
      constexpr std::size_t l0 = 0, ln = bucket::lanes - 1;
      for (std::size_t b = 0; b < count; ++b) {
        if (filled[b] != bucket::lanes || (to[b].keys[l0] > to[b].keys[ln]) == (passed[b] != 0)) continue;
        std::swap(to[b].keys[l0], to[b].keys[ln]);
        std::swap(to[b].values[l0], to[b].values[ln]);
        std::swap(rows[b * bucket::lanes + l0], rows[b * bucket::lanes + ln]);
      }
    }
    return out;
  }

  const arrangement<Key, Hash>* build_;
  std::size_t rows_, groups_;
  std::tuple<std::span<const T>...> columns_;
  bool beyond_cache_;
  detail::huge_page_vector<entry> entries_;
  detail::huge_page_vector<std::tuple<T...>> values_by_key_;
  detail::huge_page_vector<row_pos> rows_by_key_;
  // hashed, distinct integer keys: the buckets, laid out on demand
  detail::built_on_demand<detail::value_buckets<Key, T...>> buckets_;
};

/// Lays build-side `columns` (contiguous, indexed by build row, at least
/// `build.built_rows()` long: else `std::length_error`) out for probes of
/// `build` through `with_values`. For a direct layout of distinct keys this
/// copies them, one entry per key of the layout's range (the row and its
/// values, e.g. 16 bytes for one int64 column): one pass over the groups.
/// The value types must be default-constructible: a left join's unmatched
/// row is handed value-initialised ones.
template <class Key, class Hash, std::ranges::contiguous_range... C>
  requires(sizeof...(C) > 0 && (std::default_initializable<std::ranges::range_value_t<C>> && ...))
[[nodiscard]] auto arrange_values(const arrangement<Key, Hash>& build, const C&... columns) {
  return arranged_values<Key, Hash, std::remove_cv_t<std::ranges::range_value_t<C>>...>(build,
                                                                                         std::span(columns)...);
}

/// An emit handed the build-side values of each match: `emit(i, j, v...)`,
/// with v the columns' values at build row j, or value-initialised for a
/// left join's unmatched row (j == `unmatched`); made by `with_values`.
/// `exec::probe` (inner and left joins), `exec::probe_parts` and the
/// threaded `exec::probe` take it in place of an emit; called as
/// `(i, j)` it reads the columns itself. `base()` is the emit, which sees
/// exactly the pairs a bare emit would, in the same order.
template <class Emit, class Values>
class valued_emit {
 public:
  valued_emit(Emit emit, const Values& values) : emit_(std::forward<Emit>(emit)), values_(&values) {}

  [[nodiscard]] Emit& base() noexcept { return emit_; }
  [[nodiscard]] const Emit& base() const noexcept { return emit_; }
  [[nodiscard]] const Values& values() const noexcept { return *values_; }

  /// The pair (i, j) with the values read from the columns at j (a number
  /// read without a branch on whether j is `unmatched`).
  void operator()(std::size_t i, std::size_t j) {
    std::apply([&](const auto&... c) { emit_(i, j, detail::value_at_random_row(c, j)...); }, values_->columns());
  }
  /// The same for a match (j is a build row, never `unmatched`): the values
  /// read at j without the select an unmatched row needs. The probe hands
  /// an inner join's pairs over this way.
  void matched(std::size_t i, std::size_t j) {
    std::apply([&](const auto&... c) { emit_(i, j, c[j]...); }, values_->columns());
  }

 private:
  Emit emit_;
  const Values* values_;
};

/// Wraps `emit` (kept by reference when it is an lvalue, moved in
/// otherwise) to be handed the values of `values` at each match; `values`
/// must outlive the probe.
template <class Emit, class Key, class Hash, class... T>
[[nodiscard]] auto with_values(Emit&& emit, const arranged_values<Key, Hash, T...>& values) {
  return valued_emit<Emit, arranged_values<Key, Hash, T...>>(std::forward<Emit>(emit), values);
}
/// The emit keeps a pointer to `values`: a temporary would be gone before
/// the probe reads it.
template <class Emit, class Key, class Hash, class... T>
auto with_values(Emit&& emit, const arranged_values<Key, Hash, T...>&& values)
    -> valued_emit<Emit, arranged_values<Key, Hash, T...>> {
  static_assert(joinery::detail::always_false<Emit>::value,
                "joinery: with_values keeps a pointer to the arranged values, and a temporary is gone before the "
                "probe reads them; name them first (const auto values = exec::arrange_values(build, column);)");
  return {std::forward<Emit>(emit), values};
}

}  // namespace joinery::exec
