#pragma once
/// @file
/// `loop::run(q)`: evaluates a loop query, answering every recognised lookup
/// site from an index built once (lazily, at the site's first probe) and every
/// refused one as the nested loop it is. `loop::run_nested(q)` forces the
/// nested loop everywhere (the reference the benchmarks and property tests
/// compare against). Both give the same results, element by element.
///
/// Indexes: a filter site is answered by `exec::arrangement` (the one kernel)
/// keyed by the canonical g(y), whose groups keep collection order; map_get /
/// map_contains probe the map's own `find` when the map's key and comparison
/// agree with `==` (integral, enum or std::string keys with the default
/// comparator), else an arrangement of the map's entries. Two sites with the
/// same collection (address) and the same key expression (type and value)
/// share one index.
#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/core/fixed_string.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/exec/arrangement.hpp>
#include <joinery/loop/expr.hpp>
#include <joinery/loop/group.hpp>
#include <joinery/loop/key.hpp>
#include <joinery/loop/lookups.hpp>
#include <joinery/loop/recognise.hpp>
#include <joinery/schema/relation.hpp>

namespace joinery::loop {

/// Work done by one `run`: tests count index builds and probes, not time.
struct run_stats {
  std::size_t index_builds = 0;      ///< arrangements built (filter indexes, map-entry indexes)
  std::size_t index_reuses = 0;      ///< sites answered from an index another site built
  std::size_t index_probes = 0;      ///< probes of an arrangement
  std::size_t map_probes = 0;        ///< finds on a map's own key
  std::size_t aggregate_builds = 0;  ///< per-group min/max/sum tables built
  std::size_t nested_steps = 0;      ///< elements visited by nested (unindexed) evaluation
};

namespace detail {

// ---- environments: the values the loop variables are bound to --------------
struct env_root {
  using scope = type_list<>;
};
template <fixed_string Name, class T, class Parent>
struct env {
  using scope = bind_t<typename Parent::scope, Name>;
  static constexpr auto name = Name;
  const T* value;
  const Parent* parent;
};

template <fixed_string Name, class Env>
constexpr const auto& lookup(const Env& e) {
  if constexpr (Env::name.view() == Name.view()) return *e.value;
  else return lookup<Name>(*e.parent);
}

template <class T>
struct type_tag {
  static constexpr char id = 0;  // its address names T
};

struct registry_entry {
  const void* tag;
  const void* coll;
  std::shared_ptr<void> state;
};

/// The state of one run: a lazily filled slot per lookup site, and the
/// registry through which equal sites share an index.
template <bool Nested, std::size_t N>
struct context {
  static constexpr bool nested = Nested;
  run_stats* stats;
  std::array<std::shared_ptr<void>, N> slots{};
  std::array<std::shared_ptr<void>, N> agg_slots{};
  std::vector<registry_entry> registry{};
};

template <class Node>
struct evaluator;

/// Evaluates node `n`, whose first lookup site has pre-order number B.
template <std::size_t B, class Node, class Env, class Ctx>
decltype(auto) eval(const Node& n, const Env& e, Ctx& c) {
  return evaluator<Node>::template ev<B>(n, e, c);
}
template <std::size_t B, class Node, class Env, class Ctx>
using eval_t = std::remove_cvref_t<decltype(eval<B>(std::declval<const Node&>(), std::declval<const Env&>(),
                                                    std::declval<Ctx&>()))>;

template <class T>
using bound_t = std::remove_reference_t<T>;

/// Converts to R by calling f: `v.emplace_back(elide<R, F>{f})` builds the
/// value in place (a returned prvalue is not moved), which keeps per-element
/// results free of copies.
template <class R, class F>
struct elide {
  F f;
  operator R() const { return f(); }  // NOLINT: implicit by design
};
template <class R, class F>
elide<R, F> make_elide(F f) {
  return {std::move(f)};
}

template <class T>
struct captured;
template <class C>
struct captured<capture_t<C>> {
  using type = C;
};
template <class T>
using captured_t = typename captured<T>::type;

// ---- aggregates: one fold for lists, groups and the nested path -------------
template <agg A, class T>
struct accumulator {  // sum
  T value{};
  template <class V>
  void add(const V& v) { value = static_cast<T>(value + v); }
  [[nodiscard]] T result() const { return value; }
};
template <class T>
struct accumulator<agg::min, T> {
  std::optional<T> value;
  template <class V>
  void add(const V& v) { if (!value || v < *value) value = v; }
  [[nodiscard]] std::optional<T> result() const { return value; }
};
template <class T>
struct accumulator<agg::max, T> {
  std::optional<T> value;
  template <class V>
  void add(const V& v) { if (!value || *value < v) value = v; }
  [[nodiscard]] std::optional<T> result() const { return value; }
};

template <agg A, class Range>
auto fold(const Range& r) {
  if constexpr (A == agg::len) {
    return static_cast<std::size_t>(std::ranges::distance(r));
  } else {
    using T = std::remove_cvref_t<std::ranges::range_reference_t<const Range&>>;
    accumulator<A, T> acc;
    for (auto&& v : r) acc.add(v);
    return acc.result();
  }
}

// ---- leaves and operators ---------------------------------------------------
template <fixed_string Nm>
struct evaluator<var_t<Nm>> {
  template <std::size_t B, class Env, class Ctx>
  static decltype(auto) ev(const var_t<Nm>&, const Env& e, Ctx&) {
    return lookup<Nm>(e);
  }
};
template <class T>
struct evaluator<lit_t<T>> {
  template <std::size_t B, class Env, class Ctx>
  static const T& ev(const lit_t<T>& n, const Env&, Ctx&) {
    return n.value;
  }
};
template <class C>
struct evaluator<capture_t<C>> {
  template <std::size_t B, class Env, class Ctx>
  static const C& ev(const capture_t<C>& n, const Env&, Ctx&) {
    return *n.ptr;
  }
};
template <class E, class P>
struct evaluator<member_t<E, P>> {
  template <std::size_t B, class Env, class Ctx>
  static decltype(auto) ev(const member_t<E, P>& n, const Env& e, Ctx& c) {
    using V = std::remove_cvref_t<decltype(eval<B>(n.base, e, c))>;
    if constexpr (is_optional_v<V>) {
      // Through an optional (e.g. a map_get's answer): empty stays empty.
      const V v = eval<B>(n.base, e, c);
      using M = std::remove_cvref_t<decltype((*v).*n.ptr)>;
      return v ? std::optional<M>((*v).*n.ptr) : std::optional<M>();
    } else if constexpr (std::is_lvalue_reference_v<decltype(eval<B>(n.base, e, c))>) {
      return (eval<B>(n.base, e, c).*n.ptr);
    } else {
      auto v = eval<B>(n.base, e, c);
      return std::remove_cvref_t<decltype(v.*n.ptr)>(v.*n.ptr);
    }
  }
};
template <fixed_string Nm, class E>
struct evaluator<field_t<Nm, E>> {
  template <std::size_t B, class Env, class Ctx>
  static decltype(auto) ev(const field_t<Nm, E>& n, const Env& e, Ctx& c) {
    return joinery::get<Nm>(eval<B>(n.base, e, c));
  }
};
template <class Op, class E>
struct evaluator<unop_t<Op, E>> {
  template <std::size_t B, class Env, class Ctx>
  static auto ev(const unop_t<Op, E>& n, const Env& e, Ctx& c) {
    return Op::apply(eval<B>(n.e, e, c));
  }
};
template <class Op, class L, class R>
struct evaluator<binop_t<Op, L, R>> {
  template <std::size_t B, class Env, class Ctx>
  static auto ev(const binop_t<Op, L, R>& n, const Env& e, Ctx& c) {
    constexpr std::size_t BR = B + site_count<L>;
    if constexpr (std::is_same_v<Op, ops::land>) {
      return static_cast<bool>(eval<B>(n.l, e, c)) && static_cast<bool>(eval<BR>(n.r, e, c));
    } else if constexpr (std::is_same_v<Op, ops::lor>) {
      return static_cast<bool>(eval<B>(n.l, e, c)) || static_cast<bool>(eval<BR>(n.r, e, c));
    } else {
      return Op::apply(eval<B>(n.l, e, c), eval<BR>(n.r, e, c));
    }
  }
};

template <class... Es>
constexpr std::array<std::size_t, sizeof...(Es) + 1> site_offsets() {
  std::array<std::size_t, sizeof...(Es) + 1> off{};
  const std::array<std::size_t, sizeof...(Es) + 1> n{site_count<Es>..., 0};
  for (std::size_t i = 0; i < sizeof...(Es); ++i) off[i + 1] = off[i] + n[i];
  return off;
}

template <class... Es>
struct evaluator<tuple_t<Es...>> {
  template <std::size_t B, class Env, class Ctx>
  static auto ev(const tuple_t<Es...>& n, const Env& e, Ctx& c) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      constexpr auto off = site_offsets<Es...>();
      return std::tuple<eval_t<B + off[I], Es, Env, Ctx>...>{eval<B + off[I]>(std::get<I>(n.elems), e, c)...};
    }(std::index_sequence_for<Es...>{});
  }
};

