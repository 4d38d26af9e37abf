#pragma once
/// @file
/// What `run` returns: a lazy, random-access range-v3 view of result rows
/// (`ranges::view_` and `ranges::random_access_range`; also a std range).
/// A row is self-contained (the row position of every bound table) and
/// `get<"name">(row)` evaluates that column's expression when read, so only
/// the columns a caller reads are ever computed. Rows read the source
/// relations in place: keep them alive (and unmodified) while iterating.
///
/// Reading a pipelined result (plan/execute.hpp, `pipelined_state`) in order
/// from `begin()` streams it chunk by chunk; `size()`, random access and
/// iterator arithmetic compute the whole result once and index it. Both
/// give the same rows in the same order.
#include <compare>
#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>

#include <range/v3/range_fwd.hpp>  // ranges::view_base only: the full view_interface costs seconds per TU

#include <joinery/core/fixed_string.hpp>
#include <joinery/schema/relation.hpp>

#if defined(__GNUC__) || defined(__clang__)
#define JOINERY_DETAIL_VIEW_INLINE __attribute__((always_inline))
#else
#define JOINERY_DETAIL_VIEW_INLINE
#endif

namespace joinery {

namespace detail {
/// The streaming position of a pipelined state (nothing for the others).
template <class S, bool = S::pipelined>
struct cursor_of {
  using type = int;
};
template <class S>
struct cursor_of<S, true> {
  using type = typename S::cursor;
};
}  // namespace detail

/// One result row; read it with `jy::get<"name">(row)`.
template <class State>
class result_row {
 public:
  using ref_type = typename State::row_ref;

  result_row() = default;
  result_row(const State* st, std::size_t r, const ref_type& ref) noexcept : st_(st), r_(r), ref_(ref) {}

  template <fixed_string Name>
  [[nodiscard]] decltype(auto) get() const {
    return st_->template get<Name>(ref_);
  }
  /// Position of the row in the result.
  [[nodiscard]] std::size_t index() const noexcept { return r_; }

 private:
  const State* st_ = nullptr;
  std::size_t r_ = 0;
  ref_type ref_{};
};

/// The lazy range of a plan's result rows (a range-v3 view, random access, sized).
template <class State>
class result_view : public ranges::view_base {
 public:
  using row = result_row<State>;
  /// The result table type (`jy::materialize` would return `relation<table_type>`).
  using table_type = typename State::table_type;

  /// Indexes rows; on a pipelined state, an iterator from `begin()` streams
  /// chunks until it is moved by anything but `++`.
  class iterator {
   public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::input_iterator_tag;
    using value_type = row;
    using difference_type = std::ptrdiff_t;
    using reference = row;

    iterator() = default;
    iterator(const State* st, std::size_t i) noexcept : st_(st), i_(i) {}

    row operator*() const {
      if constexpr (State::pipelined) {
        if (cur_) return {st_, i_, State::ref_in(*cur_, r_)};
      }
      return {st_, i_, st_->ref_at(i_)};
    }
    row operator[](difference_type n) const { return *(*this + n); }
    JOINERY_DETAIL_VIEW_INLINE iterator& operator++() {
      if constexpr (State::pipelined) {
        if (cur_) {
          ++i_;
          if (++r_ == rows_) [[unlikely]]
            (void)next_chunk();
          return *this;
        }
      }
      ++i_;
      return *this;
    }
    iterator operator++(int) { auto t = *this; ++*this; return t; }
    iterator& operator--() { return *this -= 1; }
    iterator operator--(int) { auto t = *this; --*this; return t; }
    iterator& operator+=(difference_type n) {
      to_index();
      i_ = static_cast<std::size_t>(static_cast<difference_type>(i_) + n);
      return *this;
    }
    iterator& operator-=(difference_type n) { return *this += -n; }
    friend iterator operator+(iterator it, difference_type n) { return it += n; }
    friend iterator operator+(difference_type n, iterator it) { return it += n; }
    friend iterator operator-(iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const iterator& a, const iterator& b) {
      return static_cast<difference_type>(a.index()) - static_cast<difference_type>(b.index());
    }
    JOINERY_DETAIL_VIEW_INLINE friend bool operator==(const iterator& a, const iterator& b) {
      // Inline and never passing an iterator's address on (see next_chunk).
      if (!a.at_end_ && !b.at_end_) return a.i_ == b.i_;
      if (a.at_end_ && b.at_end_) return true;
      // A streaming iterator is always at a row (it turns into an end when done).
      if (a.cur_ || b.cur_) return false;
      const iterator& e = a.at_end_ ? a : b;
      const std::size_t end_index = e.end_known_ ? e.i_ : e.st_->size();
      return (a.at_end_ ? b.i_ : a.i_) == end_index;
    }
    friend std::strong_ordering operator<=>(const iterator& a, const iterator& b) {
      if (a == b) return std::strong_ordering::equal;
      return a.index() <=> b.index();
    }

