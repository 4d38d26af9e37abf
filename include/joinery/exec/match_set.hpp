#pragma once
/// @file
/// The match set: the rows a plan has produced so far, as one column of row
/// positions per bound table (columnar, so a join appends to N+1 flat vectors
/// and a projection gathers lazily). `no_row` marks a left join's missing
/// right row. While a plan has only read its first table, column 0 can be
/// the identity (not stored): `base`, `base + 1`, ... (a chunk of the first
/// table starting at row `base`).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/exec/huge_page_allocator.hpp>
#include <joinery/exec/threads.hpp>

namespace joinery::exec {

/// The position a missing (NULL-extended) row has in a match set.
inline constexpr std::uint32_t no_row = std::numeric_limits<std::uint32_t>::max();

/// An allocator whose `resize` leaves new positions uninitialised (they are
/// written right after): growing a position column costs no zero-fill pass.
template <class T>
struct default_init_allocator : detail::huge_page_allocator<T> {
  using detail::huge_page_allocator<T>::huge_page_allocator;
  template <class U>
  struct rebind {
    using other = default_init_allocator<U>;
  };
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

/// One column of a match set: row positions of one bound table.
using position_column = std::vector<std::uint32_t, default_init_allocator<std::uint32_t>>;

/// An append-only column of positions whose hot path is one compare and one
/// store (a join emits one position per match per bound table; a
/// `std::vector::push_back` there is often not inlined).
class position_writer {
 public:
  explicit position_writer(std::size_t expected = 0) : buf_(expected) {}
#if defined(__GNUC__) || defined(__clang__)
  __attribute__((always_inline))
#endif
  void put(std::uint32_t x) {
    if (n_ == buf_.size()) [[unlikely]]
      grow();
    buf_[n_++] = x;
  }
  [[nodiscard]] std::size_t size() const noexcept { return n_; }
  /// The positions written, as a vector (the writer is left empty).
  [[nodiscard]] position_column take() {
    buf_.resize(n_);
    n_ = 0;
    return std::move(buf_);
  }

 private:
  [[gnu::noinline]] void grow() { buf_.resize(buf_.size() < 512 ? 1024 : 2 * buf_.size()); }
  position_column buf_;
  std::size_t n_ = 0;
};

/// `N` columns of row positions, `rows` entries each.
template <std::size_t N>
struct match_set {
  std::array<position_column, N> pos{};
  std::size_t rows = 0;
  bool identity = false;   // column 0 is base, base+1, ..., base+rows-1 and not stored
  std::uint32_t base = 0;  // first row of an identity column 0

  /// The identity match set over rows [base, base + n) of one table.
  static match_set all_rows(std::size_t n, std::size_t base = 0) {
    match_set m;
    m.rows = n;
    m.identity = true;
    m.base = static_cast<std::uint32_t>(base);
    return m;
  }

  /// Row position of bound table `b` in match row `r`.
  [[nodiscard]] std::uint32_t at(std::size_t b, std::size_t r) const noexcept {
    if (b == 0 && identity) return base + static_cast<std::uint32_t>(r);
    return pos[b][r];
  }

  /// The match rows listed in `keep` (in that order), as a new match set.
  [[nodiscard]] match_set gather(const position_column& keep) const {
    match_set out;
    out.rows = keep.size();
    for (std::size_t b = 0; b < N; ++b) {
      auto& col = out.pos[b];
      if (b == 0 && identity) {
        col = keep;
        if (base != 0)
          for (auto& k : col) k += base;
      } else {
        col.reserve(keep.size());
        const auto& src = pos[b];
        for (const std::uint32_t k : keep) col.push_back(src[k]);
      }
    }
    return out;
  }
};

/// The match sets of contiguous parts of one input, one after the other (in
/// vector order). Column 0 stays the identity when every non-empty part's is
/// and they follow each other. Each part's columns are released once copied.
/// Under a policy of more than one thread (`t`), the parts are copied on up
/// to `t.count` threads, each into its own range of the result: the new
/// columns' pages are first written, and zeroed by the system, on all of
/// them rather than on the calling thread alone.
template <std::size_t N>
[[nodiscard]] match_set<N> concat(std::vector<match_set<N>>& parts, threads t = threads{}) {
  match_set<N> out;
  bool identity = true;
  bool first = true;
  std::uint32_t next = 0;
  std::vector<std::size_t> at(parts.size());  // first result row of each part
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const auto& m = parts[p];
    at[p] = out.rows;
    out.rows += m.rows;
    if (m.rows == 0) continue;
    if (first) out.base = next = m.base, first = false;
    identity = identity && m.identity && m.base == next;
    next = m.base + static_cast<std::uint32_t>(m.rows);
  }
  out.identity = identity && !first;
  if (!out.identity) out.base = 0;
  const std::size_t stored_from = out.identity ? 1 : 0;
  for (std::size_t b = stored_from; b < N; ++b) out.pos[b].resize(out.rows);
  auto copy = [&](std::size_t p) {
    auto& m = parts[p];
    for (std::size_t b = stored_from; b < N; ++b) {
      std::uint32_t* to = out.pos[b].data() + at[p];
      if (b == 0 && m.identity) {
        for (std::size_t r = 0; r < m.rows; ++r) to[r] = m.base + static_cast<std::uint32_t>(r);
      } else {
        std::copy_n(m.pos[b].data(), m.rows, to);
      }
      position_column().swap(m.pos[b]);
    }
  };
  const std::size_t workers = std::min<std::size_t>(t.count, parts.size());
  if (workers > 1 && out.rows >= t.grain) {
    auto some = [&](std::size_t, std::size_t begin, std::size_t end) {
      for (std::size_t p = begin; p < end; ++p) copy(p);
    };
    detail::run_parts(workers, parts.size(), some);
  } else {
    for (std::size_t p = 0; p < parts.size(); ++p) copy(p);
  }
  return out;
}

}  // namespace joinery::exec
