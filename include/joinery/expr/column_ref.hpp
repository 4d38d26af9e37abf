#pragma once
/// @file
/// `col<T, "name">`: a typed reference to a column of a table (or alias), the
/// leaf of every expression. A name the table does not have is reported by
/// `validate()` and refused by every entry point as `joinery[unknown_column]`,
/// so the mistake is caught once, where the plan is checked (forming the
/// reference itself never fails).
#include <joinery/core/fixed_string.hpp>
#include <joinery/expr/expression.hpp>
#include <joinery/schema/table.hpp>

namespace joinery {

template <table_type T, fixed_string Name>
struct column_ref : detail::expr_tag {
  using table = T;
  static constexpr auto name = Name;
  static constexpr bool resolved = has_column<T, Name>;
};

template <table_type T, fixed_string Name>
inline constexpr column_ref<T, Name> col{};

namespace detail {
template <class E>
struct is_column_ref : std::false_type {};
template <class T, fixed_string N>
struct is_column_ref<column_ref<T, N>> : std::true_type {};
}  // namespace detail

/// True for a plain column reference (no operator, no call around it).
template <class E>
inline constexpr bool is_column_ref_v = detail::is_column_ref<std::remove_cvref_t<E>>::value;

}  // namespace joinery
