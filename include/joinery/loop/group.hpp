#pragma once
/// @file
/// `loop::group_view<C>`: what a `filter_list` evaluates to — the kept
/// elements of collection C, in the collection's order, as a sized random-
/// access range. A recognised filter's group is a span of the arrangement's
/// row positions (no copy); a nested filter owns its positions.
#include <compare>
#include <concepts>
#include <cstddef>
#include <iterator>
#include <memory>
#include <ranges>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/exec/arrangement.hpp>

namespace joinery::loop {

namespace detail {

/// Collections read by position directly; others through a pointer table.
template <class C>
inline constexpr bool positional_v = std::ranges::random_access_range<const C> && std::ranges::sized_range<const C>;

template <class C>
using elem_value_t = std::ranges::range_value_t<const C>;

template <class C>
using elem_ref_t = std::conditional_t<positional_v<C>, std::ranges::range_reference_t<const C>, const elem_value_t<C>&>;

/// Element i of a collection, in its iteration order: the collection itself
/// when it is random access, else a table of element addresses built once.
template <class C>
struct positional {
  const C* coll = nullptr;
  std::vector<const elem_value_t<C>*> table;  // only for non-random-access C

  positional() = default;
  explicit positional(const C& c) : coll(&c) {
    if constexpr (!positional_v<C>) {
      for (const auto& e : c) table.push_back(&e);
    }
  }
  [[nodiscard]] std::size_t size() const {
    if constexpr (positional_v<C>) return static_cast<std::size_t>(std::ranges::size(*coll));
    else return table.size();
  }
  [[nodiscard]] elem_ref_t<C> at(std::size_t i) const {
    if constexpr (positional_v<C>) return std::ranges::begin(*coll)[static_cast<std::ptrdiff_t>(i)];
    else return *table[i];
  }
};

}  // namespace detail

/// The elements of a collection `C` at some positions, in position order.
template <class C>
class group_view {
 public:
  using reference = detail::elem_ref_t<C>;
  using value_type = std::remove_cvref_t<reference>;

  class iterator {
   public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::input_iterator_tag;
    using value_type = group_view::value_type;
    using difference_type = std::ptrdiff_t;
    using reference = group_view::reference;

    iterator() = default;
    iterator(const detail::positional<C>* p, const exec::row_pos* r) noexcept : pos_(p), r_(r) {}
    reference operator*() const { return pos_->at(*r_); }
    reference operator[](difference_type n) const { return pos_->at(r_[n]); }
    iterator& operator++() noexcept { ++r_; return *this; }
    iterator operator++(int) noexcept { auto t = *this; ++r_; return t; }
    iterator& operator--() noexcept { --r_; return *this; }
    iterator operator--(int) noexcept { auto t = *this; --r_; return t; }
    iterator& operator+=(difference_type n) noexcept { r_ += n; return *this; }
    iterator& operator-=(difference_type n) noexcept { r_ -= n; return *this; }
    friend iterator operator+(iterator it, difference_type n) noexcept { return it += n; }
    friend iterator operator+(difference_type n, iterator it) noexcept { return it += n; }
    friend iterator operator-(iterator it, difference_type n) noexcept { return it -= n; }
    friend difference_type operator-(const iterator& a, const iterator& b) noexcept { return a.r_ - b.r_; }
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.r_ == b.r_; }
    friend auto operator<=>(const iterator& a, const iterator& b) noexcept { return a.r_ <=> b.r_; }

   private:
    const detail::positional<C>* pos_ = nullptr;
    const exec::row_pos* r_ = nullptr;
  };

  group_view() = default;
  /// Positions `rows` of `pos`; `keep` owns whatever both point into.
  group_view(const detail::positional<C>* pos, std::span<const exec::row_pos> rows, std::shared_ptr<const void> keep)
      : pos_(pos), rows_(rows.data()), size_(rows.size()), keep_(std::move(keep)) {}

  [[nodiscard]] iterator begin() const noexcept { return {pos_, rows_}; }
  [[nodiscard]] iterator end() const noexcept { return {pos_, rows_ + size_}; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] reference operator[](std::size_t i) const { return pos_->at(rows_[i]); }
  /// Positions of the kept elements in the collection's order.
  [[nodiscard]] std::span<const exec::row_pos> positions() const noexcept { return {rows_, size_}; }
  /// A copy of the elements.
  [[nodiscard]] std::vector<value_type> to_vector() const { return std::vector<value_type>(begin(), end()); }

  /// Same elements in the same order (the element type's `==`).
  friend bool operator==(const group_view& a, const group_view& b)
    requires std::equality_comparable<value_type>
  {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i)
      if (!(a[i] == b[i])) return false;
    return true;
  }

  /// Same elements in the same order as any other sized range (e.g. a
  /// `std::vector` of the expected elements).
  template <std::ranges::sized_range R>
    requires(!std::same_as<std::remove_cvref_t<R>, group_view> &&
             std::equality_comparable_with<const value_type&, std::ranges::range_reference_t<const R&>>)
  friend bool operator==(const group_view& a, const R& b) {
    if (a.size_ != static_cast<std::size_t>(std::ranges::size(b))) return false;
    std::size_t i = 0;
    for (auto&& v : b)
      if (!(a[i++] == v)) return false;
    return true;
  }

 private:
  const detail::positional<C>* pos_ = nullptr;
  const exec::row_pos* rows_ = nullptr;
  std::size_t size_ = 0;
  std::shared_ptr<const void> keep_;
};

}  // namespace joinery::loop
