#pragma once
/// @file
/// `data<"name", T>(axes...)`: a data column of the aggregate IR, declared over
/// one or more index sets. A 1-D column is a join key (`jy::on(r_priorID, r_id)`)
/// and, applied to a symbol (`value(b)`), a factor; a multi-dimensional column
/// is only a factor (`w(a, b)`). Assigning values to it (`r_id = std::vector{...}`)
/// makes the binding `jy::evaluate` reads.
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/aggregate/index_set.hpp>
#include <joinery/aggregate/symbol.hpp>
#include <joinery/core/fixed_string.hpp>
#include <joinery/core/type_list.hpp>

namespace joinery {

template <class Data, class... Syms>
struct factor;
template <class Data, class Storage>
struct binding;

/// A data column called `Name` with values of type `T` (std::optional<U> =
/// nullable, usable as a key only) over the index sets `Axes...` (row-major).
template <fixed_string Name, class T, index_set_type... Axes>
struct data_column {
  static_assert(sizeof...(Axes) >= 1, "joinery: a data column is declared over at least one index set");
  static constexpr auto name = Name;
  using value_type = T;
  using axes = type_list<Axes...>;
  static constexpr std::size_t rank = sizeof...(Axes);

  /// The factor "this column read at these symbols" (one symbol per axis).
  template <symbol_type... S>
    requires(sizeof...(S) == sizeof...(Axes))
  [[nodiscard]] constexpr factor<data_column, std::remove_cvref_t<S>...> operator()(S...) const noexcept {
    return {};
  }

  /// Binds values (row-major over the axes); the binding owns a moved-in vector.
  binding<data_column, std::vector<T>> operator=(std::vector<T>&& values) const {  // NOLINT: binding syntax
    return {std::move(values)};
  }
  /// Binds values without copying: the vector must outlive the evaluation.
  binding<data_column, const std::vector<T>*> operator=(const std::vector<T>& values) const {  // NOLINT
    return {&values};
  }
};

/// `jy::data<"r_id", std::int64_t>(row_ax{})`: declares a data column.
template <fixed_string Name, class T, index_set_type... Axes>
  requires(sizeof...(Axes) >= 1)
[[nodiscard]] constexpr data_column<Name, T, Axes...> data(Axes...) noexcept {
  return {};
}

/// Data column `Data` read at the symbols `Syms...` (one per axis): a factor of
/// a semiring reduction.
template <class Data, class... Syms>
struct factor {
  using data = Data;
  using syms = type_list<Syms...>;
};

/// Values bound to data column `Data` for one evaluation.
template <class Data, class Storage>
struct binding {
  using data = Data;
  Storage storage;
  /// The bound values, whether owned or referenced.
  [[nodiscard]] const auto& values() const noexcept {
    if constexpr (std::is_pointer_v<Storage>) return *storage;
    else return storage;
  }
};

namespace detail {
template <class T>
struct is_data_column : std::false_type {};
template <fixed_string Name, class T, class... Axes>
struct is_data_column<data_column<Name, T, Axes...>> : std::true_type {};

template <class T>
struct is_factor : std::false_type {};
template <class D, class... S>
struct is_factor<factor<D, S...>> : std::true_type {};

template <class T>
struct is_binding : std::false_type {};
template <class D, class S>
struct is_binding<binding<D, S>> : std::true_type {};
}  // namespace detail

/// A `data_column<...>` type.
template <class T>
concept data_column_type = detail::is_data_column<std::remove_cvref_t<T>>::value;

/// A factor of the aggregate IR: a data column applied to symbols.
template <class T>
concept aggregate_factor = detail::is_factor<std::remove_cvref_t<T>>::value;

}  // namespace joinery