// ---- loops -------------------------------------------------------------------
/// `for_each` and `map_list` alike: `body` evaluated for every element of
/// `src` (bound to `Nm`), in order.
template <fixed_string Nm, std::size_t B, class Src, class Body, class Env, class Ctx>
auto eval_each(const Src& src, const Body& body, const Env& e, Ctx& c) {
  decltype(auto) xs = eval<B>(src, e, c);
  using Inner = env<Nm, bound_t<std::ranges::range_reference_t<decltype(xs)>>, Env>;
  constexpr std::size_t BB = B + site_count<Src>;
  using R = eval_t<BB, Body, Inner, Ctx>;
  std::vector<R> out;
  if constexpr (std::ranges::sized_range<decltype(xs)>) out.reserve(static_cast<std::size_t>(std::ranges::size(xs)));
  for (auto&& x : xs) {
    const Inner in{&x, &e};
    out.emplace_back(make_elide<R>([&]() -> R { return eval<BB>(body, in, c); }));
  }
  return out;
}

template <fixed_string Nm, class C, class Body>
struct evaluator<for_each_t<Nm, C, Body>> {
  template <std::size_t B, class Env, class Ctx>
  static auto ev(const for_each_t<Nm, C, Body>& n, const Env& e, Ctx& c) {
    return eval_each<Nm, B>(n.coll, n.body, e, c);
  }
};

