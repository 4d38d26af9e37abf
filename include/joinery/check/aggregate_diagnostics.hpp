#pragma once
/// @file
/// The compile-time reports of the aggregate IR's join resolution rules: one
/// struct template per rule whose instantiation fails a `static_assert`
/// starting `joinery[<rule>]:`, with the key and the candidate symbols in its
/// template arguments, spelled out as characters so both GCC and Clang print
/// them legibly in the instantiation note, e.g.
/// `join_side_ambiguous_for<name_chars<'r','_','p',...>, candidates<name_chars<'a'>, name_chars<'b'>, name_chars<'c'>>>`.
/// Entry points test `resolution_clean<Node>` and, when false, call
/// `report_resolution<Node>()` from a branch that returns at once.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <joinery/check/aggregate_resolve.hpp>
#include <joinery/core/fixed_string.hpp>
#include <joinery/core/rule.hpp>

namespace joinery {

/// `Key` is a data column whose index set 3+ symbols draw (`Candidates`).
template <class Key, class Candidates>
struct join_side_ambiguous_for {
  static_assert(detail::always_false<Key>::value,
                "joinery[join_side_ambiguous]: a data-column key of jy::on(l, r) is over an index set "
                "that three or more range symbols draw, so the symbol it is read at is not determined "
                "(the key and the candidates are the template arguments of join_side_ambiguous_for "
                "in the compiler's instantiation note); name the two sides with jy::join(jy::on(...), jy::syms(left_sym, right_sym))");
  static constexpr bool ok = false;
};

/// `Entry` (a `syms` entry) is not a range symbol of the node (`Candidates` are).
template <class Entry, class Candidates>
struct join_syms_unknown_symbol_for {
  static_assert(detail::always_false<Entry>::value,
                "joinery[join_syms_unknown_symbol]: a jy::syms(l, r) entry is not a range symbol of "
                "this aggregate (the entry and the node's symbols are the template arguments of "
                "join_syms_unknown_symbol_for in the compiler's instantiation note); name a symbol that jy::ranges(...) draws");
  static constexpr bool ok = false;
};

/// `Key` is an index set that several symbols (`Candidates`) draw.
template <class Key, class Candidates>
struct join_index_set_ambiguous_for {
  static_assert(detail::always_false<Key>::value,
                "joinery[join_index_set_ambiguous]: a key of jy::on(l, r) names an index set that "
                "several range symbols draw (the index set and the candidates are the template "
                "arguments of join_index_set_ambiguous_for in the compiler's instantiation note); name the range symbol itself, "
                "or add jy::syms(left_sym, right_sym)");
  static constexpr bool ok = false;
};

/// `Key` cannot be read at its side's `syms` entry `Side` (`Candidates` could).
template <class Key, class Side, class Candidates>
struct join_syms_axis_mismatch_for {
  static_assert(detail::always_false<Key>::value,
                "joinery[join_syms_axis_mismatch]: a key of jy::on(l, r) cannot be read at the "
                "symbol jy::syms names for its side: the symbol does not draw the key's index set, or "
                "the key names another range symbol (key, side symbol and the symbols that could read "
                "it are the template arguments of join_syms_axis_mismatch_for in the compiler's instantiation note); swap the keys "
                "or the syms entries so each side's keys live on its symbol");
  static constexpr bool ok = false;
};

/// `Key` names nothing this node binds (`Candidates` are its range symbols).
template <class Key, class Candidates>
struct join_key_unresolved_for {
  static_assert(detail::always_false<Key>::value,
                "joinery[join_key_unresolved]: a key of jy::on(l, r) resolves to no range symbol: "
                "it is a symbol no range draws, an index set no range draws, a data column over "
                "such an index set, or a multi-dimensional data column (the key and the node's "
                "symbols are the template arguments of join_key_unresolved_for in the compiler's instantiation note); key on a "
                "range symbol, an index set it draws or a 1-D data column over one");
  static constexpr bool ok = false;
};

namespace detail::agg {

template <class Node, std::uint64_t Mask, std::size_t... I>
auto candidates_of(std::index_sequence<I...>)
    -> candidates<spelled<facts<Node>::template symbol_at<nth_bit(Mask, I)>::name>...>;
/// `candidates<spelled<"a">...>` of the canonical positions in `Mask`.
template <class Node, std::uint64_t Mask>
using candidates_t = decltype(candidates_of<Node, Mask>(std::make_index_sequence<bit_count(Mask)>{}));

/// True when every key of `Node` resolves (a pure computation: no report).
template <class Node>
inline constexpr bool resolution_clean = resolution_of<Node>.n_issues == 0;

/// Reports the FIRST refusal of `Node` (a failing static_assert naming the key
/// and the candidates). Entry points call it only when
/// `resolution_clean<Node>` is false, from a branch that returns at once, so
/// the report is the first and only error.
template <class Node>
void report_resolution() {
  constexpr auto& res = resolution_of<Node>;
  if constexpr (res.n_issues != 0) {
    constexpr issue f = res.issues[0];
    using F = facts<Node>;
    using clause = typename F::template clause_at<f.clause>;
    using cands = candidates_t<Node, f.cand>;
    if constexpr (f.at_syms) {
      using entry = std::conditional_t<f.side == 0, typename clause::sides::left, typename clause::sides::right>;
      [[maybe_unused]] bool r = join_syms_unknown_symbol_for<spelled<entry::name>, cands>::ok;
    } else {
      using pair = list_at_t<typename clause::pairs, f.pair>;
      using key = std::conditional_t<f.side == 0, typename pair::left, typename pair::right>;
      if constexpr (f.rule == rule::join_side_ambiguous) {
        [[maybe_unused]] bool r = join_side_ambiguous_for<spelled<key::name>, cands>::ok;
      } else if constexpr (f.rule == rule::join_index_set_ambiguous) {
        [[maybe_unused]] bool r = join_index_set_ambiguous_for<spelled<key::name>, cands>::ok;
      } else if constexpr (f.rule == rule::join_syms_axis_mismatch) {
        [[maybe_unused]] bool r = join_syms_axis_mismatch_for<spelled<key::name>, spelled<F::template symbol_at<f.side_sym>::name>, cands>::ok;
      } else {
        [[maybe_unused]] bool r = join_key_unresolved_for<spelled<key::name>, cands>::ok;
      }
    }
  }
}

}  // namespace detail::agg
}  // namespace joinery
