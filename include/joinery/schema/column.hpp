#pragma once
/// @file
/// `column<"name", T>`: a named, typed column; `std::optional<T>` means nullable.
#include <joinery/core/fixed_string.hpp>
#include <joinery/core/key.hpp>

namespace joinery {

template <fixed_string Name, class T>
struct column {
  static constexpr auto name = Name;
  using type = T;                               // stored type (std::optional<U> when nullable)
  using value_type = unwrap_optional_t<T>;      // the value without the NULL
  static constexpr bool nullable = is_optional_v<T>;
};

}  // namespace joinery