template <fixed_string Nm, class L, class E>
struct evaluator<map_list_t<Nm, L, E>> {
  template <std::size_t B, class Env, class Ctx>
  static auto ev(const map_list_t<Nm, L, E>& n, const Env& e, Ctx& c) {
    return eval_each<Nm, B>(n.list, n.expr, e, c);
  }
};

// ---- filter sites --------------------------------------------------------------
/// The index of one filter site: `coll` arranged by the canonical key of g(y)
/// read as joint type J; groups keep collection order.
template <class Coll, class G, class J>
struct filter_index_state {
  const Coll* coll;
  G g;
  positional<Coll> pos;
  exec::arrangement<key_type_of_t<J>> arr;
  filter_index_state(const Coll& c, const G& gx) : coll(&c), g(gx), pos(c) {}
};

/// What a nested filter owns: the positions it kept (and the collection, if
/// the collection expression produced a temporary).
template <class Coll>
struct nested_group {
  std::optional<Coll> owned;
  positional<Coll> pos;
  std::vector<exec::row_pos> rows;
};

/// Slot of index state St for site B, shared with an equal earlier site.
template <std::size_t BG, fixed_string Y, class St, class Coll, class G, class J, class Ctx>
const std::shared_ptr<void>& index_slot(std::shared_ptr<void>& slot, const Coll& coll, const G& g, Ctx& c) {
  if (slot) return slot;
  const void* tag = &type_tag<St>::id;
  for (auto& r : c.registry) {
    if (r.tag == tag && r.coll == &coll && same_expr(static_cast<St*>(r.state.get())->g, g)) {
      ++c.stats->index_reuses;
      slot = r.state;
      return slot;
    }
  }
  auto st = std::make_shared<St>(coll, g);
  St& s = *st;
  s.arr.build(s.pos.size(), [&](std::size_t i) {
    decltype(auto) y = s.pos.at(i);
    const env<Y, bound_t<decltype(y)>, env_root> ye{&y, nullptr};
    return key_of<J>(eval<BG>(s.g, ye, c));
  });
  ++c.stats->index_builds;
  c.registry.push_back({tag, &coll, st});
  slot = std::move(st);
  return slot;
}