   private:
    friend class result_view;
    using cursor_t = typename detail::cursor_of<State>::type;

    /// The row index; an end whose index is not known yet is the result's size.
    [[nodiscard]] std::size_t index() const { return at_end_ && !end_known_ ? st_->size() : i_; }
    /// Leaves streaming mode (the state then indexes its whole result).
    void to_index() {
      i_ = index();
      at_end_ = false;
      end_known_ = false;
      cur_.reset();
    }
    /// Starts streaming at the first row of a pipelined state.
    JOINERY_DETAIL_VIEW_INLINE void start() {
      cur_ = std::make_shared<cursor_t>();
      (void)next_chunk();
    }
    /// Moves to the next chunk with rows; false (and the end) when none is
    /// left. Inline, handing the out-of-line work only heap objects: the
    /// iterator itself never escapes, so a loop over it keeps its fields (and
    /// the caller's accumulators) in registers.
    JOINERY_DETAIL_VIEW_INLINE bool next_chunk() {
      // A copy of this iterator may still read the current chunk: then stream into a new one.
      if (cur_.use_count() > 1) {
        auto fresh = std::make_shared<cursor_t>();
        fresh->next_from = cur_->next_from;
        cur_ = std::move(fresh);
      }
      r_ = 0;
      if (st_->next_chunk(*cur_)) {
        rows_ = cur_->ms.rows;
        return true;
      }
      finish();
      return false;
    }
    JOINERY_DETAIL_VIEW_INLINE void finish() {
      cur_.reset();
      at_end_ = true;
      end_known_ = true;
    }

    const State* st_ = nullptr;
    std::size_t i_ = 0;
    std::shared_ptr<cursor_t> cur_;  // streaming: the current chunk
    std::size_t r_ = 0;              // streaming: the row in the chunk
    std::size_t rows_ = 0;           // streaming: the chunk's row count
    bool at_end_ = false;            // the end position
    bool end_known_ = false;         // at_end_ with i_ known
  };

  result_view() = default;
  explicit result_view(std::shared_ptr<const State> st) noexcept : st_(std::move(st)) {}

  [[nodiscard]] JOINERY_DETAIL_VIEW_INLINE iterator begin() const {
    iterator it{st_.get(), 0};
    if constexpr (State::pipelined) {
      if (st_ && !st_->full_ready()) it.start();
    }
    return it;
  }
  [[nodiscard]] JOINERY_DETAIL_VIEW_INLINE iterator end() const {
    if constexpr (State::pipelined) {
      if (st_ && !st_->full_ready()) {
        iterator it{st_.get(), 0};
        it.at_end_ = true;  // its index (the size) is computed only if asked for
        return it;
      }
    }
    return {st_.get(), size()};
  }
  [[nodiscard]] std::size_t size() const { return st_ ? st_->size() : 0; }
  [[nodiscard]] bool empty() const { return begin() == end(); }
  [[nodiscard]] row operator[](std::size_t i) const { return {st_.get(), i, st_->ref_at(i)}; }
  [[nodiscard]] row front() const { return (*this)[0]; }
  [[nodiscard]] row back() const { return (*this)[size() - 1]; }

  /// The whole result as a relation (what `jy::materialize` returns).
  [[nodiscard]] relation<table_type> to_relation() const {
    return st_ ? st_->materialize() : relation<table_type>{};
  }

 private:
  std::shared_ptr<const State> st_;
};

}  // namespace joinery
