#pragma once
/// @file
/// `relation<T>`: columnar storage for a table type (one contiguous vector per
/// column), rows read with `get<"name">(row)`, and a version that changes on
/// every mutation (so a `materialized` can tell what it already verified).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include <joinery/core/fixed_string.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/schema/table.hpp>

namespace joinery {

namespace detail {
/// Versions are unique across all relations, so (address, version) never
/// names two different contents.
inline std::uint64_t next_version() noexcept {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

}  // namespace detail

/// `get<"name">(row)`: reads a column of any joinery row (relation rows,
/// result rows of `run`).
template <fixed_string Name, class Row>
constexpr decltype(auto) get(const Row& row) {
  return row.template get<Name>();
}

template <table_type T, class Columns = typename T::columns>
class relation;

template <table_type T, class... Cols>
class relation<T, type_list<Cols...>> : detail::distinct_columns<T> {
  static_assert(sizeof...(Cols) > 0, "joinery: a table needs at least one column");

 public:
  using table_type = T;
  /// One row's values, in column order: `{1, 10, 9.5}` converts to it.
  using row_type = std::tuple<typename Cols::type...>;

  /// A light reference to row `index()` of a relation.
  class row_ref {
   public:
    row_ref() = default;
    row_ref(const relation* r, std::size_t i) noexcept : rel_(r), i_(i) {}
    template <fixed_string Name>
    [[nodiscard]] const auto& get() const {
      return rel_->template column<Name>()[i_];
    }
    [[nodiscard]] std::size_t index() const noexcept { return i_; }
    [[nodiscard]] row_type values() const { return rel_->row(i_); }

   private:
    const relation* rel_ = nullptr;
    std::size_t i_ = 0;
  };

  class iterator {
   public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::input_iterator_tag;
    using value_type = row_ref;
    using difference_type = std::ptrdiff_t;
    using reference = row_ref;

    iterator() = default;
    iterator(const relation* r, std::size_t i) noexcept : rel_(r), i_(i) {}
    row_ref operator*() const noexcept { return {rel_, i_}; }
    row_ref operator[](difference_type n) const noexcept { return {rel_, i_ + static_cast<std::size_t>(n)}; }
    iterator& operator++() noexcept { ++i_; return *this; }
    iterator operator++(int) noexcept { auto t = *this; ++i_; return t; }
    iterator& operator--() noexcept { --i_; return *this; }
    iterator operator--(int) noexcept { auto t = *this; --i_; return t; }
    iterator& operator+=(difference_type n) noexcept { i_ = static_cast<std::size_t>(static_cast<difference_type>(i_) + n); return *this; }
    iterator& operator-=(difference_type n) noexcept { return *this += -n; }
    friend iterator operator+(iterator it, difference_type n) noexcept { return it += n; }
    friend iterator operator+(difference_type n, iterator it) noexcept { return it += n; }
    friend iterator operator-(iterator it, difference_type n) noexcept { return it -= n; }
    friend difference_type operator-(const iterator& a, const iterator& b) noexcept {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.i_ == b.i_; }
    friend auto operator<=>(const iterator& a, const iterator& b) noexcept { return a.i_ <=> b.i_; }

   private:
    const relation* rel_ = nullptr;
    std::size_t i_ = 0;
  };

  relation() = default;
  relation(std::initializer_list<row_type> rows) {
    reserve(rows.size());
    for (const auto& r : rows) append_unversioned(r);
    touch();
  }
  relation(const relation& o) : cols_(o.cols_), version_(detail::next_version()) {}
  relation(relation&& o) noexcept : cols_(std::move(o.cols_)), version_(detail::next_version()) { o.touch(); }
  relation& operator=(const relation& o) {
    if (this != &o) {
      auto copy = o.cols_;  // copy first: strong guarantee
      cols_ = std::move(copy);
      touch();
    }
    return *this;
  }
  relation& operator=(relation&& o) noexcept {
    cols_ = std::move(o.cols_);
    touch();
    o.touch();
    return *this;
  }
  ~relation() = default;

  /// Appends one row. Strong guarantee: if a copy throws, no column grows.
  void insert(const row_type& r) {
    append_unversioned(r);
    touch();
  }
  void insert(row_type&& r) {
    append_unversioned(std::move(r));
    touch();
  }
  /// Appends every row of `rows`. Strong guarantee for the whole batch.
  void insert(std::initializer_list<row_type> rows) {
    const std::size_t before = size();
    try {
      for (const auto& r : rows) append_unversioned(r);
    } catch (...) {
      truncate(before);
      throw;
    }
    touch();
  }

  void reserve(std::size_t n) {
    std::apply([n](auto&... v) { (v.reserve(n), ...); }, cols_);
  }
  void clear() noexcept {
    std::apply([](auto&... v) { (v.clear(), ...); }, cols_);
    touch();
  }

  [[nodiscard]] std::size_t size() const noexcept { return std::get<0>(cols_).size(); }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  /// Changes on every mutation; unique across relations.
  [[nodiscard]] std::uint64_t version() const noexcept { return version_; }

  /// The column called `Name`, contiguous. A misspelt name is
  /// `joinery[unknown_column]` naming the table and the name.
  template <fixed_string Name>
  [[nodiscard]] auto column() const {
    constexpr std::size_t i = detail::column_index<T>(Name.view());
    if constexpr (i == detail::npos) {
      (void)unknown_column_in<T, spelled<Name>>{};
      return std::span<const int>{};  // the error above is the one to read: stop the cascade here
    } else {
      using value_t = typename std::tuple_element_t<i, std::tuple<Cols...>>::type;
      return std::span<const value_t>(std::get<i>(cols_));
    }
  }
  /// Column by position (used by generated code that already resolved names).
  template <std::size_t I>
  [[nodiscard]] const auto& column_at() const noexcept {
    return std::get<I>(cols_);
  }

  [[nodiscard]] row_type row(std::size_t i) const {
    return std::apply([i](const auto&... v) { return row_type(v[i]...); }, cols_);
  }
  [[nodiscard]] row_ref operator[](std::size_t i) const noexcept { return {this, i}; }
  [[nodiscard]] iterator begin() const noexcept { return {this, 0}; }
  [[nodiscard]] iterator end() const noexcept { return {this, size()}; }

  /// Same rows, same order (values compared with the column type's `==`).
  friend bool operator==(const relation& a, const relation& b) { return a.cols_ == b.cols_; }

  /// Bulk access for the runtime: moves whole columns in (all the same length).
  void assign_columns(std::vector<typename Cols::type>... cols) {
    cols_ = std::tuple<std::vector<typename Cols::type>...>(std::move(cols)...);
    touch();
  }

 private:
  template <class R>
  void append_unversioned(R&& r) {
    const std::size_t before = size();
    try {
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        (std::get<I>(cols_).push_back(std::get<I>(std::forward<R>(r))), ...);
      }(std::index_sequence_for<Cols...>{});
    } catch (...) {
      truncate(before);
      throw;
    }
  }
  void truncate(std::size_t n) noexcept {
    std::apply([n](auto&... v) { (v.erase(v.begin() + static_cast<std::ptrdiff_t>(n), v.end()), ...); }, cols_);
  }
  void touch() noexcept { version_ = detail::next_version(); }

  std::tuple<std::vector<typename Cols::type>...> cols_;
  std::uint64_t version_ = detail::next_version();
};

}  // namespace joinery