/// The index key g(y) with its variable renamed canonically, so two sites
/// that differ only in the name they bind (`y` vs `z`) share one index
/// (reference/003 `fingerprint_fun`). Nodes other than variables, literals,
/// members, columns and operators are kept as written.
inline constexpr fixed_string row_var = "joinery_row";

template <fixed_string Y, class N>
struct canon {
  static constexpr bool ok = false;
};
template <fixed_string Y, fixed_string Nm>
struct canon<Y, var_t<Nm>> {
  static constexpr bool ok = true;
  using type = std::conditional_t<Y.view() == Nm.view(), var_t<row_var>, var_t<Nm>>;
  static type of(const var_t<Nm>&) { return {}; }
};
template <fixed_string Y, class T>
struct canon<Y, lit_t<T>> {
  static constexpr bool ok = true;
  using type = lit_t<T>;
  static type of(const lit_t<T>& n) { return n; }
};
template <fixed_string Y, class E, class P>
struct canon<Y, member_t<E, P>> {
  static constexpr bool ok = canon<Y, E>::ok;
  using type = member_t<typename canon<Y, E>::type, P>;
  static type of(const member_t<E, P>& n) { return type(canon<Y, E>::of(n.base), n.ptr); }
};
template <fixed_string Y, fixed_string Nm, class E>
struct canon<Y, field_t<Nm, E>> {
  static constexpr bool ok = canon<Y, E>::ok;
  using type = field_t<Nm, typename canon<Y, E>::type>;
  static type of(const field_t<Nm, E>& n) { return type(canon<Y, E>::of(n.base)); }
};
template <fixed_string Y, class Op, class E>
struct canon<Y, unop_t<Op, E>> {
  static constexpr bool ok = canon<Y, E>::ok;
  using type = unop_t<Op, typename canon<Y, E>::type>;
  static type of(const unop_t<Op, E>& n) { return type(canon<Y, E>::of(n.e)); }
};
template <fixed_string Y, class Op, class L, class R>
struct canon<Y, binop_t<Op, L, R>> {
  static constexpr bool ok = canon<Y, L>::ok && canon<Y, R>::ok;
  using type = binop_t<Op, typename canon<Y, L>::type, typename canon<Y, R>::type>;
  static type of(const binop_t<Op, L, R>& n) { return type(canon<Y, L>::of(n.l), canon<Y, R>::of(n.r)); }
};
template <fixed_string Y, class... Es>
struct canon<Y, tuple_t<Es...>> {
  static constexpr bool ok = (canon<Y, Es>::ok && ...);
  using type = tuple_t<typename canon<Y, Es>::type...>;
  static type of(const tuple_t<Es...>& n) {
    return std::apply([](const auto&... e) { return type(canon<Y, std::remove_cvref_t<decltype(e)>>::of(e)...); },
                      n.elems);
  }
};

