#pragma once
/// @file
/// Rule `missing_source`: every table a plan reads (from, each join's) needs
/// a relation among the sources passed to `run`/`materialize`; sources are
/// matched by table type, an alias by its base table.
#include <cstddef>
#include <type_traits>
#include <utility>

#include <joinery/core/rule.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/check/plan_steps.hpp>
#include <joinery/plan/scope.hpp>
#include <joinery/schema/table.hpp>

namespace joinery {

/// The tables whose relations are passed to an entry point (for
/// `validate(plan, sources<orders, customers>{})`).
template <class... Tables>
struct sources {};

/// Instantiated when the plan reads `Table` but no relation of it was passed.
template <class Table>
struct missing_source_for {
  static_assert(detail::always_false<Table>::value,
                "joinery[missing_source]: the plan reads a table (the template argument of "
                "missing_source_for<Table> in the note below) but no jy::relation of it was passed; pass "
                "its relation to run/materialize/refresh (an alias reads its base table's relation)");
};

namespace detail {

template <class T, class... Tables>
inline constexpr bool has_source = (std::is_same_v<base_table_t<T>, base_table_t<Tables>> || ...);

template <class P, std::size_t I, class... Tables>
constexpr void check_step_source(findings& out) {
  using S = plan_step_t<P, I>;
  if constexpr (step_info<S>::kind == step_kind::join) {
    if (!has_source<typename S::table, Tables...>) {
      path_string p;
      p.segment("join").index(step_ordinal<P, I>());
      out.add(rule::missing_source, p);
    }
  }
}

template <class P, class... Tables>
constexpr findings plan_sources_findings() {
  findings out;
  if (!has_source<typename P::from_table, Tables...>) out.add(rule::missing_source, "/from");
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (check_step_source<P, I, Tables...>(out), ...);
  }(std::make_index_sequence<P::step_count>{});
  return out;
}

template <class List, class... Tables>
struct first_missing;
template <class... Ts, class... Tables>
struct first_missing<type_list<Ts...>, Tables...> {
  static constexpr std::size_t index = first_true(std::array<bool, sizeof...(Ts)>{!has_source<Ts, Tables...>...});
};

/// `true`, or the `joinery[missing_source]` error naming the first table without a relation.
template <class P, class... Tables>
constexpr bool check_plan_sources() {
  using all = plan_tables_t<P>;
  constexpr std::size_t i = first_missing<all, Tables...>::index;
  if constexpr (i == npos) {
    return true;
  } else {
    (void)missing_source_for<typename column_at<all, i>::type>{};
    return false;
  }
}

}  // namespace detail

/// `missing_source` findings of plan `p` run with relations of `Tables...`
/// (path `/from` or `/join/<k>`).
template <relational_plan P, class... Tables>
[[nodiscard]] constexpr findings validate_plan_sources(const P&, sources<Tables...>) {
  return detail::plan_sources_findings<P, Tables...>();
}

}  // namespace joinery
