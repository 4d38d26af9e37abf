#pragma once
/// @file
/// `sym<"a">`: a range symbol of the aggregate IR, the loop variable a range
/// draws from an index set. Symbols are names, so they appear in compiler
/// notes when a join-resolution rule fires.
#include <type_traits>

#include <joinery/core/fixed_string.hpp>

namespace joinery {

/// The range symbol called `Name`.
template <fixed_string Name>
struct symbol {
  static constexpr auto name = Name;
};

/// `jy::sym<"a">`: the symbol value to write in ranges, keys, factors and outputs.
template <fixed_string Name>
inline constexpr symbol<Name> sym{};

namespace detail {
template <class T>
struct is_symbol : std::false_type {};
template <fixed_string Name>
struct is_symbol<symbol<Name>> : std::true_type {};
}  // namespace detail

/// A `symbol<...>` type.
template <class T>
concept symbol_type = detail::is_symbol<std::remove_cvref_t<T>>::value;

}  // namespace joinery