/// The key expression an index is built and fingerprinted by.
template <fixed_string Y, class G, bool = canon<Y, G>::ok>
struct index_key {
  using type = G;
  static constexpr auto var = Y;
  static const G& of(const G& g) { return g; }
};
template <fixed_string Y, class G>
struct index_key<Y, G, true> {
  using type = typename canon<Y, G>::type;
  static constexpr auto var = row_var;
  static type of(const G& g) { return canon<Y, G>::of(g); }
};

/// The compile-time plan of one recognised filter site at pre-order number B.
template <std::size_t B, fixed_string Y, class Coll, class P, class Env, class Ctx>
struct filter_plan {
  using verdict = filter_verdict<Y, capture_t<Coll>, P>;
  static constexpr bool left = verdict::left_is_index;
  using G = std::conditional_t<left, typename P::left_t, typename P::right_t>;
  using K = std::conditional_t<left, typename P::right_t, typename P::left_t>;
  static constexpr std::size_t BP = B + 1;  // a capture holds no site
  static constexpr std::size_t BG = left ? BP : BP + site_count<typename P::left_t>;
  static constexpr std::size_t BK = left ? BP + site_count<typename P::left_t> : BP;
  using elem = bound_t<elem_ref_t<Coll>>;
  using IK = index_key<Y, G>;
  using GC = typename IK::type;
  using GT = eval_t<BG, GC, env<IK::var, elem, env_root>, Ctx>;
  using KT = eval_t<BK, K, Env, Ctx>;
  using J = joint_t<GT, KT>;
  using state = filter_index_state<Coll, GC, J>;
  static constexpr bool keyable = keyable_v<J>;

  static const G& g(const P& p) {
    if constexpr (left) return p.l;
    else return p.r;
  }
  static const K& k(const P& p) {
    if constexpr (left) return p.r;
    else return p.l;
  }
  static const std::shared_ptr<void>& index(const filter_list_t<Y, capture_t<Coll>, P>& n, Ctx& c) {
    return index_slot<BG, IK::var, state, Coll, GC, J>(c.slots[B], *n.coll.ptr, IK::of(g(n.pred)), c);
  }
  static exec::group_id probe(const state& st, const P& p, const Env& e, Ctx& c) {
    ++c.stats->index_probes;
    auto key = key_of<J>(eval<BK>(k(p), e, c));
    return key ? st.arr.find(*key) : exec::no_group;
  }
};

template <class Env, class Ctx, refusal Why>
inline constexpr bool answer_from_index = !Ctx::nested && nonempty_v<typename Env::scope> && Why == refusal::none;

template <fixed_string Nm, class C, class P>
struct evaluator<filter_list_t<Nm, C, P>> {
  using node = filter_list_t<Nm, C, P>;

  template <std::size_t B, class Env, class Ctx>
  static auto ev(const node& n, const Env& e, Ctx& c) {
    if constexpr (answer_from_index<Env, Ctx, filter_verdict<Nm, C, P>::why>) {
      using plan = filter_plan<B, Nm, captured_t<C>, P, Env, Ctx>;
      if constexpr (plan::keyable) {
        const auto& slot = plan::index(n, c);
        const auto& st = *static_cast<const typename plan::state*>(slot.get());
        return group_view<captured_t<C>>(&st.pos, st.arr.rows(plan::probe(st, n.pred, e, c)), slot);
      } else {
        return nested<B>(n, e, c);  // a key type no index can hash: scan
      }
    } else {
      return nested<B>(n, e, c);
    }
  }

