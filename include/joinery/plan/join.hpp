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

namespace detail {
/// What `join_inner<T>` & co. are: `(cond)` or `(cond, expectation)` -> a join step.
/// One factory for the four kinds, so they cannot drift apart.
template <join_op Kind, table_type T>
struct join_factory {
  template <expression C>
  [[nodiscard]] constexpr join_step<Kind, T, C> operator()(const C& cond) const {
    return {{}, cond};
  }
  template <expression C, cardinality_expectation E>
  [[nodiscard]] constexpr join_step<Kind, T, C, E> operator()(const C& cond, E) const {
    return {{}, cond};
  }
};
}  // namespace detail

/// Rows of the plan paired with each row of `T` satisfying `cond`.
template <table_type T>
inline constexpr detail::join_factory<join_op::inner, T> join_inner{};
/// Like `join_inner`, and a row with no match is kept once with `T`'s columns NULL.
template <table_type T>
inline constexpr detail::join_factory<join_op::left, T> join_left{};
/// Rows of the plan that have at least one match in `T` (each once). An
/// expectation here is rule `expect_on_semi_or_anti`: a semi join never multiplies rows.
template <table_type T>
inline constexpr detail::join_factory<join_op::semi, T> join_semi{};
/// Rows of the plan that have no match in `T` (an expectation here is rule
/// `expect_on_semi_or_anti`).
template <table_type T>
inline constexpr detail::join_factory<join_op::anti, T> join_anti{};

}  // namespace joinery
