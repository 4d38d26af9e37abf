#pragma once
/// @file
/// `jy::evaluate(node, jy::extent(set, n)..., data = values...)`, `jy::matches`
/// and `jy::walk_work`: the gated walk of an aggregate node (DESIGN.md §2.3).
///
/// Symbols are enumerated in canonical order. A symbol with a gate to an
/// earlier symbol is DRIVEN: one arrangement (exec/arrangement.hpp, the one
/// kernel) is built over its axis keyed by its side of all those gates
/// (a composite key), and the walk visits only `matches(partner key)`, never
/// its whole axis (after a scanned symbol, through the arrangement's batched
/// `probe_rows`, same matches in the same order); predicates on a driven
/// symbol are applied while building.
/// Other symbols scan their axis with their predicates. So the visited tuples
/// are sorted by canonical key, an order-preserving subsequence of the full
/// product, and the cost is O(rows + matches), never the product.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/aggregate/data.hpp>
#include <joinery/aggregate/index_set.hpp>
#include <joinery/aggregate/join.hpp>
#include <joinery/aggregate/node.hpp>
#include <joinery/aggregate/semiring.hpp>
#include <joinery/check/aggregate_diagnostics.hpp>
#include <joinery/check/aggregate_resolve.hpp>
#include <joinery/core/fixed_string.hpp>
#include <joinery/core/key.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/exec/arrangement.hpp>

namespace joinery {

/// The dense result of `jy::evaluate`: one cell per combination of the output
/// symbols' positions, row-major in `output_idx` order (one cell when there
/// are no output symbols). Read-only: `size()`, `out[i]`, iteration, `shape()`.
template <class T, std::size_t Rank>
class dense_result {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using const_iterator = typename std::vector<T>::const_iterator;
  using iterator = const_iterator;
  /// The number of output symbols.
  static constexpr std::size_t rank = Rank;

  dense_result() = default;
  dense_result(std::array<std::size_t, Rank> shape, std::vector<T> cells)
      : shape_(shape), cells_(std::move(cells)) {}

  [[nodiscard]] std::size_t size() const noexcept { return cells_.size(); }
  [[nodiscard]] bool empty() const noexcept { return cells_.empty(); }
  [[nodiscard]] decltype(auto) operator[](std::size_t i) const noexcept { return cells_[i]; }
  [[nodiscard]] auto begin() const noexcept { return cells_.cbegin(); }
  [[nodiscard]] auto end() const noexcept { return cells_.cend(); }
  /// The extents of the output symbols, in `output_idx` order.
  [[nodiscard]] const std::array<std::size_t, Rank>& shape() const noexcept { return shape_; }
  /// The cells as a vector (row-major).
  [[nodiscard]] const std::vector<T>& values() const noexcept { return cells_; }