  template <std::size_t B, class Env, class Ctx>
  static auto nested(const node& n, const Env& e, Ctx& c) {
    constexpr std::size_t BP = B + 1 + site_count<C>;
    decltype(auto) ys = eval<B + 1>(n.coll, e, c);
    using Coll = std::remove_cvref_t<decltype(ys)>;
    auto h = std::make_shared<nested_group<Coll>>();
    if constexpr (std::is_lvalue_reference_v<decltype(ys)>) {
      h->pos = positional<Coll>(ys);
    } else {
      h->owned.emplace(std::move(ys));
      h->pos = positional<Coll>(*h->owned);
    }
    const std::size_t size = h->pos.size();
    for (std::size_t i = 0; i < size; ++i) {
      decltype(auto) y = h->pos.at(i);
      const env<Nm, bound_t<decltype(y)>, Env> ye{&y, &e};
      if constexpr (nonempty_v<typename Env::scope>) ++c.stats->nested_steps;  // a top-level filter is the loop itself
      if (static_cast<bool>(eval<BP>(n.pred, ye, c))) h->rows.push_back(static_cast<exec::row_pos>(i));
    }
    const auto* pos = &h->pos;
    std::span<const exec::row_pos> rows(h->rows);
    return group_view<Coll>(pos, rows, std::move(h));
  }
};

// ---- map sites --------------------------------------------------------------
template <class M>
struct default_key_equality : std::false_type {};
template <class M>
  requires requires { typename M::key_compare; }
struct default_key_equality<M>
    : std::bool_constant<std::is_same_v<typename M::key_compare, std::less<typename M::key_type>> ||
                         std::is_same_v<typename M::key_compare, std::less<>>> {};
template <class M>
  requires(!requires { typename M::key_compare; } && requires { typename M::key_equal; })
struct default_key_equality<M>
    : std::bool_constant<std::is_same_v<typename M::key_equal, std::equal_to<typename M::key_type>> ||
                         std::is_same_v<typename M::key_equal, std::equal_to<>>> {};

/// The map's own find agrees with the DSL's `==` (no NaN, no -0.0, no
/// conversion, the default comparison).
template <class M, class KT>
inline constexpr bool native_probe_v =
    (std::is_integral_v<typename M::key_type> || std::is_enum_v<typename M::key_type> ||
     std::is_same_v<typename M::key_type, std::string>) &&
    std::is_same_v<unwrap_optional_t<KT>, typename M::key_type> && default_key_equality<M>::value;

inline constexpr fixed_string map_entry_var = "joinery_map_entry";

template <class C, class K, bool Contains>
struct map_evaluator {
  template <std::size_t B, class Node, class Env, class Ctx>
  static auto ev(const Node& n, const Env& e, Ctx& c) {
    constexpr std::size_t BK = B + 1 + site_count<C>;
    decltype(auto) m = eval<B + 1>(n.coll, e, c);
    using M = std::remove_cvref_t<decltype(m)>;
    using R = std::conditional_t<Contains, bool, std::optional<typename M::mapped_type>>;
    decltype(auto) kv = eval<BK>(n.key, e, c);
    using KT = std::remove_cvref_t<decltype(kv)>;
    using J = joint_t<typename M::key_type, KT>;
    if constexpr (answer_from_index<Env, Ctx, map_refusal<C, K>()> && native_probe_v<M, KT>) {
      ++c.stats->map_probes;
      if constexpr (is_optional_v<KT>) {
        if (!kv) return R{};
        return found(m, m.find(*kv));
      } else {
        return found(m, m.find(kv));
      }
    } else if constexpr (answer_from_index<Env, Ctx, map_refusal<C, K>()> && keyable_v<J>) {
      // The map's own find would disagree with `==` (NaN, -0.0, a converted
      // key, a custom comparator): arrange its entries by the canonical key.
      using entry = typename M::value_type;
      using G = member_t<var_t<map_entry_var>, decltype(&entry::first)>;
      using St = filter_index_state<M, G, J>;
      const G g(var<map_entry_var>, &entry::first);
      const auto& slot = index_slot<0, map_entry_var, St, M, G, J>(c.slots[B], m, g, c);
      const auto& st = *static_cast<const St*>(slot.get());
      ++c.stats->index_probes;
      auto key = key_of<J>(kv);
      const auto rows = st.arr.rows(key ? st.arr.find(*key) : exec::no_group);
      if (rows.empty()) return R{};
      if constexpr (Contains) return true;
      else return R(st.pos.at(rows[0]).second);
    } else {
      for (const auto& entry : m) {  // the nested loop: scan the entries
        ++c.stats->nested_steps;
        if (key_equal_dsl(entry.first, kv)) {
          if constexpr (Contains) return true;
          else return R(entry.second);
        }
      }
      return R{};
    }
  }

