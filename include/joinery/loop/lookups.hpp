#pragma once
/// @file
/// The loop DSL's collection nodes: `for_each`, `filter_list`, `map_list`,
/// `map_get`, `map_contains`, `list_len`, `list_min`, `list_max`,
/// `list_sum`. Collections are captured by reference (`capture_t`); a node
/// never copies the data it reads.
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include <joinery/core/fixed_string.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/loop/expr.hpp>

namespace joinery::loop {

namespace detail {
/// A collection argument: an expression as it is, a container captured by reference.
template <class C>
constexpr auto as_collection(const C& c) {
  if constexpr (expression<C>) return c;
  else return capture_t<C>(c);
}
template <class C>
using as_collection_t = decltype(as_collection(std::declval<const C&>()));

template <class C>
inline constexpr bool capturable_v = expression<C> || std::is_lvalue_reference_v<C>;

/// An associative container with its own key (std::map, std::unordered_map, ...).
template <class M>
concept associative = requires {
  typename M::key_type;
  typename M::mapped_type;
} && requires(const M& m, const typename M::key_type& k) { m.find(k); };
}  // namespace detail

namespace detail {
template <class C, class B>
void render_binder(std::string& out, std::string_view fn, std::string_view var, const C& c, const B& b) {
  out += fn;
  out += '(';
  out += var;
  out += ", ";
  c.render(out);
  out += ", ";
  b.render(out);
  out += ')';
}
template <class C, class K>
void render_call(std::string& out, std::string_view fn, const C& c, const K& k) {
  out += fn;
  out += '(';
  c.render(out);
  out += ", ";
  k.render(out);
  out += ')';
}
}  // namespace detail

/// `for_each(x, xs, body)`: the body's value for every element of xs, in order.
template <fixed_string Name, class C, class Body>
struct for_each_t : expr_base<for_each_t<Name, C, Body>> {
  static constexpr auto name = Name;
  C coll;
  Body body;
  constexpr for_each_t(C c, Body b) : coll(std::move(c)), body(std::move(b)) {}
  void render(std::string& out) const { detail::render_binder(out, "for_each", Name.view(), coll, body); }
};

/// `filter_list(y, ys, pred)`: the elements of ys for which pred holds, in order.
template <fixed_string Name, class C, class Pred>
struct filter_list_t : expr_base<filter_list_t<Name, C, Pred>> {
  static constexpr auto name = Name;
  C coll;
  Pred pred;
  constexpr filter_list_t(C c, Pred p) : coll(std::move(c)), pred(std::move(p)) {}
  void render(std::string& out) const { detail::render_binder(out, "filter_list", Name.view(), coll, pred); }
};

/// `map_list(y, list, e)`: e for every element of list, in order.
template <fixed_string Name, class L, class E>
struct map_list_t : expr_base<map_list_t<Name, L, E>> {
  static constexpr auto name = Name;
  L list;
  E expr;
  constexpr map_list_t(L l, E e) : list(std::move(l)), expr(std::move(e)) {}
  void render(std::string& out) const { detail::render_binder(out, "map_list", Name.view(), list, expr); }
};

/// `map_get(m, k)`: `std::optional` of the value under key k.
template <class C, class K>
struct map_get_t : expr_base<map_get_t<C, K>> {
  C coll;
  K key;
  constexpr map_get_t(C c, K k) : coll(std::move(c)), key(std::move(k)) {}
  void render(std::string& out) const { detail::render_call(out, "map_get", coll, key); }
};

/// `map_contains(m, k)`: whether m has key k.
template <class C, class K>
struct map_contains_t : expr_base<map_contains_t<C, K>> {
  C coll;
  K key;
  constexpr map_contains_t(C c, K k) : coll(std::move(c)), key(std::move(k)) {}
  void render(std::string& out) const { detail::render_call(out, "map_contains", coll, key); }
};

/// What an aggregate over a list computes.
enum class agg { len, min, max, sum };

/// `list_len` / `list_min` / `list_max` / `list_sum` of a list.
template <agg A, class L>
struct list_agg_t : expr_base<list_agg_t<A, L>> {
  static constexpr agg kind = A;
  L list;
  constexpr explicit list_agg_t(L l) : list(std::move(l)) {}
  void render(std::string& out) const {
    out += A == agg::len ? "list_len(" : A == agg::min ? "list_min(" : A == agg::max ? "list_max(" : "list_sum(";
    list.render(out);
    out += ')';
  }
};

/// `for_each(x, xs, body)`. xs: a container (captured by reference) or an expression.
template <fixed_string Name, class C, class Body>
constexpr auto for_each(var_t<Name>, C&& xs, const Body& body) {
  static_assert(detail::capturable_v<C>, "joinery: for_each captures its collection by reference; pass a named container, not a temporary");
  using CC = std::remove_cvref_t<C>;
  return for_each_t<Name, detail::as_collection_t<CC>, as_expr_t<Body>>(detail::as_collection(xs), as_expr(body));
}

/// `filter_list(y, ys, pred)`.
template <fixed_string Name, class C, class Pred>
constexpr auto filter_list(var_t<Name>, C&& ys, const Pred& pred) {
  static_assert(detail::capturable_v<C>, "joinery: filter_list captures its collection by reference; pass a named container, not a temporary");
  using CC = std::remove_cvref_t<C>;
  return filter_list_t<Name, detail::as_collection_t<CC>, as_expr_t<Pred>>(detail::as_collection(ys), as_expr(pred));
}

/// `map_list(y, list, e)`.
template <fixed_string Name, class L, class E>
constexpr auto map_list(var_t<Name>, L&& list, const E& e) {
  static_assert(detail::capturable_v<L>, "joinery: map_list captures its collection by reference; pass a named container, not a temporary");
  using LL = std::remove_cvref_t<L>;
  return map_list_t<Name, detail::as_collection_t<LL>, as_expr_t<E>>(detail::as_collection(list), as_expr(e));
}

/// `map_get(m, k)`: m is an associative container (std::map, std::unordered_map).
/// A `jy::relation` has no key of its own: write
/// `filter_list(y, rel, lp::get<"c">(y) == k)` instead.
template <class M, class K>
constexpr auto map_get(M&& m, const K& k) {
  static_assert(detail::capturable_v<M>, "joinery: map_get captures its map by reference; pass a named container, not a temporary");
  using MM = std::remove_cvref_t<M>;
  static_assert(expression<MM> || detail::associative<MM>,
                "joinery: map_get looks up an associative container (std::map, std::unordered_map); for a "
                "jy::relation or a vector write filter_list(y, rows, key(y) == k)");
  return map_get_t<detail::as_collection_t<MM>, as_expr_t<K>>(detail::as_collection(m), as_expr(k));
}

/// `map_contains(m, k)`; `!map_contains(m, k)` is its negation (an anti-join).
template <class M, class K>
constexpr auto map_contains(M&& m, const K& k) {
  static_assert(detail::capturable_v<M>, "joinery: map_contains captures its map by reference; pass a named container, not a temporary");
  using MM = std::remove_cvref_t<M>;
  static_assert(expression<MM> || detail::associative<MM>,
                "joinery: map_contains looks up an associative container (std::map, std::unordered_map); for a "
                "jy::relation or a vector write filter_list / list_len over it");
  return map_contains_t<detail::as_collection_t<MM>, as_expr_t<K>>(detail::as_collection(m), as_expr(k));
}

namespace detail {
template <agg A, class L>
constexpr auto make_agg(const L& l) {
  if constexpr (expression<L>) return list_agg_t<A, L>(l);
  else return list_agg_t<A, capture_t<L>>(capture_t<L>(l));
}
}  // namespace detail

/// Number of elements of a list (a recognised filter's group is counted, never built).
template <class L>
constexpr auto list_len(const L& l) { return detail::make_agg<agg::len>(l); }
/// Smallest element (`std::optional`, empty for an empty list).
template <class L>
constexpr auto list_min(const L& l) { return detail::make_agg<agg::min>(l); }
/// Largest element (`std::optional`, empty for an empty list).
template <class L>
constexpr auto list_max(const L& l) { return detail::make_agg<agg::max>(l); }
/// Sum of the elements (0, i.e. `T{}`, for an empty list).
template <class L>
constexpr auto list_sum(const L& l) { return detail::make_agg<agg::sum>(l); }

// ---- what the collection nodes read ----------------------------------------
namespace detail {
template <fixed_string Name, class C, class B, std::size_t Own>
struct binder_reads {
  using vars = concat_t<typename reads<C>::vars, remove_var_t<var_t<Name>, typename reads<B>::vars>>;
  static constexpr bool captures = reads<C>::captures || reads<B>::captures;
  static constexpr std::size_t sites = Own + reads<C>::sites + reads<B>::sites;
};
template <fixed_string Name, class C, class Body>
struct reads<for_each_t<Name, C, Body>> : binder_reads<Name, C, Body, 0> {};
template <fixed_string Name, class C, class Pred>
struct reads<filter_list_t<Name, C, Pred>> : binder_reads<Name, C, Pred, 1> {};
template <fixed_string Name, class L, class E>
struct reads<map_list_t<Name, L, E>> : binder_reads<Name, L, E, 0> {};
template <class C, class K>
struct reads<map_get_t<C, K>> {
  using vars = concat_t<typename reads<C>::vars, typename reads<K>::vars>;
  static constexpr bool captures = reads<C>::captures || reads<K>::captures;
  static constexpr std::size_t sites = 1 + reads<C>::sites + reads<K>::sites;
};
template <class C, class K>
struct reads<map_contains_t<C, K>> : reads<map_get_t<C, K>> {};
template <agg A, class L>
struct reads<list_agg_t<A, L>> : reads<L> {};
}  // namespace detail

}  // namespace joinery::loop