 private:
  std::array<std::size_t, Rank> shape_{};
  std::vector<T> cells_;
};

/// Work done by one gated walk (complexity is tested by counting, not timing).
struct aggregate_work {
  std::uint64_t visits = 0;   ///< symbol positions the walk bound (scanned or matched)
  std::uint64_t tuples = 0;   ///< complete tuples that passed every gate and predicate
  std::uint64_t probes = 0;   ///< arrangement lookups
  std::uint64_t inserts = 0;  ///< rows inserted into arrangements
};

/// Instantiated when `evaluate` has no `jy::extent(Set{}, n)` for an index set a range draws.
template <class Set>
struct missing_extent_for {
  static_assert(detail::always_false<Set>::value,
                "joinery[missing_source]: evaluate() needs jy::extent(<index set>{}, n) for every index "
                "set a range draws; the missing one is the template argument of missing_extent_for in the"
                " compiler's instantiation note");
  static constexpr bool ok = false;
};

/// Instantiated when `evaluate` has no `data = values` binding for the data
/// column named `Data` (a `spelled<"name">`) that the node reads.
template <class Data>
struct missing_binding_for {
  static_assert(detail::always_false<Data>::value,
                "joinery[missing_source]: evaluate() needs a binding `column = std::vector<T>{...}` for "
                "every data column the node reads; the missing one is the template argument of "
                "missing_binding_for in the compiler's instantiation note");
  static constexpr bool ok = false;
};

namespace detail::agg {

template <class... L>
struct concat;
template <>
struct concat<> {
  using type = type_list<>;
};
template <class... A>
struct concat<type_list<A...>> {
  using type = type_list<A...>;
};
template <class... A, class... B, class... Rest>
struct concat<type_list<A...>, type_list<B...>, Rest...> {
  using type = typename concat<type_list<A..., B...>, Rest...>::type;
};

template <class Arg, class Set>
inline constexpr bool is_extent_of = false;
template <class S, class Set>
inline constexpr bool is_extent_of<extent_t<S>, Set> = S::name.view() == Set::name.view();

template <class Arg, class Data>
inline constexpr bool is_binding_of = false;
template <class D, class St, class Data>
inline constexpr bool is_binding_of<binding<D, St>, Data> = D::name.view() == Data::name.view();

/// Data columns a node reads (keys and factors), possibly repeated.
template <class Node>
struct used_data;
template <class O, class... R, class... J, class S, class... Fs>
struct used_data<aggregate_node<O, ranges_t<R...>, type_list<J...>, reduction<S, Fs...>>> {
  template <class K>
  using as_list = std::conditional_t<data_column_type<K>, type_list<K>, type_list<>>;
  template <class P>
  using pair_data = typename concat<as_list<typename P::left>, as_list<typename P::right>>::type;
  template <class C>
  struct clause_data;
  template <class... P, class Sy>
  struct clause_data<join_clause<type_list<P...>, Sy>> {
    using type = typename concat<pair_data<P>...>::type;
  };
  using type =
      typename concat<typename clause_data<J>::type..., type_list<typename Fs::data...>>::type;
};

/// The compile-time plan of the walk of `Node` (its resolution must be clean).
template <class Node>
struct walk_plan {
  using F = facts<Node>;
  static constexpr auto& res = resolution_of<Node>;
  static constexpr std::size_t n = F::n;

  template <class List>
  struct flatten;
  template <class... C>
  struct flatten<type_list<C...>> {
    using type = typename concat<typename C::pairs...>::type;
  };
  using pair_list = typename flatten<typename Node::joins>::type;
  /// The key type of side S of flattened pair Q.
  template <std::size_t Q, std::size_t S>
  using key_at = std::conditional_t<S == 0, typename list_at_t<pair_list, Q>::left,
                                    typename list_at_t<pair_list, Q>::right>;

  static constexpr bool is_gate_of(const pair_res& p, std::size_t k) {
    return p.ok && !p.predicate() && (p.sym[0] > p.sym[1] ? p.sym[0] : p.sym[1]) == k;
  }
  static constexpr bool is_predicate_of(const pair_res& p, std::size_t k) {
    return p.predicate() && p.sym[0] == k;
  }
  template <std::size_t K, bool Gates>
  static constexpr std::size_t count_of() {
    std::size_t c = 0;
    for (const auto& p : res.pairs) c += Gates ? is_gate_of(p, K) : is_predicate_of(p, K);
    return c;
  }
  template <std::size_t K, bool Gates>
  static constexpr auto list_of() {
    std::array<std::size_t, count_of<K, Gates>()> out{};
    std::size_t i = 0;
    for (std::size_t q = 0; q < F::n_pairs; ++q)
      if (Gates ? is_gate_of(res.pairs[q], K) : is_predicate_of(res.pairs[q], K)) out[i++] = q;
    return out;
  }
  /// Pairs gating level K to an earlier level (K is their later symbol).
  template <std::size_t K>
  static constexpr auto gates = list_of<K, true>();
  /// Pairs whose two keys are both read at level K.
  template <std::size_t K>
  static constexpr auto predicates = list_of<K, false>();
  /// A driven level is enumerated from its partners' matches, never scanned.
  template <std::size_t K>
  static constexpr bool driven = gates<K>.size() != 0;
  /// Side of pair Q read at level K (for a gate of K).
  template <std::size_t Q, std::size_t K>
  static constexpr std::size_t side_at = res.pairs[Q].sym[0] == K ? 0 : 1;

