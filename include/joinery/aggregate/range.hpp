#pragma once
/// @file
/// `range(sym, set)`, `ranges(...)` and `output_idx(syms...)`: which symbols an
/// aggregate binds, the index set each one draws from, and which of them are
/// kept in the result (the others are contracted by the semiring).
#include <type_traits>

#include <joinery/aggregate/index_set.hpp>
#include <joinery/aggregate/symbol.hpp>

namespace joinery {

/// Symbol `Sym` draws positions from index set `Set`.
template <class Sym, class Set>
struct range_decl {
  using symbol = Sym;
  using set = Set;
};

/// `jy::range(a, row_ax{})`.
template <symbol_type Sym, index_set_type Set>
[[nodiscard]] constexpr range_decl<Sym, Set> range(Sym, Set) noexcept {
  return {};
}

namespace detail {
template <class T>
struct is_range_decl : std::false_type {};
template <class S, class X>
struct is_range_decl<range_decl<S, X>> : std::true_type {};
}  // namespace detail

/// The ranges of one aggregate, in declaration order.
template <class... Ranges>
struct ranges_t {};

/// `jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{}))`.
template <class... Ranges>
  requires(detail::is_range_decl<Ranges>::value && ...)
[[nodiscard]] constexpr ranges_t<Ranges...> ranges(Ranges...) noexcept {
  return {};
}

/// The output symbols of an aggregate, in result (row-major) order.
template <class... Syms>
struct output_idx_t {};

/// `jy::output_idx(a)`; `jy::output_idx()` reduces everything to one value.
template <symbol_type... Syms>
[[nodiscard]] constexpr output_idx_t<Syms...> output_idx(Syms...) noexcept {
  return {};
}

}  // namespace joinery