  template <class M, class It>
  static auto found(const M& m, It it) {
    using R = std::conditional_t<Contains, bool, std::optional<typename M::mapped_type>>;
    if (it == m.end()) return R{};
    if constexpr (Contains) return true;
    else return R(it->second);
  }
};

template <class C, class K>
struct evaluator<map_get_t<C, K>> {
  template <std::size_t B, class Env, class Ctx>
  static auto ev(const map_get_t<C, K>& n, const Env& e, Ctx& c) {
    return map_evaluator<C, K, false>::template ev<B>(n, e, c);
  }
};
template <class C, class K>
struct evaluator<map_contains_t<C, K>> {
  template <std::size_t B, class Env, class Ctx>
  static auto ev(const map_contains_t<C, K>& n, const Env& e, Ctx& c) {
    return map_evaluator<C, K, true>::template ev<B>(n, e, c);
  }
};

// ---- aggregate sites ----------------------------------------------------------
/// The filter under an aggregate and the projection applied to its rows
/// (none for a bare filter).
template <class L>
struct agg_parts;
template <fixed_string Y, class C, class P>
struct agg_parts<filter_list_t<Y, C, P>> {
  using filter = filter_list_t<Y, C, P>;
  static constexpr bool projected = false;
  static constexpr bool pure_projection = true;
  static const filter& of(const filter& f) { return f; }
};
template <fixed_string Nm, class F, class E>
struct agg_parts<map_list_t<Nm, F, E>> {
  using filter = F;
  using proj = E;
  static constexpr auto var = Nm;
  static constexpr bool projected = true;
  // The per-group table is built once, so the projection may read only the
  // group's element (no loop element, no collection, no lookup).
  static constexpr bool pure_projection = subset_of<free_vars_t<E>, type_list<var_t<Nm>>> && !reads_capture<E> &&
                                          site_count<E> == 0;
  static const F& of(const map_list_t<Nm, F, E>& m) { return m.list; }
};

/// The value type an aggregate over a filter folds: the projection's, or the element's.
template <class L, class Ctx>
struct agg_value;
template <fixed_string Y, class C, class P, class Ctx>
struct agg_value<filter_list_t<Y, C, P>, Ctx> {
  using type = std::remove_cvref_t<elem_ref_t<captured_t<C>>>;
};
template <fixed_string Nm, class F, class E, class Ctx>
struct agg_value<map_list_t<Nm, F, E>, Ctx> {
  using type = eval_t<0, E, env<Nm, bound_t<elem_ref_t<captured_t<decltype(F::coll)>>>, env_root>, Ctx>;
};

template <class T>
struct per_group {
  std::vector<T> values;
};

template <agg A, class L>
struct evaluator<list_agg_t<A, L>> {
  template <class Env, class Ctx>
  static constexpr bool fast() {
    if constexpr (!agg_over_filter_v<L>) {
      return false;
    } else {
      using F = typename agg_parts<L>::filter;
      return answer_from_index<Env, Ctx, filter_verdict<F::name, decltype(F::coll), decltype(F::pred)>::why> &&
             (A == agg::len || agg_parts<L>::pure_projection);
    }
  }

