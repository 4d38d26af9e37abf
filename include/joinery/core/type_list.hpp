#pragma once
/// @file
/// A minimal type list and index lookups done with constexpr loops over packs
/// (no recursive instantiation: compile time is a budget).
#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>

namespace joinery {

template <class... Ts>
struct type_list {
  static constexpr std::size_t size = sizeof...(Ts);
};

namespace detail {

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

template <std::size_t I, class... Ts>
using nth_type = std::tuple_element_t<I, std::tuple<Ts...>>;

/// Position of the first `true` in a pack of booleans, or npos.
template <std::size_t N>
constexpr std::size_t first_true(const std::array<bool, N>& bits) noexcept {
  for (std::size_t i = 0; i < N; ++i)
    if (bits[i]) return i;
  return npos;
}

/// Index of T in Ts..., or npos.
template <class T, class... Ts>
inline constexpr std::size_t index_of_type =
    first_true(std::array<bool, sizeof...(Ts)>{std::is_same_v<T, Ts>...});

template <class T>
struct always_false : std::false_type {};

}  // namespace detail
}  // namespace joinery
