#pragma once
/// @file
/// `col<T, "name">`: a typed reference to a column of a table (or alias), the
/// leaf of every expression. A name the table does not have is reported by
/// `validate()` and refused by every entry point as `joinery[unknown_column]`,
/// so the mistake is caught once, where the plan is checked.
#include <joinery/core/fixed_string.hpp>
#include <joinery/schema/table.hpp>

namespace joinery {

template <table_type T, fixed_string Name>
struct column_ref {
  using table = T;
  static constexpr auto name = Name;
  static constexpr bool resolved = has_column<T, Name>;
};

template <table_type T, fixed_string Name>
inline constexpr column_ref<T, Name> col{};

}  // namespace joinery
