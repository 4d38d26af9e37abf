#pragma once
/// @file
/// What an expression reads, from its type alone: the column references it
/// contains (in order) and the tables they belong to. Join lowering uses it to
/// tell left keys from right keys; `check/` uses it for unknown columns and
/// the cardinality shape rules (E079).
#include <cstddef>
#include <type_traits>

#include <joinery/core/type_list.hpp>
#include <joinery/expr/call.hpp>
#include <joinery/expr/column_ref.hpp>
#include <joinery/expr/expression.hpp>

namespace joinery {

namespace detail {

template <class... A, class... B>
type_list<A..., B...> operator+(type_list<A...>, type_list<B...>);  // concatenation, unevaluated only

/// Concatenation of type lists, as a fold (no recursive instantiation).
template <class... Lists>
using concat_t = decltype((type_list<>{} + ... + Lists{}));

template <class E>
struct expr_columns {
  using type = type_list<>;  // a literal reads nothing
};
template <class T, fixed_string N>
struct expr_columns<column_ref<T, N>> {
  using type = type_list<column_ref<T, N>>;
};
template <class Op, class L, class R>
struct expr_columns<binary<Op, L, R>> {
  using type = concat_t<typename expr_columns<L>::type, typename expr_columns<R>::type>;
};
template <class Op, class E>
struct expr_columns<unary<Op, E>> {
  using type = typename expr_columns<E>::type;
};
template <class F, class... Args>
struct expr_columns<call_expr<F, Args...>> {
  using type = concat_t<typename expr_columns<Args>::type...>;
};

template <class Refs>
struct tables_of_refs;
template <class... Refs>
struct tables_of_refs<type_list<Refs...>> {
  using type = type_list<typename Refs::table...>;
};

template <class T, class List>
struct list_contains;
template <class T, class... Ts>
struct list_contains<T, type_list<Ts...>> : std::bool_constant<(std::is_same_v<T, Ts> || ...)> {};

template <class Sub, class Set>
struct list_subset;
template <class... Ts, class Set>
struct list_subset<type_list<Ts...>, Set> : std::bool_constant<(list_contains<Ts, Set>::value && ...)> {};

}  // namespace detail

/// The column references an expression contains, left to right (a `type_list`).
template <class E>
using expr_columns_t = typename detail::expr_columns<std::remove_cvref_t<E>>::type;

/// The tables (or aliases) an expression reads, one entry per column reference.
template <class E>
using expr_tables_t = typename detail::tables_of_refs<expr_columns_t<E>>::type;

/// True when `List` (a `type_list`) contains `T`.
template <class T, class List>
inline constexpr bool list_contains_v = detail::list_contains<T, List>::value;

/// True when expression `E` reads table `T`.
template <class E, class T>
inline constexpr bool reads_table_v = list_contains_v<T, expr_tables_t<E>>;

/// True when every table `E` reads is in `Tables` (vacuously true for a literal).
template <class E, class Tables>
inline constexpr bool reads_only_v = detail::list_subset<expr_tables_t<E>, Tables>::value;

/// True when `E` reads no table at all (a literal or a call over literals).
template <class E>
inline constexpr bool reads_nothing_v = expr_tables_t<E>::size == 0;

}  // namespace joinery
