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
#include <exception>
#include <new>
#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>

#include <range/v3/range_fwd.hpp>  // ranges::view_base only: the full view_interface costs seconds per TU

#include <joinery/core/fixed_string.hpp>
#include <joinery/core/inline.hpp>
#include <joinery/schema/relation.hpp>

#if defined(__GNUC__) || defined(__clang__)
#define JOINERY_DETAIL_RARELY(c) __builtin_expect_with_probability(static_cast<bool>(c), false, 0.999)
#else
#define JOINERY_DETAIL_RARELY(c) (c)
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
  using context_type = typename State::context;

  result_row() = default;
  result_row(const State* st, const context_type& ctx, std::size_t r, const ref_type& ref) noexcept
      : st_(st), ctx_(ctx), r_(r), ref_(ref) {}

  template <fixed_string Name>
  [[nodiscard]] decltype(auto) get() const {
    return st_->template get<Name>(ctx_, ref_);
  }
  /// Position of the row in the result.
  [[nodiscard]] std::size_t index() const noexcept { return r_; }

 private:
  const State* st_ = nullptr;
  context_type ctx_{};
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

  /// Reads the rows of one block: a chunk of a streamed result, or the whole
  /// result. An iterator from `begin()` of a pipelined state streams chunk
  /// after chunk until it is moved by anything but `++`; then it indexes the
  /// whole result. The loop path (`*`, `++`, `!=`) has one branch and no call
  /// but the once-per-chunk refill, so a loop over the view keeps its
  /// position (and the caller's accumulators) in registers.
  class iterator {
   public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::input_iterator_tag;
    using value_type = row;
    using difference_type = std::ptrdiff_t;
    using reference = row;

    iterator() = default;

    row operator*() const { return {st_, ctx_, i_, State::ref_in(rd_, r_)}; }
    row operator[](difference_type n) const { return *(*this + n); }
    JOINERY_DETAIL_ALWAYS_INLINE iterator& operator++() {
      ++i_;
      // Once per block. Said how rarely: plain [[unlikely]] means 10%, at
      // which compilers keep the loop's doubles in memory rather than saving
      // them around the refill call.
      if (JOINERY_DETAIL_RARELY(++r_ == rows_)) next_block();
      return *this;
    }
    iterator operator++(int) { auto t = *this; ++*this; return t; }
    iterator& operator--() { return *this -= 1; }
    iterator operator--(int) { auto t = *this; --*this; return t; }
    iterator& operator+=(difference_type n) {
      const std::size_t i = index();
      cur_.reset();
      rd_ = State::reader_of(st_->whole());
      ctx_ = st_->row_context();  // an iterator from end() has none yet
      rows_ = st_->size();
      i_ = r_ = static_cast<std::size_t>(static_cast<difference_type>(i) + n);
      done_ = i_ >= rows_;
      end_known_ = true;
      return *this;
    }
    iterator& operator-=(difference_type n) { return *this += -n; }
    friend iterator operator+(iterator it, difference_type n) { return it += n; }
    friend iterator operator+(difference_type n, iterator it) { return it += n; }
    friend iterator operator-(iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const iterator& a, const iterator& b) {
      return static_cast<difference_type>(a.index()) - static_cast<difference_type>(b.index());
    }
    JOINERY_DETAIL_ALWAYS_INLINE friend bool operator==(const iterator& a, const iterator& b) noexcept {
      // Every iterator past the last row is the end; others are at their index.
      return a.done_ == b.done_ && (a.done_ || a.i_ == b.i_);
    }
    friend std::strong_ordering operator<=>(const iterator& a, const iterator& b) {
      if (a == b) return std::strong_ordering::equal;
      return a.index() <=> b.index();
    }

   private:
    friend class result_view;
    using cursor_t = typename detail::cursor_of<State>::type;
    using reader_t = typename State::reader;

    /// The row index (an end's is the result's size).
    [[nodiscard]] std::size_t index() const { return done_ && !end_known_ ? st_->size() : i_; }

    /// At the end of the current block: the next chunk, or the end.
    JOINERY_DETAIL_ALWAYS_INLINE void next_block() {
      r_ = 0;
      rows_ = 0;
      if constexpr (State::pipelined) {
        if (cur_) {
          // A copy of this iterator may still read the current chunk: then stream into a new one.
          if (cur_.use_count() > 1) [[unlikely]] {
            auto fresh = fresh_cursor(cur_->next_from);
            if (!fresh) out_of_memory();
            cur_ = std::move(fresh);
          }
          rows_ = refill(st_, cur_.get());
          if (rows_ == failed) rethrow(cur_.get());
          rd_ = State::reader_of(cur_->ms);
        }
      }
      // The cursor stays allocated until the iterator goes: no release call on the loop path.
      done_ = rows_ == 0;
    }

    // The out-of-line steps of streaming: cold, handed only heap objects (the
    // iterator's address never escapes), and noexcept, an exception coming
    // back as a value and rethrown by a [[noreturn]] call. A call that may
    // throw while the loop's values are live makes compilers keep those
    // values (a caller's floating-point sums) in memory for the whole loop.
    static constexpr std::size_t failed = ~std::size_t{0};
    /// The next chunk's row count (0 at the end, `failed` after an exception).
    [[gnu::cold, gnu::noinline]] static std::size_t refill(const State* st, cursor_t* c) noexcept {
      try {
        return st->next_chunk(*c) ? c->ms.rows : 0;
      } catch (...) {
        c->error = std::current_exception();
        return failed;
      }
    }
    [[noreturn, gnu::cold, gnu::noinline]] static void rethrow(cursor_t* c) {
      std::exception_ptr e = std::exchange(c->error, nullptr);
      std::rethrow_exception(e);
    }
    /// A new cursor continuing at `next_from` (null when out of memory).
    [[gnu::cold, gnu::noinline]] static std::shared_ptr<cursor_t> fresh_cursor(std::size_t next_from) noexcept {
      try {
        auto fresh = std::make_shared<cursor_t>();
        fresh->next_from = next_from;
        return fresh;
      } catch (...) {
        return nullptr;
      }
    }
    [[noreturn, gnu::cold, gnu::noinline]] static void out_of_memory() { throw std::bad_alloc(); }

    const State* st_ = nullptr;
    reader_t rd_{};                  // reads the rows of the current block
    typename State::context ctx_{};  // the state's row context (a copy: kept in registers)
    std::size_t i_ = 0;              // the row index in the result
    std::size_t r_ = 0;              // the row in the current block
    std::size_t rows_ = 0;           // the current block's row count
    std::shared_ptr<cursor_t> cur_;  // streaming: owns the chunk being read
    bool done_ = false;              // past the last row: an end
    bool end_known_ = true;          // for an end: i_ is the size (false: not computed yet)
  };

  result_view() = default;
  explicit result_view(std::shared_ptr<const State> st) noexcept : st_(std::move(st)) {}

  [[nodiscard]] JOINERY_DETAIL_ALWAYS_INLINE iterator begin() const {
    iterator it;
    it.st_ = st_.get();
    if (!st_) {
      it.done_ = true;
      return it;
    }
    it.ctx_ = st_->row_context();
    if constexpr (State::pipelined) {
      if (!st_->full_ready() && st_->streams()) {  // stream: the first chunk with rows
        it.cur_ = std::make_shared<typename iterator::cursor_t>();
        it.rows_ = iterator::refill(st_.get(), it.cur_.get());
        if (it.rows_ == iterator::failed) iterator::rethrow(it.cur_.get());
        it.rd_ = State::reader_of(it.cur_->ms);
        it.done_ = it.rows_ == 0;
        return it;
      }
    }
    it.rd_ = State::reader_of(st_->whole());
    it.rows_ = st_->size();
    it.done_ = it.rows_ == 0;
    return it;
  }
  [[nodiscard]] JOINERY_DETAIL_ALWAYS_INLINE iterator end() const {
    iterator it;
    it.st_ = st_.get();
    it.done_ = true;
    if constexpr (State::pipelined) {
      // Its index (the size) is computed only if asked for.
      if (st_ && !st_->full_ready()) {
        it.end_known_ = false;
        return it;
      }
    }
    it.i_ = size();
    return it;
  }
  [[nodiscard]] std::size_t size() const { return st_ ? st_->size() : 0; }
  [[nodiscard]] bool empty() const { return begin() == end(); }
  [[nodiscard]] row operator[](std::size_t i) const { return {st_.get(), st_->row_context(), i, st_->ref_at(i)}; }
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
