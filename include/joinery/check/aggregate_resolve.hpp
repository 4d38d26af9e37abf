#pragma once
/// @file
/// Join side resolution of the aggregate IR (DESIGN.md §2.3, reference/000 §2),
/// decided from the node's type alone.
///
/// * Canonical range order: the `output_idx` symbols in their order, then the
///   contracted symbols in ascending code-point order of their names.
/// * Step 1: a key naming a range symbol is read at it; a key naming an index
///   set is read at the ONE symbol drawing it, else `join_index_set_ambiguous`
///   (only `syms` resolves it: a default here could read both keys at one
///   symbol and silently drop the gate).
/// * Step 2: a 1-D data-column key: C = the symbols drawing its axis in
///   canonical order; |C| == 1 reads it at C[0]; |C| == 2 reads the LEFT key at
///   C[0] and the RIGHT key at C[1]; |C| >= 3 is `join_side_ambiguous`.
/// * `syms(l, r)` is authoritative: every left key is read at l, every right
///   key at r; an entry the node does not bind is `join_syms_unknown_symbol`;
///   a key whose axis its side's symbol does not draw, or naming another range
///   symbol, is `join_syms_axis_mismatch`.
/// * A key that names nothing the node binds (or a multi-dimensional data
///   column) is `join_key_unresolved`.
/// * A pair whose sides resolve to one symbol is a predicate on it, not a gate.
///
/// Each refusal is a finding `{rule, path}` (`/join/<clause>/on/<pair>/<0|1>`,
/// `/join/<clause>/syms/<0|1>`) and, at every entry point, a `static_assert`
/// from a struct whose template arguments name the key and the candidates.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include <joinery/aggregate/data.hpp>
#include <joinery/aggregate/index_set.hpp>
#include <joinery/aggregate/join.hpp>
#include <joinery/aggregate/node.hpp>
#include <joinery/aggregate/range.hpp>
#include <joinery/aggregate/symbol.hpp>
#include <joinery/core/fixed_string.hpp>
#include <joinery/core/rule.hpp>
#include <joinery/core/type_list.hpp>

namespace joinery {

/// The candidate range symbols of a refused key, printed in the diagnostic.
template <class... Syms>
struct candidates {};

namespace detail::agg {

enum class key_kind : unsigned char { symbol, index_set, data };

template <class List>
struct list_front;
template <class T, class... Ts>
struct list_front<type_list<T, Ts...>> {
  using type = T;
};

/// Element I of a `type_list`.
template <class List, std::size_t I>
struct list_at;
template <class... Ts, std::size_t I>
struct list_at<type_list<Ts...>, I> {
  using type = nth_type<I, Ts...>;
};
template <class List, std::size_t I>
using list_at_t = typename list_at<List, I>::type;

/// What a key type is, as values a constexpr loop can inspect.
struct key_desc {
  key_kind kind{};
  std::string_view name{};
  std::string_view axis{};  // index set: itself; data: its first axis
  std::size_t rank = 0;     // data columns only
};

template <class K>
constexpr key_desc describe_key() {
  if constexpr (symbol_type<K>) {
    return {key_kind::symbol, K::name.view(), {}, 0};
  } else if constexpr (index_set_type<K>) {
    return {key_kind::index_set, K::name.view(), K::name.view(), 0};
  } else {
    return {key_kind::data, K::name.view(), list_front<typename K::axes>::type::name.view(), K::rank};
  }
}

/// One `on` pair, flattened out of its clause.
struct pair_desc {
  std::size_t clause = 0;
  std::size_t pair = 0;  // within the clause
  key_desc key[2]{};
  bool has_syms = false;
  std::string_view syms[2]{};
};

template <class Clause>
struct clause_facts;
template <class... P, class S>
struct clause_facts<join_clause<type_list<P...>, S>> {
  static constexpr std::size_t size = sizeof...(P);
  static constexpr std::array<pair_desc, sizeof...(P)> pairs(std::size_t clause) {
    std::array<pair_desc, sizeof...(P)> out{};
    std::size_t i = 0;
    ((out[i] = pair_desc{clause, i, {describe_key<typename P::left>(), describe_key<typename P::right>()},
                         false, {}},
      ++i),
     ...);
    if constexpr (!std::is_same_v<S, no_syms>) {
      for (auto& p : out) {
        p.has_syms = true;
        p.syms[0] = S::left::name.view();
        p.syms[1] = S::right::name.view();
      }
    }
    return out;
  }
};

/// Facts about a node type used by resolution, validation and execution.
template <class Node>
struct facts;
template <class... O, class... R, class... J, class Red>
struct facts<aggregate_node<output_idx_t<O...>, ranges_t<R...>, type_list<J...>, Red>> {
  static constexpr std::size_t n = sizeof...(R);
  static constexpr std::size_t n_out = sizeof...(O);
  static constexpr std::size_t n_clauses = sizeof...(J);
  static constexpr std::size_t n_pairs = (std::size_t{0} + ... + clause_facts<J>::size);
  static_assert(n <= 64, "joinery: an aggregate binds at most 64 range symbols");

