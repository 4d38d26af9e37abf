#pragma once
/// @file
/// `loop::explain(q)`: one readable paragraph saying what `run(q)` will do —
/// the loop, every lookup site, whether it is a join, the index it is answered
/// from and what a probe returns, or why it is refused.
#include <cstddef>
#include <ranges>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <joinery/loop/expr.hpp>
#include <joinery/loop/lookups.hpp>
#include <joinery/loop/recognise.hpp>
#include <joinery/loop/refusal.hpp>
#include <joinery/schema/relation.hpp>

namespace joinery::loop {

namespace detail {

template <class T>
struct is_std_vector : std::false_type {};
template <class T, class A>
struct is_std_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_relation : std::false_type {};
template <class T, class Cols>
struct is_relation<relation<T, Cols>> : std::true_type {};

/// "a std::vector of 3 elements", "a std::map of 2 entries", ...
template <class C>
std::string describe_collection(const C& c) {
  std::string out;
  const auto n = std::to_string(static_cast<std::size_t>(std::ranges::distance(c)));
  if constexpr (is_relation<C>::value) {
    out = "the jy::relation<" + std::string(C::table_type::name.view()) + "> of " + n + " rows";
  } else if constexpr (associative<C>) {
    out = requires { typename C::key_compare; } ? "the std::map of " : "the std::unordered_map of ";
    out += n + " entries";
  } else if constexpr (is_std_vector<C>::value) {
    out = "the std::vector of " + n + " elements";
  } else {
    out = "the collection of " + n + " elements";
  }
  return out;
}

template <class N>
std::string render_of(const N& n) {
  std::string s;
  n.render(s);
  return s;
}

struct explain_state {
  std::string text;
  std::size_t sites = 0;       // lookup sites inside a loop
  std::size_t recognised = 0;  // of which recognised
};

inline void refused(explain_state& o, std::string_view what, refusal why) {
  o.text += " Site " + std::to_string(o.sites) + ", " + std::string(what) + ", is not recognised (" +
            std::string(to_string(why)) + ": " + std::string(describe(why)) +
            "), so it runs as the nested loop it is.";
}

template <class T>
struct is_map_contains : std::false_type {};
template <class C, class K>
struct is_map_contains<map_contains_t<C, K>> : std::true_type {};

template <class N>
struct explainer {
  template <class S>
  static void walk(const N&, explain_state&) {}  // leaves: nothing looked up
};
template <class N, class S>
void explain_walk(const N& n, explain_state& o) {
  if constexpr (site_count<N> > 0) explainer<N>::template walk<S>(n, o);
}

template <class E, class P>
struct explainer<member_t<E, P>> {
  template <class S> static void walk(const member_t<E, P>& n, explain_state& o) { explain_walk<E, S>(n.base, o); }
};
template <fixed_string Nm, class E>
struct explainer<field_t<Nm, E>> {
  template <class S> static void walk(const field_t<Nm, E>& n, explain_state& o) { explain_walk<E, S>(n.base, o); }
};
template <class Op, class E>
struct explainer<unop_t<Op, E>> {
  template <class S>
  static void walk(const unop_t<Op, E>& n, explain_state& o) {
    if constexpr (std::is_same_v<Op, ops::lnot> && is_map_contains<E>::value) {
      membership<S>(n.e, o, true);
    } else {
      explain_walk<E, S>(n.e, o);
    }
  }
  template <class S, class M>
  static void membership(const M& m, explain_state& o, bool negated);
};
template <class Op, class L, class R>
struct explainer<binop_t<Op, L, R>> {
  template <class S>
  static void walk(const binop_t<Op, L, R>& n, explain_state& o) {
    explain_walk<L, S>(n.l, o);
    explain_walk<R, S>(n.r, o);
  }
};
template <class... Es>
struct explainer<tuple_t<Es...>> {
  template <class S>
  static void walk(const tuple_t<Es...>& n, explain_state& o) {
    std::apply([&](const auto&... e) { (explain_walk<std::remove_cvref_t<decltype(e)>, S>(e, o), ...); }, n.elems);
  }
};
template <fixed_string Nm, class C, class B>
struct explainer<for_each_t<Nm, C, B>> {
  template <class S>
  static void walk(const for_each_t<Nm, C, B>& n, explain_state& o) {
    explain_walk<C, S>(n.coll, o);
    explain_walk<B, bind_t<S, Nm>>(n.body, o);
  }
};
template <fixed_string Nm, class L, class E>
struct explainer<map_list_t<Nm, L, E>> {
  template <class S>
  static void walk(const map_list_t<Nm, L, E>& n, explain_state& o) {
    explain_walk<L, S>(n.list, o);
    explain_walk<E, bind_t<S, Nm>>(n.expr, o);
  }
};

template <class C, class K, class S>
void map_site(const C& coll, const K& key, std::string_view fn, explain_state& o, bool negated) {
  constexpr refusal why = map_refusal<C, K>();
  if constexpr (nonempty_v<S>) {
    ++o.sites;
    const std::string what = std::string(fn) + "(" + render_of(coll) + ", " + render_of(key) + ")";
    if constexpr (why != refusal::none) {
      refused(o, what, why);
    } else {
      ++o.recognised;
      o.text += " Site " + std::to_string(o.sites) + ", " + what + ", is an equi-join of the loop element with " +
                describe_collection(*coll.ptr) + " on the map's own key = " + render_of(key) +
                "; no index is built: each probe is the map's own find";
      if (fn == "map_get") o.text += ", at most one row, returned as a std::optional.";
      else if (negated) o.text += ", and the element is kept when the key is absent (an anti-join).";
      else o.text += ", and the element is kept when the key is present (a semi-join).";
    }
  }
}

template <class Op, class E>
template <class S, class M>
void explainer<unop_t<Op, E>>::membership(const M& m, explain_state& o, bool negated) {
  map_site<decltype(m.coll), decltype(m.key), S>(m.coll, m.key, "map_contains", o, negated);
  explain_walk<decltype(m.coll), S>(m.coll, o);
  explain_walk<decltype(m.key), S>(m.key, o);
}

template <class C, class K>
struct explainer<map_get_t<C, K>> {
  template <class S>
  static void walk(const map_get_t<C, K>& n, explain_state& o) {
    map_site<C, K, S>(n.coll, n.key, "map_get", o, false);
    explain_walk<C, S>(n.coll, o);
    explain_walk<K, S>(n.key, o);
  }
};
template <class C, class K>
struct explainer<map_contains_t<C, K>> {
  template <class S>
  static void walk(const map_contains_t<C, K>& n, explain_state& o) {
    map_site<C, K, S>(n.coll, n.key, "map_contains", o, false);
    explain_walk<C, S>(n.coll, o);
    explain_walk<K, S>(n.key, o);
  }
};

/// A filter site; `answer` says what a probe returns (the group, its size, ...).
template <fixed_string Y, class C, class P, class S>
void filter_site(const filter_list_t<Y, C, P>& f, std::string_view answer, explain_state& o) {
  using V = filter_verdict<Y, C, P>;
  if constexpr (nonempty_v<S>) {
    ++o.sites;
    const std::string what = render_of(f);
    if constexpr (V::why != refusal::none) {
      refused(o, what, V::why);
    } else {
      ++o.recognised;
      const auto& g = [&]() -> const auto& {
        if constexpr (V::left_is_index) return f.pred.l;
        else return f.pred.r;
      }();
      const auto& k = [&]() -> const auto& {
        if constexpr (V::left_is_index) return f.pred.r;
        else return f.pred.l;
      }();
      o.text += " Site " + std::to_string(o.sites) + ", " + what + ", is an equi-join of the loop element with " +
                describe_collection(*f.coll.ptr) + ": its index is an arrangement of that collection keyed by " +
                render_of(g) + " (canonical: NaN equals NaN, -0.0 equals 0.0) then position, built once and shared "
                "with any site of the same collection and key; each element probes it with " + render_of(k) +
                " and " + std::string(answer);
    }
  }
}

template <fixed_string Nm, class C, class P>
struct explainer<filter_list_t<Nm, C, P>> {
  template <class S>
  static void walk(const filter_list_t<Nm, C, P>& n, explain_state& o) {
    filter_site<Nm, C, P, S>(n, "gets the group: the rows the predicate keeps, in collection order.", o);
    explain_walk<C, S>(n.coll, o);
    explain_walk<P, bind_t<S, Nm>>(n.pred, o);
  }
};

template <agg A, class L>
struct explainer<list_agg_t<A, L>> {
  template <class S>
  static void walk(const list_agg_t<A, L>& n, explain_state& o) {
    if constexpr (is_filter_v<L>) {
      filter_site<L::name, decltype(n.list.coll), decltype(n.list.pred), S>(n.list, answer(""), o);
      explain_walk<decltype(n.list.coll), S>(n.list.coll, o);
      explain_walk<decltype(n.list.pred), bind_t<S, L::name>>(n.list.pred, o);
    } else if constexpr (agg_over_filter_v<L>) {
      const auto& f = n.list.list;
      using F = std::remove_cvref_t<decltype(f)>;
      filter_site<F::name, decltype(f.coll), decltype(f.pred), S>(f, answer(render_of(n.list.expr)), o);
      explain_walk<decltype(f.coll), S>(f.coll, o);
      explain_walk<decltype(f.pred), bind_t<S, F::name>>(f.pred, o);
      explain_walk<decltype(n.list.expr), bind_t<S, L::name>>(n.list.expr, o);
    } else {
      explain_walk<L, S>(n.list, o);
    }
  }
  static std::string answer(const std::string& proj) {
    const std::string of = proj.empty() ? std::string("the rows") : proj;
    switch (A) {
      case agg::len: return "gets the group's size: the group is counted, never built.";
      case agg::min: return "reads a per-group minimum of " + of + " kept beside the index (no rows: empty).";
      case agg::max: return "reads a per-group maximum of " + of + " kept beside the index (no rows: empty).";
      case agg::sum: return "reads a per-group total of " + of + " kept beside the index (no rows: 0).";
    }
    return {};
  }
};

template <class Q>
std::string explain_head(const Q& q) {
  if constexpr (requires { q.body; q.coll.ptr; }) {
    return "for_each " + std::string(Q::name.view()) + " over " + describe_collection(*q.coll.ptr) +
           ": one result per element, in the collection's order.";
  } else if constexpr (requires { q.pred; q.coll.ptr; }) {
    return "filter_list " + std::string(Q::name.view()) + " over " + describe_collection(*q.coll.ptr) +
           ": the kept elements, in the collection's order.";
  } else {
    return "Evaluates " + render_of(q) + " once.";
  }
}

}  // namespace detail

/// One paragraph: the loop, then each lookup site in pre-order — a join (its
/// index and what a probe returns) or a named refusal — then the verdict.
template <expression Q>
std::string explain(const Q& q) {
  detail::explain_state o;
  o.text = detail::explain_head(q);
  detail::explain_walk<Q, type_list<>>(q, o);
  constexpr refusal why = detail::query_refusal<Q>();
  if constexpr (why == refusal::none) {
    o.text += " Recognised: all " + std::to_string(o.sites) + " lookup site(s) are answered from an index, in time "
              "linear in the two collections plus the matches, never their product.";
  } else {
    o.text += " Not recognised (" + std::string(to_string(why)) + "): " + std::to_string(o.recognised) + " of " +
              std::to_string(o.sites) + " lookup site(s) are answered from an index; the rest run as nested loops "
              "with the same results.";
  }
  return o.text;
}

}  // namespace joinery::loop