  template <std::size_t B, class Env, class Ctx>
  static auto ev(const list_agg_t<A, L>& n, const Env& e, Ctx& c) {
    if constexpr (fast<Env, Ctx>()) {
      using F = typename agg_parts<L>::filter;
      using plan = filter_plan<B, F::name, captured_t<decltype(F::coll)>, decltype(F::pred), Env, Ctx>;
      if constexpr (!plan::keyable) {
        return fold<A>(eval<B>(n.list, e, c));
      } else {
        const F& f = agg_parts<L>::of(n.list);
        const auto& slot = plan::index(f, c);
        const auto& st = *static_cast<const typename plan::state*>(slot.get());
        const exec::group_id g = plan::probe(st, f.pred, e, c);
        if constexpr (A == agg::len) {
          // Counted, never built: the arrangement already knows each group's size.
          return g == exec::no_group ? std::size_t{0} : static_cast<std::size_t>(st.arr.group_size(g));
        } else {
          const auto& table = aggregates<B>(st, n, c);
          using R = std::remove_cvref_t<decltype(table.values[0])>;
          if (g == exec::no_group) return R{};  // sum of no rows: 0; min / max: empty
          return table.values[g];
        }
      }
    } else {
      return fold<A>(eval<B>(n.list, e, c));
    }
  }

  /// Per-group results of the fold, built once per run from the index.
  template <std::size_t B, class St, class Ctx>
  static const auto& aggregates(const St& st, const list_agg_t<A, L>& n, Ctx& c) {
    using T = typename agg_value<L, Ctx>::type;
    using R = decltype(accumulator<A, T>{}.result());
    auto& slot = c.agg_slots[B];
    if (!slot) {
      auto table = std::make_shared<per_group<R>>();
      const std::size_t groups = st.arr.group_count();
      table->values.reserve(groups);
      for (std::size_t g = 0; g < groups; ++g) {
        accumulator<A, T> acc;
        for (exec::row_pos row : st.arr.rows(static_cast<exec::group_id>(g))) {
          decltype(auto) y = st.pos.at(row);
          if constexpr (agg_parts<L>::projected) {
            const env<agg_parts<L>::var, bound_t<decltype(y)>, env_root> ye{&y, nullptr};
            acc.add(eval<0>(n.list.expr, ye, c));
          } else {
            acc.add(y);
          }
        }
        table->values.push_back(acc.result());
      }
      ++c.stats->aggregate_builds;
      slot = std::move(table);
    }
    return *static_cast<const per_group<R>*>(slot.get());
  }
};

/// Instantiated when a query reads variables nothing binds.
template <class Vars>
struct unbound_variables_in_query {
  static_assert(joinery::detail::always_false<Vars>::value,
                "joinery: the query reads a variable that no for_each / filter_list / map_list around it binds "
                "(see the var_t<...> list below); bind it, or capture the value as a literal");
  static constexpr bool ok = false;
};

template <bool Nested, class Q>
auto run_impl(const Q& q, run_stats& stats) {
  if constexpr (nonempty_v<free_vars_t<Q>>) {
    static_assert(unbound_variables_in_query<free_vars_t<Q>>::ok);
    return 0;  // the error above is the one to read
  } else {
    context<Nested, site_count<Q>> c{&stats};
    const env_root root;
    using R = eval_t<0, Q, env_root, decltype(c)>;
    return R(eval<0>(q, root, c));
  }
}

}  // namespace detail

/// Evaluates q: each recognised lookup from its index, each refused one as a
/// nested loop. A `for_each` gives a `std::vector` of the body's values in the
/// loop's element order; a `filter_list` a `group_view` of the kept elements.
template <expression Q>
auto run(const Q& q, run_stats& stats) {
  return detail::run_impl<false>(q, stats);
}
/// As `run(q, stats)`, without the counters.
template <expression Q>
auto run(const Q& q) {
  run_stats stats;
  return detail::run_impl<false>(q, stats);
}
/// Evaluates q as the nested loop it is written as: no index anywhere. Same
/// results as `run(q)`; the reference for tests and benchmarks.
template <expression Q>
auto run_nested(const Q& q, run_stats& stats) {
  return detail::run_impl<true>(q, stats);
}
/// As `run_nested(q, stats)`, without the counters.
template <expression Q>
auto run_nested(const Q& q) {
  run_stats stats;
  return detail::run_impl<true>(q, stats);
}

}  // namespace joinery::loop
