#pragma once
/// @file
/// `aggregate(output_idx(...), ranges(...), join(...)..., reduction)`: an
/// aggregate node of the IR of reference/000, as a type. The node records what
/// was written; which symbol each join key is read at is decided in
/// check/aggregate_resolve.hpp and reported by `jy::validate(node)` and by
/// `jy::evaluate` (a node type never includes check/).
///
/// @code
/// constexpr auto prior_value = jy::aggregate(
///     jy::output_idx(a),
///     jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
///     jy::join(jy::on(r_priorID, r_id)),
///     jy::sum(value(b)));
/// @endcode
#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include <joinery/aggregate/data.hpp>
#include <joinery/aggregate/join.hpp>
#include <joinery/aggregate/range.hpp>
#include <joinery/aggregate/semiring.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/expr/count.hpp>

namespace joinery {

/// An aggregate node: output symbols, ranges, join clauses (a `type_list`) and
/// the semiring reduction.
template <class Out, class Ranges, class Joins, class Reduce>
struct aggregate_node {
  using output = Out;
  using ranges = Ranges;
  using joins = Joins;
  using reduce = Reduce;
};

namespace detail {

template <class T>
struct is_aggregate_node : std::false_type {};
template <class O, class R, class J, class X>
struct is_aggregate_node<aggregate_node<O, R, J, X>> : std::true_type {};

template <class T>
struct normalize_reduction {
  using type = T;
};
template <>
struct normalize_reduction<count_t> {
  using type = reduction<semiring::count>;
};

/// Position of `name` in `names`, or npos (a constexpr loop, not recursion).
template <std::size_t N>
constexpr std::size_t name_index(const std::array<std::string_view, N>& names, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == name) return i;
  return npos;
}

template <std::size_t N>
constexpr bool names_distinct(const std::array<std::string_view, N>& names) {
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (names[i] == names[j]) return false;
  return true;
}

/// Every symbol of factor F is a range symbol drawing F's axis at that argument.
template <class F, class... R>
struct factor_fits;
template <class D, class... S, class... R>
struct factor_fits<factor<D, S...>, R...> {
  template <class... Axes>
  static constexpr bool check(type_list<Axes...>) {
    constexpr std::array<std::string_view, sizeof...(R)> names{R::symbol::name.view()...};
    constexpr std::array<std::string_view, sizeof...(R)> sets{R::set::name.view()...};
    const std::array<std::string_view, sizeof...(S)> args{S::name.view()...};
    const std::array<std::string_view, sizeof...(S)> axes{Axes::name.view()...};
    for (std::size_t i = 0; i < sizeof...(S); ++i) {
      const std::size_t k = name_index(names, args[i]);
      if (k == npos || sets[k] != axes[i]) return false;
    }
    return true;
  }
  static constexpr bool value = check(typename D::axes{});
};

template <class Red, class... R>
struct reduction_fits;
template <class Sr, class... F, class... R>
struct reduction_fits<reduction<Sr, F...>, R...> {
  static constexpr bool value = (factor_fits<F, R...>::value && ...);
};

template <class... Rest, std::size_t... I>
constexpr bool leading_join_clauses(std::index_sequence<I...>) {
  return (is_join_clause<nth_type<I, Rest...>>::value && ...);
}

template <class... O, class... R, class... Rest, std::size_t... I>
constexpr auto make_aggregate(output_idx_t<O...>, ranges_t<R...>, type_list<Rest...>, std::index_sequence<I...>) {
  using red = typename normalize_reduction<nth_type<sizeof...(Rest) - 1, Rest...>>::type;
  constexpr std::array<std::string_view, sizeof...(R)> names{R::symbol::name.view()...};
  static_assert(names_distinct(names), "joinery: two ranges of one aggregate draw the same symbol");
  constexpr std::array<std::string_view, sizeof...(O)> outs{O::name.view()...};
  static_assert(names_distinct(outs), "joinery: output_idx lists a symbol twice");
  static_assert(((name_index(names, O::name.view()) != npos) && ...),
                "joinery: output_idx names a symbol that no range of the aggregate draws");
  static_assert(reduction_fits<red, R...>::value,
                "joinery: a factor is read at a symbol that is not a range of the aggregate, or "
                "whose index set is not the data column's axis at that argument");
  return aggregate_node<output_idx_t<O...>, ranges_t<R...>, type_list<nth_type<I, Rest...>...>, red>{};
}

}  // namespace detail

/// A node type made by `jy::aggregate`.
template <class T>
concept aggregate_node_type = detail::is_aggregate_node<std::remove_cvref_t<T>>::value;

/// `jy::aggregate(output_idx(...), ranges(...), join(...)..., reduction)`:
/// the reduction is `jy::sum/min_plus/max_plus/any(factors...)` or `jy::count()`.
template <class... O, class... R, class... Rest>
  requires(sizeof...(Rest) >= 1 && aggregate_reduction<detail::nth_type<sizeof...(Rest) - 1, Rest...>> &&
           detail::leading_join_clauses<Rest...>(std::make_index_sequence<sizeof...(Rest) - 1>{}))
[[nodiscard]] constexpr auto aggregate(output_idx_t<O...>, ranges_t<R...>, Rest...) noexcept {
  return detail::make_aggregate(output_idx_t<O...>{}, ranges_t<R...>{}, type_list<Rest...>{},
                                std::make_index_sequence<sizeof...(Rest) - 1>{});
}

}  // namespace joinery