  template <std::size_t K, class Seq>
  struct level_key_of;
  template <std::size_t K, std::size_t... I>
  struct level_key_of<K, std::index_sequence<I...>> {
    using type = std::conditional_t<sizeof...(I) == 1, nth_type<0, agg_key_value_t<key_at<gates<K>[I], 0>>..., void>,
                                    std::tuple<agg_key_value_t<key_at<gates<K>[I], 0>>...>>;
  };
  /// The arrangement key of level K: one component per gate (a tuple if several).
  template <std::size_t K>
  using level_key = typename level_key_of<K, std::make_index_sequence<gates<K>.size()>>::type;

  struct no_arrangement {};
  template <std::size_t K>
  using level_arrangement = std::conditional_t<driven<K>, exec::arrangement<level_key<K>>, no_arrangement>;
  template <std::size_t... K>
  static auto arrangements_of(std::index_sequence<K...>) -> std::tuple<level_arrangement<K>...>;
  using arrangements = decltype(arrangements_of(std::make_index_sequence<n>{}));

  /// Canonical position of symbol S.
  template <class S>
  static constexpr std::size_t level_of = name_index(F::names, S::name.view());
};

/// Arrangements that offer the batched probe loop `probe_rows`.
template <class A>
concept batched_probe = requires(const A& a, exec::work_counters& w) {
  a.probe_rows(std::size_t{}, std::size_t{},
               [](std::size_t) -> std::optional<typename std::remove_cvref_t<decltype(a.group_key(0))>> { return {}; },
               [](std::size_t, std::span<const exec::row_pos>) {}, w);
};

/// One evaluation: the bound arguments, the extents per level, the built
/// arrangements and the walk.
template <class Node, class... Args>
class walker {
  using P = walk_plan<Node>;
  using F = typename P::F;
  static constexpr std::size_t n = P::n;

 public:
  explicit walker(const Args&... args) : args_(args...) {
    init_extents(std::make_index_sequence<n>{});
    check_lengths(typename used_data<Node>::type{});
    build(std::make_index_sequence<n>{});
  }

  /// Runs the walk; `emit(pos)` receives each matched tuple (canonical order).
  template <class Emit>
  void run(Emit&& emit) {
    std::array<std::size_t, n> pos{};
    walk<0>(pos, emit);
  }

  [[nodiscard]] const aggregate_work& work() const noexcept { return work_; }
  [[nodiscard]] const std::array<std::size_t, n>& extents() const noexcept { return ext_; }

  /// The values bound to data column D.
  template <class D>
  [[nodiscard]] const auto& values() const {
    constexpr std::size_t i = first_true(std::array<bool, sizeof...(Args)>{is_binding_of<Args, D>...});
    return std::get<i>(args_).values();
  }

  /// Value of factor Fa at a complete tuple (row-major over its axes).
  template <class Fa, class T>
  [[nodiscard]] T factor_value(const std::array<std::size_t, n>& pos) const {
    return factor_value_impl<Fa, T>(pos, typename Fa::syms{});
  }

 private:
  template <class Fa, class T, class... S>
  T factor_value_impl(const std::array<std::size_t, n>& pos, type_list<S...>) const {
    std::size_t flat = 0;
    ((flat = flat * ext_[P::template level_of<S>] + pos[P::template level_of<S>]), ...);
    return static_cast<T>(values<typename Fa::data>()[flat]);
  }

  template <class Set>
  [[nodiscard]] std::size_t extent_of() const {
    constexpr std::size_t i = first_true(std::array<bool, sizeof...(Args)>{is_extent_of<Args, Set>...});
    return std::get<i>(args_).n;
  }
  template <std::size_t... K>
  void init_extents(std::index_sequence<K...>) {
    ((ext_[K] = extent_of<typename F::template set_at<K>>()), ...);
  }

  template <class... D>
  void check_lengths(type_list<D...>) const {
    (check_length<D>(typename D::axes{}), ...);
  }
  template <class D, class... Axes>
  void check_length(type_list<Axes...>) const {
    const std::size_t expected = (std::size_t{1} * ... * extent_of<Axes>());
    const std::size_t got = values<D>().size();
    if (got != expected) {
      std::string axes;
      ((axes += (axes.empty() ? "" : " x "), axes += Axes::name.view()), ...);
      throw std::length_error("joinery: data '" + std::string(D::name.view()) + "' has " + std::to_string(got) +
                              " values but its index sets (" + axes + ") have " + std::to_string(expected) +
                              " positions");
    }
  }

