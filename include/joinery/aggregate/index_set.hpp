#pragma once
/// @file
/// `index_set<"name">`: an axis of the aggregate IR (reference/000). Users
/// derive a named struct from it, `struct row_ax : jy::index_set<"row_ax"> {};`,
/// and give its size at evaluation time with `jy::extent(row_ax{}, n)`.
#include <cstddef>
#include <type_traits>

#include <joinery/core/fixed_string.hpp>

namespace joinery {

namespace detail {
struct index_set_tag {};
}  // namespace detail

/// An index set (an axis) called `Name`; ranges draw symbols from it and data
/// columns are declared over it. Index sets are identified by name.
template <fixed_string Name>
struct index_set : detail::index_set_tag {
  static constexpr auto name = Name;
};

/// An index set type: `index_set<...>` or a struct derived from one.
template <class T>
concept index_set_type = std::is_base_of_v<detail::index_set_tag, T> && requires { T::name; };

/// The size of index set `Set` for one evaluation: positions `0 .. n-1`.
template <index_set_type Set>
struct extent_t {
  using set = Set;
  std::size_t n = 0;
};

/// `jy::extent(row_ax{}, 5)`: index set `row_ax` has 5 positions in this evaluation.
template <index_set_type Set>
[[nodiscard]] constexpr extent_t<Set> extent(Set, std::size_t n) noexcept {
  return extent_t<Set>{n};
}

namespace detail {
template <class T>
struct is_extent : std::false_type {};
template <class Set>
struct is_extent<extent_t<Set>> : std::true_type {};
}  // namespace detail

}  // namespace joinery
