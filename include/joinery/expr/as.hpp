#pragma once
/// @file
/// `as<"name">(x)`: names a projected expression (`select`), a group key
/// (`group_by`) or an aggregate (`aggregate`). The name becomes a column of
/// the result table.
#include <type_traits>

#include <joinery/core/fixed_string.hpp>

namespace joinery {

/// `x` under the result-column name `Name`.
template <fixed_string Name, class X>
struct named {
  static constexpr auto name = Name;
  using value_type = X;
  X value;
};

/// `as<"name">(x)`: see `named`.
template <fixed_string Name, class X>
[[nodiscard]] constexpr named<Name, X> as(const X& x) {
  return {x};
}

namespace detail {
template <class T>
struct is_named : std::false_type {};
template <fixed_string N, class X>
struct is_named<named<N, X>> : std::true_type {};
}  // namespace detail

/// True for an `as<"name">(...)` value.
template <class T>
concept named_item = detail::is_named<std::remove_cvref_t<T>>::value;

}  // namespace joinery