  /// The canonical value of key K read at position `at` (empty: NULL).
  template <class K>
  [[nodiscard]] std::optional<agg_key_value_t<K>> read(std::size_t at) const {
    if constexpr (data_column_type<K>) {
      const auto& v = values<K>()[at];
      if constexpr (is_optional_v<decltype(v)>) {
        if (!v) return std::nullopt;
        return canonical(*v);
      } else {
        return canonical(v);
      }
    } else {
      return static_cast<std::int64_t>(at);  // symbols and index sets: the row position
    }
  }

  template <std::size_t K, std::size_t... I>
  [[nodiscard]] bool predicates_hold([[maybe_unused]] std::size_t j, std::index_sequence<I...>) const {
    return ([&] {
      constexpr std::size_t q = P::template predicates<K>[I];
      const auto l = read<typename P::template key_at<q, 0>>(j);
      const auto r = read<typename P::template key_at<q, 1>>(j);
      return l && r && *l == *r;  // NULL never equals
    }() && ...);
  }
  template <std::size_t K>
  [[nodiscard]] bool predicates_hold(std::size_t j) const {
    return predicates_hold<K>(j, std::make_index_sequence<P::template predicates<K>.size()>{});
  }

  /// Level K's own side of its gates, read at position j.
  template <std::size_t K, std::size_t... I>
  [[nodiscard]] std::optional<typename P::template level_key<K>> build_key(std::size_t j,
                                                                           std::index_sequence<I...>) const {
    auto parts = std::make_tuple(
        read<typename P::template key_at<P::template gates<K>[I], P::template side_at<P::template gates<K>[I], K>>>(
            j)...);
    if (!(std::get<I>(parts) && ...)) return std::nullopt;
    if constexpr (sizeof...(I) == 1) return *std::get<0>(parts);
    else return typename P::template level_key<K>{*std::get<I>(parts)...};
  }
  /// The partners' side of level K's gates, read at the earlier levels.
  template <std::size_t K, std::size_t... I>
  [[nodiscard]] std::optional<typename P::template level_key<K>> probe_key(const std::array<std::size_t, n>& pos,
                                                                           std::index_sequence<I...>) const {
    auto parts = std::make_tuple([&] {
      constexpr std::size_t q = P::template gates<K>[I];
      constexpr std::size_t o = 1 - P::template side_at<q, K>;
      return read<typename P::template key_at<q, o>>(pos[P::res.pairs[q].sym[o]]);
    }()...);
    if (!(std::get<I>(parts) && ...)) return std::nullopt;
    if constexpr (sizeof...(I) == 1) return *std::get<0>(parts);
    else return typename P::template level_key<K>{*std::get<I>(parts)...};
  }

  template <std::size_t... K>
  void build(std::index_sequence<K...>) {
    (build_level<K>(), ...);
  }
  template <std::size_t K>
  void build_level() {
    if constexpr (P::template driven<K>) {
      auto& arr = std::get<K>(arrangements_);
      using seq = std::make_index_sequence<P::template gates<K>.size()>;
      arr.build(ext_[K], [&](std::size_t j) -> std::optional<typename P::template level_key<K>> {
        if (!predicates_hold<K>(j)) return std::nullopt;  // a driven level's predicates filter its build
        return build_key<K>(j, seq{});
      });
      work_.inserts += arr.counters().inserts;
    }
  }

  /// True when level K is scanned and level K + 1 is driven by an
  /// arrangement offering the batched probe loop.
  template <std::size_t K>
  static constexpr bool batch_next() {
    if constexpr (K + 1 < n) {
      if constexpr (P::template driven<K + 1>) {
        return batched_probe<std::tuple_element_t<K + 1, typename P::arrangements>>;
      } else {
        return false;
      }
    } else {
      return false;
    }
  }

