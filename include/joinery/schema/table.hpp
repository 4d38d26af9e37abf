#pragma once
/// @file
/// `table<"name", column...>`: a schema as a type. Users derive a named struct
/// from it (`struct orders : jy::table<"orders", ...> {};`). Schema facts
/// (lookup by name, duplicates) are constexpr loops over the pack.
#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include <joinery/core/fixed_string.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/schema/column.hpp>

namespace joinery {

namespace detail {
struct table_tag {};
}  // namespace detail

template <fixed_string Name, class... Columns>
struct table : detail::table_tag {
  static constexpr auto name = Name;
  using columns = type_list<Columns...>;
  static constexpr std::size_t column_count = sizeof...(Columns);
  static constexpr std::array<std::string_view, sizeof...(Columns)> column_names{Columns::name.view()...};
};

/// A schema type: a `table<...>`, a struct derived from one, or an `alias`.
template <class T>
concept table_type = std::is_base_of_v<detail::table_tag, T> && requires {
  T::name;
  typename T::columns;
};

namespace detail {

template <class T>
struct base_table_of {
  using type = T;
};
template <class T>
  requires requires { typename T::base_table; }
struct base_table_of<T> {
  using type = typename T::base_table;
};

/// Index of the column called `name` in T, or npos. A constexpr loop.
template <table_type T>
constexpr std::size_t column_index(std::string_view name) noexcept {
  for (std::size_t i = 0; i < T::column_names.size(); ++i)
    if (T::column_names[i] == name) return i;
  return npos;
}

/// Index of the first column whose name occurred earlier, or npos.
template <table_type T>
constexpr std::size_t first_duplicate_column() noexcept {
  const auto& n = T::column_names;
  for (std::size_t i = 0; i < n.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (n[i] == n[j]) return i;
  return npos;
}

template <class List, std::size_t I>
struct column_at;
template <class... Cs, std::size_t I>
struct column_at<type_list<Cs...>, I> {
  using type = nth_type<I, Cs...>;
};

}  // namespace detail

/// The table whose relation an alias (or the table itself) reads.
template <class T>
using base_table_t = typename detail::base_table_of<T>::type;

/// True when `T` has a column called `Name`.
template <table_type T, fixed_string Name>
inline constexpr bool has_column = detail::column_index<T>(Name.view()) != detail::npos;

/// The column type `column<Name, U>` of `T` (T must have it).
template <table_type T, fixed_string Name>
using column_t = typename detail::column_at<typename T::columns, detail::column_index<T>(Name.view())>::type;

// ---- diagnostics: the offending names are template arguments, so they are
// printed in the note that points at the failing assertion.

/// Instantiated when `Table` has no column called `Column` (a `spelled<"name">`).
template <class Table, class Column>
struct unknown_column_in {
  static_assert(detail::always_false<Table>::value,
                "joinery[unknown_column]: the table has no column of that name (both are the template "
                "arguments of unknown_column_in<Table, Column> in the note below); check the spelling "
                "against the table's jy::column<...> list");
};

/// Instantiated when `Table` declares the column `Column` (a `spelled<"name">`) twice.
template <class Table, class Column>
struct duplicate_column_in {
  static_assert(detail::always_false<Table>::value,
                "joinery[duplicate_column]: the table declares a column name twice (see "
                "duplicate_column_in<Table, Column> in the note below); rename one of them");
};

namespace detail {
/// Empty when T's column names are distinct; otherwise derives from the one
/// `joinery[duplicate_column]` report naming the table and column. Used as a
/// base, so the report is the only error (nothing downstream depends on it).
template <table_type T, std::size_t D = first_duplicate_column<T>()>
struct distinct_columns {};
template <table_type T, std::size_t D>
  requires(D != npos)
struct distinct_columns<T, D> : duplicate_column_in<T, spelled<column_at<typename T::columns, D>::type::name>> {};
}  // namespace detail

}  // namespace joinery
