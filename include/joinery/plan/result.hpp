#pragma once
/// @file
/// The result of a plan as a table type: `table<model-name, column<...>...>`
/// (the name is "result" for a plan without `model<"...">`).
/// * with `select(as<"n">(e)...)`: one column per item, typed by its
///   expression (`std::optional` when it can be NULL, e.g. a left join's
///   right side);
/// * with `group_by(k...) | aggregate(...)`: the keys, then the aggregates;
/// * with neither: every column of every bound table in binding order; a
///   name an earlier column already took is qualified as "<table>.<column>"
///   (so `from<orders> | join_inner<customers>(...)` has `customer_id` and
///   `customers.customer_id`).
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include <joinery/core/fixed_string.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/expr/analysis.hpp>
#include <joinery/expr/as.hpp>
#include <joinery/expr/count.hpp>
#include <joinery/expr/eval.hpp>
#include <joinery/plan/compose.hpp>
#include <joinery/plan/env.hpp>
#include <joinery/plan/group_by.hpp>
#include <joinery/plan/plan.hpp>
#include <joinery/plan/scope.hpp>
#include <joinery/plan/select.hpp>
#include <joinery/schema/column.hpp>
#include <joinery/schema/table.hpp>

namespace joinery {

namespace detail {

template <fixed_string A, fixed_string B>
constexpr auto dotted_name() {
  constexpr std::size_t n = A.size() + 1 + B.size() + 1;
  char buf[n]{};
  std::size_t k = 0;
  for (char c : A.view()) buf[k++] = c;
  buf[k++] = '.';
  for (char c : B.view()) buf[k++] = c;
  return fixed_string<n>(buf);
}

/// True when column `k` of binding `b` has a name an earlier column took.
template <class... Bs>
constexpr bool name_taken(std::size_t b, std::size_t k) {
  const std::array<std::span<const std::string_view>, sizeof...(Bs)> names{
      std::span<const std::string_view>(Bs::table::column_names)...};
  const std::string_view name = names[b][k];
  for (std::size_t bb = 0; bb < b; ++bb)
    for (std::string_view n : names[bb])
      if (n == name) return true;
  return false;
}

template <class T, fixed_string C, bool Qualified>
constexpr auto output_name() {
  if constexpr (Qualified) return dotted_name<T::name, C>();
  else return C;
}

template <class Bindings, std::size_t B, class Cols, class Seq>
struct binding_items;
template <class... Bs, std::size_t B, class... Cs, std::size_t... K>
struct binding_items<type_list<Bs...>, B, type_list<Cs...>, std::index_sequence<K...>> {
  using T = typename nth_type<B, Bs...>::table;
  using type = type_list<
      named<output_name<T, Cs::name, name_taken<Bs...>(B, K)>(), column_ref<T, Cs::name>>...>;
};

template <class Bindings, class Seq>
struct implicit_items_impl;
template <class... Bs, std::size_t... B>
struct implicit_items_impl<type_list<Bs...>, std::index_sequence<B...>> {
  using type = concat_t<typename binding_items<type_list<Bs...>, B, typename Bs::table::columns,
                                               std::make_index_sequence<Bs::table::column_count>>::type...>;
};

}  // namespace detail

/// The select items a select-less plan over `Bindings` returns.
template <class Bindings>
using implicit_items_t =
    typename detail::implicit_items_impl<Bindings, std::make_index_sequence<Bindings::size>>::type;

/// The value a sum of `V` values has: 64-bit for integers, `V` otherwise.
template <class V>
using sum_value_t = std::conditional_t<
    std::is_integral_v<V>, std::conditional_t<std::is_signed_v<V> || std::is_same_v<V, bool>, std::int64_t, std::uint64_t>,
    V>;

namespace detail {

template <class X, class Env>
struct aggregate_result;
template <class Env>
struct aggregate_result<count_t, Env> {
  using type = std::int64_t;
};
template <class E, class Env>
struct aggregate_result<aggregate_fn<agg_kind::sum, E>, Env> {
  using arg = eval_result_t<E, Env>;
  using value = sum_value_t<unwrap_optional_t<arg>>;
  using type = std::conditional_t<is_optional_v<arg>, std::optional<value>, value>;
};
template <class K, class E, class Env>
struct aggregate_result<aggregate_fn<K, E>, Env> {
  using arg = eval_result_t<E, Env>;
  using type = std::conditional_t<is_optional_v<arg>, std::optional<unwrap_optional_t<arg>>, unwrap_optional_t<arg>>;
};

template <class Item, class Env>
using item_column = column<Item::name, eval_result_t<typename Item::value_type, Env>>;
template <class Item, class Env>
using aggregate_column = column<Item::name, typename aggregate_result<typename Item::value_type, Env>::type>;

template <class S>
struct select_items {
  using type = void;
};
template <class... I>
struct select_items<select_step<I...>> {
  using type = type_list<I...>;
};

// Lazily: only the branch a plan takes is instantiated.
template <bool Grouped, bool Selected, class Last, class Bindings>
struct projection_items {
  using type = void;
};
template <class Last, class Bindings>
struct projection_items<false, true, Last, Bindings> {
  using type = typename select_items<Last>::type;
};
template <class Last, class Bindings>
struct projection_items<false, false, Last, Bindings> {
  using type = implicit_items_t<Bindings>;
};

template <class P>
struct final_shape;
template <fixed_string N, class F, class... S>
struct final_shape<plan<N, F, S...>> {
  using P = plan<N, F, S...>;
  using bindings = plan_bindings_t<P>;
  using env = typed_env<bindings>;
  using last = typename last_step<S...>::type;
  static constexpr bool grouped = is_aggregate<last>::value;
  static constexpr bool selected = !std::is_void_v<typename select_items<last>::type>;
  // The projection items (select's, or every bound column); void when grouped.
  using items = typename projection_items<grouped, selected, last, bindings>::type;
};

template <fixed_string Name, class Items, class Env>
struct projection_table;
template <fixed_string Name, class... Items, class Env>
struct projection_table<Name, type_list<Items...>, Env> {
  using type = table<Name, item_column<Items, Env>...>;
};

template <class G, class A, fixed_string Name, class Env>
struct group_table;
template <class... K, class... I, fixed_string Name, class Env>
struct group_table<group_by_step<K...>, aggregate_step<I...>, Name, Env> {
  using type = table<Name, item_column<K, Env>..., aggregate_column<I, Env>...>;
};

template <class P, bool Grouped = final_shape<P>::grouped>
struct result_table_impl {
  using shape = final_shape<P>;
  using type = typename projection_table<P::name, typename shape::items, typename shape::env>::type;
};
template <fixed_string N, class F, class... S>
struct result_table_impl<plan<N, F, S...>, true> {
  using P = plan<N, F, S...>;
  using shape = final_shape<P>;
  using type = typename group_table<nth_type<sizeof...(S) - 2, S...>, nth_type<sizeof...(S) - 1, S...>, N,
                                    typename shape::env>::type;
};

}  // namespace detail

/// The result table type of plan `P` (`jy::materialize` returns `relation<result_table_t<P>>`).
template <class P>
using result_table_t = typename detail::result_table_impl<std::remove_cvref_t<P>>::type;

/// `relation<result_table_t<P>>`.
template <class P>
using result_relation_t = relation<result_table_t<P>>;

}  // namespace joinery