  template <std::size_t K, class Emit>
  void walk(std::array<std::size_t, n>& pos, Emit& emit) {
    if constexpr (K == n) {
      ++work_.tuples;
      emit(static_cast<const std::array<std::size_t, n>&>(pos));
    } else if constexpr (P::template driven<K>) {
      const auto key = probe_key<K>(pos, std::make_index_sequence<P::template gates<K>.size()>{});
      if (!key) return;
      ++work_.probes;
      for (const exec::row_pos j : std::get<K>(arrangements_).matches(*key)) {
        ++work_.visits;
        pos[K] = j;
        walk<K + 1>(pos, emit);
      }
    } else if constexpr (batch_next<K>()) {
      // A scanned level followed by a driven one: the arrangement's batched
      // probe loop resolves the next level's matches for this whole scan, in
      // scan order, with its keys read ahead and prefetched. Same visits, same
      // order as probing one position at a time.
      using seq = std::make_index_sequence<P::template gates<K + 1>.size()>;
      exec::work_counters w;
      std::get<K + 1>(arrangements_)
          .probe_rows(
              0, ext_[K],
              [&](std::size_t j) -> std::optional<typename P::template level_key<K + 1>> {
                if (!predicates_hold<K>(j)) return std::nullopt;
                std::array<std::size_t, n> at = pos;
                at[K] = j;
                return probe_key<K + 1>(at, seq{});
              },
              [&](std::size_t j, std::span<const exec::row_pos> found) {
                ++work_.visits;
                pos[K] = j;
                for (const exec::row_pos r : found) {
                  ++work_.visits;
                  pos[K + 1] = r;
                  walk<K + 2>(pos, emit);
                }
              },
              w);
      work_.probes += w.probes;
    } else {
      for (std::size_t j = 0; j < ext_[K]; ++j) {
        ++work_.visits;
        if (!predicates_hold<K>(j)) continue;
        pos[K] = j;
        walk<K + 1>(pos, emit);
      }
    }
  }

