#pragma once
/// @file
/// What each plan step reads, for the plan rules: its expressions (a
/// `type_list`), the path segment findings use (`/join/<k>/on`,
/// `/where/<k>`, `/select/<i>`, `/group_by/<i>`, `/aggregate/<i>`), and the
/// tables it may read (the scope before it, plus a join's own table).
#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include <joinery/core/rule.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/expr/analysis.hpp>
#include <joinery/plan/compose.hpp>
#include <joinery/plan/group_by.hpp>
#include <joinery/plan/join.hpp>
#include <joinery/plan/plan.hpp>
#include <joinery/plan/scope.hpp>
#include <joinery/plan/select.hpp>
#include <joinery/plan/where.hpp>

namespace joinery::detail {

enum class step_kind { join, where, select, group_by, aggregate };

template <class S>
struct step_info;
template <join_op K, class T, class C, class E>
struct step_info<join_step<K, T, C, E>> {
  static constexpr step_kind kind = step_kind::join;
  static constexpr std::string_view segment = "join";
  using exprs = type_list<C>;
  using extra_table = type_list<T>;
};
template <class C>
struct step_info<where_step<C>> {
  static constexpr step_kind kind = step_kind::where;
  static constexpr std::string_view segment = "where";
  using exprs = type_list<C>;
  using extra_table = type_list<>;
};
template <class... I>
struct step_info<select_step<I...>> {
  static constexpr step_kind kind = step_kind::select;
  static constexpr std::string_view segment = "select";
  using exprs = type_list<typename I::value_type...>;
  using extra_table = type_list<>;
};
template <class... K>
struct step_info<group_by_step<K...>> {
  static constexpr step_kind kind = step_kind::group_by;
  static constexpr std::string_view segment = "group_by";
  using exprs = type_list<typename K::value_type...>;
  using extra_table = type_list<>;
};
template <class X>
struct aggregate_arg {
  using type = literal<int>;  // count(): reads nothing
};
template <class K, class E>
struct aggregate_arg<aggregate_fn<K, E>> {
  using type = E;
};
template <class... I>
struct step_info<aggregate_step<I...>> {
  static constexpr step_kind kind = step_kind::aggregate;
  static constexpr std::string_view segment = "aggregate";
  using exprs = type_list<typename aggregate_arg<typename I::value_type>::type...>;
  using extra_table = type_list<>;
};

template <class P>
struct plan_steps;
template <fixed_string N, class F, class... S>
struct plan_steps<plan<N, F, S...>> {
  using list = type_list<S...>;
  static constexpr std::array<step_kind, sizeof...(S)> kinds{step_info<S>::kind...};
};

/// The step `I` of plan `P`.
template <class P, std::size_t I>
using plan_step_t = typename detail::column_at<typename plan_steps<P>::list, I>::type;

/// Position of step `I` among the plan's steps of the same kind (`/join/<k>`).
template <class P, std::size_t I>
constexpr std::size_t step_ordinal() {
  std::size_t k = 0;
  for (std::size_t j = 0; j < I; ++j) k += plan_steps<P>::kinds[j] == plan_steps<P>::kinds[I];
  return k;
}

/// The tables step `I` may read.
template <class P, std::size_t I>
using step_scope_t = concat_t<scope_tables_t<P, I>, typename step_info<plan_step_t<P, I>>::extra_table>;

/// The path of expression `E` (index `e`) of step `I`: `/join/<k>/on`,
/// `/where/<k>`, or `/select/<e>` (likewise group_by, aggregate).
template <class P, std::size_t I>
constexpr path_string step_expr_path(std::size_t e) {
  using info = step_info<plan_step_t<P, I>>;
  path_string p;
  p.segment(info::segment);
  if constexpr (info::kind == step_kind::join) {
    p.index(step_ordinal<P, I>()).segment("on");
  } else if constexpr (info::kind == step_kind::where) {
    p.index(step_ordinal<P, I>());
  } else {
    p.index(e);
  }
  return p;
}

}  // namespace joinery::detail
