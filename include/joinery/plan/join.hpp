#pragma once
/// @file
/// Join steps: `join_inner<T>(cond)`, `join_left`, `join_semi`, `join_anti`,
/// each optionally with a cardinality expectation (`expect::many_to_one`).
/// Inner and left joins bind `T` (its columns become readable by later steps;
/// a left join's as `std::optional`); semi and anti joins only filter.
#include <string_view>

#include <joinery/expr/expression.hpp>
#include <joinery/plan/expect.hpp>
#include <joinery/plan/plan.hpp>
#include <joinery/schema/table.hpp>

namespace joinery {

/// The four join kinds of a plan.
enum class join_op { inner, left, semi, anti };

/// `join_inner`, `join_left`, `join_semi`, `join_anti` (as in messages and reports).
[[nodiscard]] constexpr std::string_view join_op_name(join_op k) noexcept {
  switch (k) {
    case join_op::inner: return "join_inner";
    case join_op::left: return "join_left";
    case join_op::semi: return "join_semi";
    case join_op::anti: return "join_anti";
  }
  return "join";
}

/// A join with table (or alias) `T` on condition `Cond` (the ON clause).
template <join_op Kind, table_type T, expression Cond, class Expect = no_expect>
struct join_step : detail::plan_step_tag {
  static constexpr join_op kind = Kind;
  using table = T;
  using condition = Cond;
  using expect_type = Expect;
  Cond on;
};

namespace detail {
template <join_op K, class T, class C, class E>
struct step_traits<join_step<K, T, C, E>> {
  static constexpr bool binds_table = K == join_op::inner || K == join_op::left;
  static constexpr bool nullable = K == join_op::left;
  using table = T;
};
}  // namespace detail

/// Rows of the plan paired with each row of `T` satisfying `cond`.
template <table_type T, expression C>
[[nodiscard]] constexpr join_step<join_op::inner, T, C> join_inner(const C& cond) {
  return {{}, cond};
}
template <table_type T, expression C, cardinality_expectation E>
[[nodiscard]] constexpr join_step<join_op::inner, T, C, E> join_inner(const C& cond, E) {
  return {{}, cond};
}
/// Like `join_inner`, and a row with no match is kept once with `T`'s columns NULL.
template <table_type T, expression C>
[[nodiscard]] constexpr join_step<join_op::left, T, C> join_left(const C& cond) {
  return {{}, cond};
}
template <table_type T, expression C, cardinality_expectation E>
[[nodiscard]] constexpr join_step<join_op::left, T, C, E> join_left(const C& cond, E) {
  return {{}, cond};
}
/// Rows of the plan that have at least one match in `T` (each once).
template <table_type T, expression C>
[[nodiscard]] constexpr join_step<join_op::semi, T, C> join_semi(const C& cond) {
  return {{}, cond};
}
/// (An expectation here is rule `expect_on_semi_or_anti`: a semi join never multiplies rows.)
template <table_type T, expression C, cardinality_expectation E>
[[nodiscard]] constexpr join_step<join_op::semi, T, C, E> join_semi(const C& cond, E) {
  return {{}, cond};
}
/// Rows of the plan that have no match in `T`.
template <table_type T, expression C>
[[nodiscard]] constexpr join_step<join_op::anti, T, C> join_anti(const C& cond) {
  return {{}, cond};
}
/// (An expectation here is rule `expect_on_semi_or_anti`.)
template <table_type T, expression C, cardinality_expectation E>
[[nodiscard]] constexpr join_step<join_op::anti, T, C, E> join_anti(const C& cond, E) {
  return {{}, cond};
}

}  // namespace joinery