  static constexpr std::array<std::string_view, n> decl_names{R::symbol::name.view()...};
  static constexpr std::array<std::string_view, n> decl_sets{R::set::name.view()...};

  /// order[k]: declaration index of the symbol at canonical position k.
  static constexpr std::array<std::size_t, n> order = [] {
    std::array<std::size_t, n> out{};
    const std::array<std::string_view, n_out> outs{O::name.view()...};
    std::size_t k = 0;
    for (std::size_t i = 0; i < n_out; ++i) out[k++] = name_index(decl_names, outs[i]);
    const std::size_t first_contracted = k;
    for (std::size_t d = 0; d < n; ++d)
      if (name_index(outs, decl_names[d]) == npos) {
        // insertion by code point (char_traits<char> compares as unsigned char)
        std::size_t j = k++;
        while (j > first_contracted && decl_names[d] < decl_names[out[j - 1]]) {
          out[j] = out[j - 1];
          --j;
        }
        out[j] = d;
      }
    return out;
  }();
  /// Names and index sets of the symbols in canonical order.
  static constexpr std::array<std::string_view, n> names = [] {
    std::array<std::string_view, n> out{};
    for (std::size_t k = 0; k < n; ++k) out[k] = decl_names[order[k]];
    return out;
  }();
  static constexpr std::array<std::string_view, n> sets = [] {
    std::array<std::string_view, n> out{};
    for (std::size_t k = 0; k < n; ++k) out[k] = decl_sets[order[k]];
    return out;
  }();

  static constexpr std::array<pair_desc, n_pairs> pairs = [] {
    std::array<pair_desc, n_pairs> out{};
    [[maybe_unused]] std::size_t k = 0, c = 0;
    (
        [&] {
          for (const auto& p : clause_facts<J>::pairs(c)) out[k++] = p;
          ++c;
        }(),
        ...);
    return out;
  }();

  /// The range symbol type at canonical position k.
  template <std::size_t K>
  using symbol_at = typename nth_type<order[K], R...>::symbol;
  /// The index set type at canonical position k.
  template <std::size_t K>
  using set_at = typename nth_type<order[K], R...>::set;
  /// The clause type C.
  template <std::size_t C>
  using clause_at = nth_type<C, J...>;
};

/// Canonical positions drawing index set `axis`, as a bit mask.
template <std::size_t N>
constexpr std::uint64_t drawing(const std::array<std::string_view, N>& sets, std::string_view axis) {
  std::uint64_t m = 0;
  for (std::size_t k = 0; k < N; ++k)
    if (sets[k] == axis) m |= std::uint64_t{1} << k;
  return m;
}
constexpr std::size_t bit_count(std::uint64_t m) {
  std::size_t c = 0;
  for (; m != 0; m &= m - 1) ++c;
  return c;
}
/// Position of the i-th set bit (ascending).
constexpr std::size_t nth_bit(std::uint64_t m, std::size_t i) {
  for (std::size_t k = 0; k < 64; ++k)
    if ((m >> k) & 1U) {
      if (i == 0) return k;
      --i;
    }
  return npos;
}

/// One refusal: the rule, where, and what the diagnostic names.
struct issue {
  joinery::rule rule{};
  std::size_t clause = 0;
  std::size_t pair = 0;  // within the clause (unused when at_syms)
  std::size_t side = 0;
  bool at_syms = false;
  std::uint64_t cand = 0;       // candidate symbols (canonical positions)
  std::size_t side_sym = npos;  // syms entry of the side (axis mismatch)