  std::tuple<const Args&...> args_;
  std::array<std::size_t, n> ext_{};
  typename P::arrangements arrangements_{};
  aggregate_work work_{};
};

/// Instantiated for an argument of `evaluate` that is neither an extent nor a binding.
template <class Arg>
struct unexpected_evaluate_argument {
  static_assert(always_false<Arg>::value,
                "joinery: evaluate(node, ...) takes jy::extent(index_set{}, n) and `column = values` "
                "arguments only (the argument type is the template argument in the compiler's note)");
  static constexpr bool ok = false;
};

template <class Set, class... Args>
inline constexpr bool has_extent = (is_extent_of<Args, Set> || ...);
template <class D, class... Args>
inline constexpr bool has_binding = (is_binding_of<Args, D> || ...);

/// The argument checks of an entry point as positions of the first offender
/// (npos: none), computed without instantiating any report.
template <class Node, class... Args>
struct argument_check {
  using F = facts<Node>;
  static constexpr std::size_t unexpected =
      first_true(std::array<bool, sizeof...(Args)>{!(is_extent<Args>::value || is_binding<Args>::value)...});
  template <std::size_t... K>
  static constexpr std::size_t first_missing_extent(std::index_sequence<K...>) {
    return first_true(std::array<bool, sizeof...(K)>{!has_extent<typename F::template set_at<K>, Args...>...});
  }
  static constexpr std::size_t missing_extent = first_missing_extent(std::make_index_sequence<F::n>{});
  template <class... D>
  static constexpr std::size_t first_missing_binding(type_list<D...>) {
    return first_true(std::array<bool, sizeof...(D)>{!has_binding<D, Args...>...});
  }
  static constexpr std::size_t missing_binding = first_missing_binding(typename used_data<Node>::type{});
  template <class... D>
  static auto nth_data(type_list<D...>) -> nth_type<missing_binding, D...>;
};

/// True when an entry point may run: keys resolve and the arguments are complete.
template <class Node, class... Args>
constexpr bool entry_clean() {
  if constexpr (!resolution_clean<Node>) {
    return false;
  } else {
    using C = argument_check<Node, Args...>;
    return C::unexpected == npos && C::missing_extent == npos && C::missing_binding == npos;
  }
}

/// Reports the FIRST problem `entry_clean` found (one failing static_assert).
template <class Node, class... Args>
void report_entry() {
  if constexpr (!resolution_clean<Node>) {
    report_resolution<Node>();
  } else {
    using C = argument_check<Node, Args...>;
    if constexpr (C::unexpected != npos) {
      [[maybe_unused]] bool r = unexpected_evaluate_argument<nth_type<C::unexpected, Args...>>::ok;
    } else if constexpr (C::missing_extent != npos) {
      [[maybe_unused]] bool r = missing_extent_for<typename facts<Node>::template set_at<C::missing_extent>>::ok;
    } else if constexpr (C::missing_binding != npos) {
      using D = decltype(C::nth_data(typename used_data<Node>::type{}));
      [[maybe_unused]] bool r = missing_binding_for<spelled<D::name>>::ok;
    }
  }
}

template <class Red>
struct reducer;
template <class S, class... Fs>
struct reducer<reduction<S, Fs...>> {
  using value_type = reduction_value_t<reduction<S, Fs...>>;
  template <class W, class Pos>
  static value_type product(const W& w, const Pos& pos) {
    if constexpr (sizeof...(Fs) == 0) {
      return value_type(1);  // count: each tuple adds one
    } else {
      value_type v{};
      bool first = true;
      ((v = first ? w.template factor_value<Fs, value_type>(pos)
                  : S::template times<value_type>(v, w.template factor_value<Fs, value_type>(pos)),
        first = false),
       ...);
      return v;
    }
  }
};

}  // namespace detail::agg

/// Evaluates an aggregate node: `jy::evaluate(node, jy::extent(set, n)...,
/// column = values...)`. Returns the dense result over the output symbols
/// (row-major in `output_idx` order); a cell no matched tuple reaches holds
/// the semiring's zero. Refuses at compile time (first error
/// `joinery[<rule>]:`) a node whose join keys do not resolve, a missing
/// extent or a missing binding; throws std::length_error naming the data
/// when a binding's length is not the product of its index sets' extents.
template <aggregate_node_type Node, class... Args>
[[nodiscard]] auto evaluate(const Node&, Args&&... args) {
  using red = typename Node::reduce;
  using T = reduction_value_t<red>;
  constexpr std::size_t n_out = detail::agg::facts<Node>::n_out;
  if constexpr (!detail::agg::entry_clean<Node, std::remove_cvref_t<Args>...>()) {
    detail::agg::report_entry<Node, std::remove_cvref_t<Args>...>();
    return dense_result<T, n_out>{};  // the report is the first and only error
  } else {
    detail::agg::walker<Node, std::remove_cvref_t<Args>...> w(args...);
    std::array<std::size_t, n_out> shape{};
    std::size_t cells = 1;
    for (std::size_t k = 0; k < n_out; ++k) cells *= (shape[k] = w.extents()[k]);
    using S = typename red::semiring_type;
    std::vector<T> out(cells, S::template zero<T>());
    w.run([&](const auto& pos) {
      std::size_t at = 0;
      for (std::size_t k = 0; k < n_out; ++k) at = at * shape[k] + pos[k];
      out[at] = S::template plus<T>(out[at], detail::agg::reducer<red>::product(w, pos));
    });
    return dense_result<T, n_out>(shape, std::move(out));
  }
}

/// The tuples the gated walk visits that pass every gate and predicate, each
/// an array of positions in canonical symbol order (`jy::canonical_symbols`):
/// sorted by canonical key, an order-preserving subsequence of the product.
template <aggregate_node_type Node, class... Args>
[[nodiscard]] auto matches(const Node&, Args&&... args) {
  constexpr std::size_t n = detail::agg::facts<Node>::n;
  std::vector<std::array<std::size_t, n>> out;
  if constexpr (!detail::agg::entry_clean<Node, std::remove_cvref_t<Args>...>()) {
    detail::agg::report_entry<Node, std::remove_cvref_t<Args>...>();
  } else {
    detail::agg::walker<Node, std::remove_cvref_t<Args>...> w(args...);
    w.run([&](const auto& pos) { out.push_back(pos); });
  }
  return out;
}

/// The work one evaluation's walk does (visits, tuples, probes, inserts):
/// the complexity guarantee, stated as counts.
template <aggregate_node_type Node, class... Args>
[[nodiscard]] aggregate_work walk_work(const Node&, Args&&... args) {
  if constexpr (!detail::agg::entry_clean<Node, std::remove_cvref_t<Args>...>()) {
    detail::agg::report_entry<Node, std::remove_cvref_t<Args>...>();
    return aggregate_work{};
  } else {
    detail::agg::walker<Node, std::remove_cvref_t<Args>...> w(args...);
    w.run([](const auto&) {});
    return w.work();
  }
}

}  // namespace joinery
