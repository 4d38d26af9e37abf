#pragma once
/// @file
/// The entry points of relational plans:
/// * `run(plan, relations...)`: a lazy range-v3 view of result rows (see
///   plan/result_view.hpp), read with `jy::get<"name">(row)`;
/// * `materialize(plan, relations...)`: `jy::relation<result_table_t<plan>>`.
/// Relations are matched to the plan's tables by type, in any order (an alias
/// reads its base table's relation). Both assert every rule of `validate()`
/// first: a misspelt column is `joinery[unknown_column]`, a table without a
/// relation `joinery[missing_source]`, a cardinality annotation of the wrong
/// shape one of the E079 rules; and they check annotated joins' data
/// (throwing `cardinality_error`).
#include <memory>
#include <utility>

#include <joinery/check/validate.hpp>
#include <joinery/exec/threads.hpp>
#include <joinery/plan/execute.hpp>
#include <joinery/plan/plan.hpp>
#include <joinery/plan/result.hpp>
#include <joinery/plan/result_view.hpp>
#include <joinery/schema/relation.hpp>

namespace joinery {

/// Work a run did, summed over its arrangements (for complexity tests).
struct plan_stats {
  exec::work_counters work{};
  std::uint64_t nested_pairs = 0;  // candidate pairs of joins without an equality key
};

/// The parallelism policy of `run` and `materialize`: `jy::threads(2)`.
using threads = exec::threads;

/// As `run(p, rels...)` (below), computing the match set on up to `t.count` threads:
/// the first table is cut into contiguous parts, one per thread, and their
/// match sets are concatenated in part order, so the rows and their order
/// are those of one thread. The view then reads the whole match set (it does
/// not stream). A group-by groups its rows on the threads (each thread takes
/// the keys of a share of the hash values; groups stay in order of first
/// appearance and each group folds its rows in row order). Steps that do not
/// pipeline (a `one_to_one` join, a join without an equality key) and any
/// step or aggregate calling a user function run on one thread.
template <relational_plan P, table_type... Ts>
[[nodiscard]] auto run(const P& p, threads t, const relation<Ts>&... rels) {
  if constexpr (!detail::check_plan<P, Ts...>()) {
    return 0;
  } else {
    using src_t = detail::source_set<Ts...>;
    detail::exec_context ctx;
    auto st = detail::run_state(p, src_t{{&rels...}}, ctx, t);
    using state = typename decltype(st)::element_type;
    return result_view<state>(std::move(st));
  }
}

/// The lazy rows of plan `p` over `rels` (one relation per table the plan reads, any order).
/// Example: `for (auto row : jy::run(enriched, o, c)) jy::get<"country">(row);`
template <relational_plan P, table_type... Ts>
[[nodiscard]] auto run(const P& p, const relation<Ts>&... rels) {
  return run(p, threads{}, rels...);  // one thread: the view streams
}

/// The rows of plan `p` over `rels`, stored: a `jy::relation<result_table_t<P>>`.
template <relational_plan P, table_type... Ts>
[[nodiscard]] auto materialize(const P& p, const relation<Ts>&... rels) {
  if constexpr (!detail::check_plan<P, Ts...>()) {
    return 0;
  } else {
    detail::exec_context ctx;
    return detail::execute(p, detail::source_set<Ts...>{{&rels...}}, ctx).materialize();
  }
}

/// As `materialize(p, rels...)`, the joins computed on up to `t.count`
/// threads (see `run(p, threads, rels...)`; same rows, same order).
template <relational_plan P, table_type... Ts>
[[nodiscard]] auto materialize(const P& p, threads t, const relation<Ts>&... rels) {
  if constexpr (!detail::check_plan<P, Ts...>()) {
    return 0;
  } else {
    using src_t = detail::source_set<Ts...>;
    detail::exec_context ctx;
    if constexpr (detail::plan_pipelines<P, src_t>()) {
      return detail::run_state(p, src_t{{&rels...}}, ctx, t)->materialize();
    } else {
      return detail::execute(p, src_t{{&rels...}}, ctx, t).materialize();
    }
  }
}

/// As `materialize`, also reporting the work done into `stats`.
template <relational_plan P, table_type... Ts>
[[nodiscard]] auto materialize_counted(plan_stats& stats, const P& p, const relation<Ts>&... rels) {
  if constexpr (!detail::check_plan<P, Ts...>()) {
    return 0;
  } else {
    detail::exec_context ctx;
    auto out = detail::execute(p, detail::source_set<Ts...>{{&rels...}}, ctx).materialize();
    stats.work = ctx.work;
    stats.nested_pairs = ctx.nested_pairs;
    return out;
  }
}

}  // namespace joinery
