#pragma once
/// @file
/// `materialized{plan}`: a plan's result kept up to date by `refresh`, with
/// the strong guarantee: a refresh whose cardinality check fails, whose user
/// function throws, or that runs out of memory leaves `rows()` and `report()`
/// exactly as they were (the last good result survives, like a failed pin).
/// `report()` has one line per annotated join; a side whose relations have
/// the versions it was last verified at is not counted again and its line
/// says `cached`.
///
/// Example:
///   jy::materialized mv{enriched};
///   mv.refresh(o, c);             // throws jy::cardinality_error on duplicates
///   const auto& rel = mv.rows();  // const jy::relation<...>&
#include <utility>
#include <vector>

#include <joinery/check/validate.hpp>
#include <joinery/live/report.hpp>
#include <joinery/plan/cardinality.hpp>
#include <joinery/plan/execute.hpp>
#include <joinery/plan/plan.hpp>
#include <joinery/plan/result.hpp>
#include <joinery/schema/relation.hpp>

namespace joinery {

/// The last good result of plan `P`.
template <relational_plan P>
class materialized {
 public:
  /// The result relation type.
  using relation_type = result_relation_t<P>;

  explicit materialized(const P& plan) : plan_(plan) {}

  /// Runs the plan on `rels` (any order, one per table it reads) and, only if
  /// every step and check succeeded, replaces the result and the report.
  template <table_type... Ts>
  void refresh(const relation<Ts>&... rels) {
    if constexpr (detail::check_plan<P, Ts...>()) {
      detail::exec_context ctx;
      ctx.previously = &verified_;
      relation_type next = detail::execute(plan_, detail::source_set<Ts...>{{&rels...}}, ctx).materialize();
      cardinality_report next_report(std::move(ctx.report));
      // Commit: nothing below throws.
      rows_ = std::move(next);
      report_ = std::move(next_report);
      verified_ = std::move(ctx.verified);
      refreshed_ = true;
    }
  }

  /// The last good result (empty before the first successful refresh).
  [[nodiscard]] const relation_type& rows() const noexcept { return rows_; }
  /// The last good refresh's `ok ...` lines, one per annotated join.
  [[nodiscard]] const cardinality_report& report() const noexcept { return report_; }
  /// True once a refresh has succeeded.
  [[nodiscard]] bool has_result() const noexcept { return refreshed_; }
  /// The plan.
  [[nodiscard]] const P& plan() const noexcept { return plan_; }

 private:
  P plan_;
  relation_type rows_{};
  cardinality_report report_{};
  std::vector<detail::verified_join> verified_{};
  bool refreshed_ = false;
};

template <relational_plan P>
materialized(const P&) -> materialized<P>;

}  // namespace joinery
