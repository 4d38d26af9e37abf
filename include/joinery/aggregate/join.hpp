#pragma once
/// @file
/// `join(on(l, r)..., [syms(l, r)])`: an equality gate between range symbols.
/// Several `on` pairs in one clause form a composite key; several clauses are
/// allowed. Each key is a range symbol (its row position), an index set (the
/// position of the symbol drawing it) or a 1-D data column (its value at the
/// symbol it is read at). Which symbol a key is read at is decided in check/
/// (DESIGN.md §2.3), never here.
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include <joinery/aggregate/data.hpp>
#include <joinery/aggregate/index_set.hpp>
#include <joinery/aggregate/symbol.hpp>
#include <joinery/core/key.hpp>
#include <joinery/core/type_list.hpp>

namespace joinery {

/// A key of an `on` pair: a range symbol, an index set or a data column.
template <class T>
concept join_key = symbol_type<T> || index_set_type<T> || data_column_type<T>;

namespace detail {
/// The canonical value a key compares by: a position for symbols and index sets.
template <class K>
struct agg_key_value {
  using type = std::int64_t;
};
template <data_column_type K>
struct agg_key_value<K> {
  using type = canonical_key_t<unwrap_optional_t<typename K::value_type>>;
};
template <class K>
using agg_key_value_t = typename agg_key_value<K>::type;
}  // namespace detail

/// One key pair `left == right` of a join clause.
template <class L, class R>
struct on_pair {
  using left = L;
  using right = R;
};

/// `jy::on(r_priorID, r_id)`: the left key equals the right key.
template <join_key L, join_key R>
[[nodiscard]] constexpr on_pair<L, R> on(L, R) noexcept {
  static_assert(std::is_same_v<detail::agg_key_value_t<L>, detail::agg_key_value_t<R>>,
                "joinery: the two keys of jy::on(l, r) compare values of different types; positions "
                "(symbols, index sets) are std::int64_t");
  return {};
}

/// The explicit sides of a join clause: every left key is read at `L`, every right key at `R`.
template <class L, class R>
struct syms_t {
  using left = L;
  using right = R;
};

/// `jy::syms(cur, prev)` (reference/000 §2.3): authoritative; required when a
/// data-column key's index set is drawn by three or more symbols.
template <symbol_type L, symbol_type R>
[[nodiscard]] constexpr syms_t<L, R> syms(L, R) noexcept {
  return {};
}

/// A clause without `syms`: sides come from the canonical range order.
struct no_syms {};

/// One join clause: its `on` pairs (a composite key) and its `syms` (or `no_syms`).
template <class Pairs, class Syms>
struct join_clause {
  using pairs = Pairs;
  using sides = Syms;
};

namespace detail {
template <class T>
struct is_on_pair : std::false_type {};
template <class L, class R>
struct is_on_pair<on_pair<L, R>> : std::true_type {};
template <class T>
struct is_syms : std::false_type {};
template <class L, class R>
struct is_syms<syms_t<L, R>> : std::true_type {};
template <class T>
struct is_join_clause : std::false_type {};
template <class P, class S>
struct is_join_clause<join_clause<P, S>> : std::true_type {};

template <class... A, std::size_t... I>
constexpr bool leading_on_pairs(std::index_sequence<I...>) {
  return (is_on_pair<nth_type<I, A...>>::value && ...);
}
template <class... A, std::size_t... I>
constexpr auto join_with_syms(std::index_sequence<I...>) {
  return join_clause<type_list<nth_type<I, A...>...>, nth_type<sizeof...(A) - 1, A...>>{};
}
}  // namespace detail

/// `jy::join(jy::on(l, r)...)`: a join clause whose sides follow the canonical order.
template <class... P>
  requires(sizeof...(P) >= 1 && (detail::is_on_pair<P>::value && ...))
[[nodiscard]] constexpr join_clause<type_list<P...>, no_syms> join(P...) noexcept {
  return {};
}

/// `jy::join(jy::on(l, r)..., jy::syms(left_sym, right_sym))`: explicit sides.
template <class... A>
  requires(sizeof...(A) >= 2 && detail::is_syms<detail::nth_type<sizeof...(A) - 1, A...>>::value &&
           detail::leading_on_pairs<A...>(std::make_index_sequence<sizeof...(A) - 1>{}))
[[nodiscard]] constexpr auto join(A...) noexcept {
  return detail::join_with_syms<A...>(std::make_index_sequence<sizeof...(A) - 1>{});
}

}  // namespace joinery
