#pragma once
/// @file
/// Recognition: which lookup sites of a loop query are equi-joins, decided at
/// compile time from the expression tree's TYPES (after user helper functions
/// have built it, so a lookup written three helpers deep is found the same).
/// The conditions, not the spelling (reference/003):
/// * map_get / map_contains(m, k) inside a loop: m reads only a capture, k
///   reads only loop elements (and literals);
/// * filter_list(y, ys, a == b) inside a loop: ys reads only a capture, one
///   side of the `==` (either one) reads only y, the other only the loop
///   elements outside it.
/// `recognised(q)` and `refusal_of(q)` are constexpr.
#include <array>
#include <cstddef>
#include <type_traits>

#include <joinery/core/type_list.hpp>
#include <joinery/loop/expr.hpp>
#include <joinery/loop/lookups.hpp>
#include <joinery/loop/refusal.hpp>

namespace joinery::loop {

/// What a lookup site answers.
enum class site_kind { map_get, map_contains, filter, count, min, max, sum };

/// One lookup site's verdict. `in_loop` is false for a node no loop encloses
/// (e.g. the top-level filter of a restriction): it is the loop, not a lookup.
struct site_info {
  site_kind kind = site_kind::filter;
  refusal why = refusal::none;
  bool in_loop = false;
};

namespace detail {

template <class T>
inline constexpr bool is_capture_v = false;
template <class C>
inline constexpr bool is_capture_v<capture_t<C>> = true;

template <class T>
inline constexpr bool is_eq_v = false;
template <class L, class R>
inline constexpr bool is_eq_v<binop_t<ops::eq, L, R>> = true;

template <class T>
inline constexpr bool is_filter_v = false;
template <fixed_string N, class C, class P>
inline constexpr bool is_filter_v<filter_list_t<N, C, P>> = true;

template <class Scope>
inline constexpr bool nonempty_v = false;
template <class... Vs>
inline constexpr bool nonempty_v<type_list<Vs...>> = sizeof...(Vs) > 0;

template <class Scope, fixed_string Name>
using bind_t = concat_t<remove_var_t<var_t<Name>, Scope>, type_list<var_t<Name>>>;

/// Refusal of `map_get` / `map_contains(C, K)` in a loop.
template <class C, class K>
constexpr refusal map_refusal() {
  if (nonempty_v<free_vars_t<C>>) return refusal::collection_reads_element;
  if (!is_capture_v<C>) return refusal::collection_not_captured;
  if (reads_capture<K>) return refusal::key_reads_collection;
  if (!nonempty_v<free_vars_t<K>>) return refusal::key_reads_no_element;
  return refusal::none;
}

/// How one side of a filter's `==` reads: the filtered element, the loop's
/// elements outside it, both, or neither (literals only).
template <fixed_string Y, class Side>
struct side_reads {
  static constexpr bool row = has_var<var_t<Y>, free_vars_t<Side>>;
  static constexpr bool outer = nonempty_v<remove_var_t<var_t<Y>, free_vars_t<Side>>>;
};

/// Refusal of `filter_list(Y, C, P)` in a loop; `left_is_index` says which
/// side of the `==` is g(y) when recognised.
template <fixed_string Y, class C, class P>
struct filter_verdict {
  static constexpr refusal compute() {
    if (nonempty_v<free_vars_t<C>>) return refusal::collection_reads_element;
    if (!is_capture_v<C>) return refusal::collection_not_captured;
    if constexpr (!is_eq_v<P>) {
      return refusal::predicate_not_equality;
    } else {
      using A = side_reads<Y, typename P::left_t>;
      using B = side_reads<Y, typename P::right_t>;
      if (reads_capture<typename P::left_t> || reads_capture<typename P::right_t>) return refusal::key_reads_collection;
      if ((A::row && A::outer) || (B::row && B::outer)) return refusal::key_mixes_rows;
      if ((A::row && B::outer) || (B::row && A::outer)) return refusal::none;
      if (A::row && B::row) return refusal::key_reads_filtered_row;
      if (A::row || B::row) return refusal::key_reads_no_element;
      return refusal::index_key_reads_no_row;
    }
  }
  static constexpr refusal why = compute();
  static constexpr bool left_is_index = [] {
    if constexpr (is_eq_v<P>) return side_reads<Y, typename P::left_t>::row;
    else return true;
  }();
};

template <std::size_t A, std::size_t B>
constexpr std::array<site_info, A + B> cat(const std::array<site_info, A>& a, const std::array<site_info, B>& b) {
  std::array<site_info, A + B> out{};
  for (std::size_t i = 0; i < A; ++i) out[i] = a[i];
  for (std::size_t i = 0; i < B; ++i) out[A + i] = b[i];
  return out;
}

template <class N>
struct analyse;

/// The verdicts of every lookup site of N, in pre-order, when the variables
/// of Scope are bound around it.
template <class N, class Scope>
constexpr auto sites_of() {
  if constexpr (site_count<N> == 0) return std::array<site_info, 0>{};
  else return analyse<N>::template sites<Scope>();
}

template <class N>
struct analyse {  // leaves and nodes with no lookup sites
  template <class Scope>
  static constexpr std::array<site_info, 0> sites() { return {}; }
};
template <class E, class P>
struct analyse<member_t<E, P>> {
  template <class S> static constexpr auto sites() { return sites_of<E, S>(); }
};
template <fixed_string Nm, class E>
struct analyse<field_t<Nm, E>> {
  template <class S> static constexpr auto sites() { return sites_of<E, S>(); }
};
template <class Op, class E>
struct analyse<unop_t<Op, E>> {
  template <class S> static constexpr auto sites() { return sites_of<E, S>(); }
};
template <class Op, class L, class R>
struct analyse<binop_t<Op, L, R>> {
  template <class S> static constexpr auto sites() { return cat(sites_of<L, S>(), sites_of<R, S>()); }
};
template <class... Es>
struct analyse<tuple_t<Es...>> {
  template <class S>
  static constexpr auto sites() {
    std::array<site_info, (std::size_t{0} + ... + site_count<Es>)> out{};
    std::size_t i = 0;
    auto put = [&](const auto& a) { for (const auto& s : a) out[i++] = s; };
    (put(sites_of<Es, S>()), ...);
    return out;
  }
};
template <fixed_string Nm, class C, class B>
struct analyse<for_each_t<Nm, C, B>> {
  template <class S> static constexpr auto sites() { return cat(sites_of<C, S>(), sites_of<B, bind_t<S, Nm>>()); }
};
template <fixed_string Nm, class L, class E>
struct analyse<map_list_t<Nm, L, E>> {
  template <class S> static constexpr auto sites() { return cat(sites_of<L, S>(), sites_of<E, bind_t<S, Nm>>()); }
};
template <fixed_string Nm, class C, class P>
struct analyse<filter_list_t<Nm, C, P>> {
  template <class S>
  static constexpr auto sites() {
    const std::array<site_info, 1> own{site_info{site_kind::filter, filter_verdict<Nm, C, P>::why, nonempty_v<S>}};
    return cat(cat(own, sites_of<C, S>()), sites_of<P, bind_t<S, Nm>>());
  }
};
template <class C, class K>
struct analyse<map_get_t<C, K>> {
  template <class S>
  static constexpr auto sites() {
    const std::array<site_info, 1> own{site_info{site_kind::map_get, map_refusal<C, K>(), nonempty_v<S>}};
    return cat(cat(own, sites_of<C, S>()), sites_of<K, S>());
  }
};
template <class C, class K>
struct analyse<map_contains_t<C, K>> {
  template <class S>
  static constexpr auto sites() {
    const std::array<site_info, 1> own{site_info{site_kind::map_contains, map_refusal<C, K>(), nonempty_v<S>}};
    return cat(cat(own, sites_of<C, S>()), sites_of<K, S>());
  }
};

/// The filter an aggregate reads from, bare or through a map_list: the
/// aggregate is answered at that filter's site.
template <class L>
inline constexpr bool agg_over_filter_v = is_filter_v<L>;
template <fixed_string Nm, class L, class E>
inline constexpr bool agg_over_filter_v<map_list_t<Nm, L, E>> = is_filter_v<L>;

template <agg A, class L>
struct analyse<list_agg_t<A, L>> {
  template <class S>
  static constexpr auto sites() {
    auto out = sites_of<L, S>();
    if constexpr (agg_over_filter_v<L>) {
      out[0].kind = A == agg::len ? site_kind::count
                  : A == agg::min ? site_kind::min
                  : A == agg::max ? site_kind::max
                                  : site_kind::sum;
    }
    return out;
  }
};

template <class Q>
inline constexpr auto query_sites = sites_of<Q, type_list<>>();

template <class Q>
constexpr refusal query_refusal() {
  bool any = false;
  for (const auto& s : query_sites<Q>) {
    if (!s.in_loop) continue;
    if (s.why != refusal::none) return s.why;
    any = true;
  }
  return any ? refusal::none : refusal::no_lookup;
}

}  // namespace detail

/// Why q is not recognised (`refusal::none` when every lookup site inside a
/// loop is a join). The first refused site in pre-order names the reason.
template <expression Q>
constexpr refusal refusal_of(const Q&) noexcept {
  return detail::query_refusal<Q>();
}

/// True when every lookup of q is answered from an index (constexpr).
template <expression Q>
constexpr bool recognised(const Q&) noexcept {
  return detail::query_refusal<Q>() == refusal::none;
}

/// The verdict of every lookup site of q, in pre-order (constexpr).
template <expression Q>
constexpr auto sites(const Q&) noexcept {
  return detail::query_sites<Q>;
}

}  // namespace joinery::loop
