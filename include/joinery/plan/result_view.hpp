#pragma once
/// @file
/// What `run` returns: a lazy, random-access range-v3 view of result rows
/// (`ranges::view_` and `ranges::random_access_range`; also a std range).
/// The view owns the final match set; a row is (state, index) and
/// `get<"name">(row)` evaluates that column's expression when read, so only
/// the columns a caller reads are ever computed. Rows read the source
/// relations in place: keep them alive (and unmodified) while iterating.
#include <compare>
#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>

#include <range/v3/range_fwd.hpp>  // ranges::view_base only: the full view_interface costs seconds per TU

#include <joinery/core/fixed_string.hpp>
#include <joinery/schema/relation.hpp>

namespace joinery {

/// One result row; read it with `jy::get<"name">(row)`.
template <class State>
class result_row {
 public:
  result_row() = default;
  result_row(const State* st, std::size_t r) noexcept : st_(st), r_(r) {}

  template <fixed_string Name>
  [[nodiscard]] decltype(auto) get() const {
    return st_->template get<Name>(r_);
  }
  /// Position of the row in the result.
  [[nodiscard]] std::size_t index() const noexcept { return r_; }

 private:
  const State* st_ = nullptr;
  std::size_t r_ = 0;
};

/// The lazy range of a plan's result rows (a range-v3 view, random access, sized).
template <class State>
class result_view : public ranges::view_base {
 public:
  using row = result_row<State>;
  /// The result table type (`jy::materialize` would return `relation<table_type>`).
  using table_type = typename State::table_type;

  class iterator {
   public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::input_iterator_tag;
    using value_type = row;
    using difference_type = std::ptrdiff_t;
    using reference = row;

    iterator() = default;
    iterator(const State* st, std::size_t i) noexcept : st_(st), i_(i) {}
    row operator*() const noexcept { return {st_, i_}; }
    row operator[](difference_type n) const noexcept { return {st_, i_ + static_cast<std::size_t>(n)}; }
    iterator& operator++() noexcept { ++i_; return *this; }
    iterator operator++(int) noexcept { auto t = *this; ++i_; return t; }
    iterator& operator--() noexcept { --i_; return *this; }
    iterator operator--(int) noexcept { auto t = *this; --i_; return t; }
    iterator& operator+=(difference_type n) noexcept {
      i_ = static_cast<std::size_t>(static_cast<difference_type>(i_) + n);
      return *this;
    }
    iterator& operator-=(difference_type n) noexcept { return *this += -n; }
    friend iterator operator+(iterator it, difference_type n) noexcept { return it += n; }
    friend iterator operator+(difference_type n, iterator it) noexcept { return it += n; }
    friend iterator operator-(iterator it, difference_type n) noexcept { return it -= n; }
    friend difference_type operator-(const iterator& a, const iterator& b) noexcept {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.i_ == b.i_; }
    friend std::strong_ordering operator<=>(const iterator& a, const iterator& b) noexcept { return a.i_ <=> b.i_; }

   private:
    const State* st_ = nullptr;
    std::size_t i_ = 0;
  };

  result_view() = default;
  explicit result_view(std::shared_ptr<const State> st) noexcept : st_(std::move(st)) {}

  [[nodiscard]] iterator begin() const noexcept { return {st_.get(), 0}; }
  [[nodiscard]] iterator end() const noexcept { return {st_.get(), size()}; }
  [[nodiscard]] std::size_t size() const noexcept { return st_ ? st_->size() : 0; }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  [[nodiscard]] row operator[](std::size_t i) const noexcept { return {st_.get(), i}; }
  [[nodiscard]] row front() const noexcept { return {st_.get(), 0}; }
  [[nodiscard]] row back() const noexcept { return {st_.get(), size() - 1}; }

  /// The whole result as a relation (what `jy::materialize` returns).
  [[nodiscard]] relation<table_type> to_relation() const {
    return st_ ? st_->materialize() : relation<table_type>{};
  }

 private:
  std::shared_ptr<const State> st_;
};

}  // namespace joinery
