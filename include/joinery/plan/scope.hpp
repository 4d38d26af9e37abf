#pragma once
/// @file
/// Which tables a plan has bound, from its type: `from<T>` binds T, inner and
/// left joins bind their table (a left join's as nullable), semi and anti
/// joins bind nothing. A step reads the tables bound before it (a join also
/// its own table).
#include <cstddef>
#include <type_traits>
#include <utility>

#include <joinery/core/type_list.hpp>
#include <joinery/expr/analysis.hpp>
#include <joinery/plan/join.hpp>
#include <joinery/plan/plan.hpp>

namespace joinery {

/// A bound table: `T`, read as `std::optional` when `Nullable` (a left join's right side).
template <class T, bool Nullable>
struct table_binding {
  using table = T;
  static constexpr bool nullable = Nullable;
};

namespace detail {

template <class S, bool Keep>
using binding_if = std::conditional_t<Keep && step_traits<S>::binds_table,
                                      type_list<table_binding<typename step_traits<S>::table, step_traits<S>::nullable>>,
                                      type_list<>>;

template <class P, std::size_t I, class Seq>
struct scope_impl;
template <fixed_string N, class F, class... S, std::size_t I, std::size_t... J>
struct scope_impl<plan<N, F, S...>, I, std::index_sequence<J...>> {
  using type = concat_t<type_list<table_binding<F, false>>, binding_if<S, (J < I)>...>;
};

template <class Bindings>
struct binding_tables;
template <class... B>
struct binding_tables<type_list<B...>> {
  using type = type_list<typename B::table...>;
};

template <class P>
struct plan_all_tables;
template <fixed_string N, class F, class... S>
struct plan_all_tables<plan<N, F, S...>> {
  // every table a plan reads: from, and every join's table (semi/anti too)
  using type = concat_t<type_list<F>, std::conditional_t<!std::is_void_v<typename step_traits<S>::table>,
                                                         type_list<typename step_traits<S>::table>, type_list<>>...>;
};

}  // namespace detail

/// The bindings (`table_binding<T, nullable>`) in force before step `I` of plan `P`.
template <class P, std::size_t I>
using scope_bindings_t =
    typename detail::scope_impl<std::remove_cvref_t<P>, I,
                                std::make_index_sequence<std::remove_cvref_t<P>::step_count>>::type;

/// The tables bound before step `I` (a `type_list`).
template <class P, std::size_t I>
using scope_tables_t = typename detail::binding_tables<scope_bindings_t<P, I>>::type;

/// Every binding of the whole plan (the select-less result's tables).
template <class P>
using plan_bindings_t = scope_bindings_t<P, std::remove_cvref_t<P>::step_count>;

/// Every table (or alias) the plan reads, in step order: `from` then each join's.
template <class P>
using plan_tables_t = typename detail::plan_all_tables<std::remove_cvref_t<P>>::type;

}  // namespace joinery