  [[nodiscard]] constexpr path_string path() const {
    path_string p;
    p.segment("join").index(clause);
    if (at_syms) p.segment("syms").index(side);
    else p.segment("on").index(pair).index(side);
    return p;
  }
};

/// Where each pair's keys are read (canonical positions).
struct pair_res {
  std::size_t sym[2]{npos, npos};
  bool ok = false;
  [[nodiscard]] constexpr bool predicate() const { return ok && sym[0] == sym[1]; }
};

template <std::size_t NP, std::size_t NI>
struct resolution {
  std::array<pair_res, NP> pairs{};
  std::array<issue, NI> issues{};
  std::size_t n_issues = 0;
  constexpr void add(const issue& i) { issues[n_issues++] = i; }
};

/// Resolves every key of node type `Node` (a pure function of the type).
template <class Node>
constexpr auto resolve() {
  using F = facts<Node>;
  constexpr std::size_t n = F::n;
  const std::uint64_t all = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  resolution<F::n_pairs, 2 * F::n_pairs + 2 * F::n_clauses> res{};
  std::size_t q = 0;
  for (std::size_t c = 0; c < F::n_clauses; ++c) {
    std::size_t side_sym[2]{npos, npos};
    const bool has_syms = q < F::n_pairs && F::pairs[q].clause == c && F::pairs[q].has_syms;
    if (has_syms)
      for (std::size_t s = 0; s < 2; ++s) {
        side_sym[s] = name_index(F::names, F::pairs[q].syms[s]);
        if (side_sym[s] == npos) res.add({rule::join_syms_unknown_symbol, c, 0, s, true, all, npos});
      }
    for (; q < F::n_pairs && F::pairs[q].clause == c; ++q) {
      const pair_desc& p = F::pairs[q];
      pair_res& r = res.pairs[q];
      bool ok = true;
      for (std::size_t s = 0; s < 2; ++s) {
        const key_desc& k = p.key[s];
        auto refuse = [&](joinery::rule why, std::uint64_t cand, std::size_t side) {
          res.add({why, c, p.pair, s, false, cand, side});
          ok = false;
        };
        const bool data_not_1d = k.kind == key_kind::data && k.rank != 1;
        if (has_syms) {
          const std::size_t S = side_sym[s];
          if (S == npos) {
            ok = false;  // reported once, at syms
            continue;
          }
          if (data_not_1d) {
            refuse(rule::join_key_unresolved, all, npos);
          } else if (k.kind == key_kind::symbol) {
            const std::size_t at = name_index(F::names, k.name);
            if (at == npos) refuse(rule::join_key_unresolved, all, npos);
            else if (at != S) refuse(rule::join_syms_axis_mismatch, std::uint64_t{1} << at, S);
            else r.sym[s] = S;
          } else if (F::sets[S] != k.axis) {
            refuse(rule::join_syms_axis_mismatch, drawing(F::sets, k.axis), S);
          } else {
            r.sym[s] = S;
          }
          continue;
        }
        if (data_not_1d) {
          refuse(rule::join_key_unresolved, all, npos);
        } else if (k.kind == key_kind::symbol) {  // step 1: a symbol
          const std::size_t at = name_index(F::names, k.name);
          if (at == npos) refuse(rule::join_key_unresolved, all, npos);
          else r.sym[s] = at;
        } else {
          const std::uint64_t C = drawing(F::sets, k.axis);
          const std::size_t nc = bit_count(C);
          if (nc == 0) refuse(rule::join_key_unresolved, all, npos);
          else if (nc == 1) r.sym[s] = nth_bit(C, 0);
          else if (k.kind == key_kind::index_set) refuse(rule::join_index_set_ambiguous, C, npos);  // step 1
          else if (nc == 2) r.sym[s] = nth_bit(C, s);                                      // step 2, |C| = 2
          else refuse(rule::join_side_ambiguous, C, npos);                                  // step 2, |C| >= 3
        }
      }
      r.ok = ok;
    }
  }
  return res;
}

/// The resolution of `Node`, computed once per node type.
template <class Node>
inline constexpr auto resolution_of = resolve<Node>();

/// The findings of `Node` (what `validate()` returns).
template <class Node>
constexpr findings findings_of() {
  findings out;
  constexpr auto& res = resolution_of<Node>;
  for (std::size_t i = 0; i < res.n_issues; ++i) out.add(res.issues[i].rule, res.issues[i].path());
  return out;
}

}  // namespace detail::agg

/// The range symbols of an aggregate node in canonical order (output_idx
/// order, then contracted symbols by code point): the order of the gated walk
/// and of the tuples `jy::matches` returns.
template <aggregate_node_type Node>
[[nodiscard]] constexpr auto canonical_symbols(const Node&) noexcept {
  return detail::agg::facts<Node>::names;
}

}  // namespace joinery
