#pragma once
/// @file
/// `expect::many_to_one` / `expect::one_to_one`: the cardinality a join
/// promises (reference/002). Its shape is checked at compile time (rule family
/// E079, check/plan_expect.hpp); the data is checked when the plan runs.
#include <string_view>
#include <type_traits>

namespace joinery {

/// No cardinality annotation: the join is not checked.
struct no_expect {
  static constexpr bool annotated = false;
};

namespace expect {
/// Each left row matches at most one right row (right keys are unique).
struct many_to_one_t {
  static constexpr bool annotated = true;
  static constexpr bool check_left = false;
  static constexpr std::string_view name = "many_to_one";
};
/// Additionally each right row matches at most one left row (left keys unique).
struct one_to_one_t {
  static constexpr bool annotated = true;
  static constexpr bool check_left = true;
  static constexpr std::string_view name = "one_to_one";
};
inline constexpr many_to_one_t many_to_one{};
inline constexpr one_to_one_t one_to_one{};
}  // namespace expect

/// A cardinality annotation (`expect::many_to_one` or `expect::one_to_one`).
template <class E>
concept cardinality_expectation =
    std::is_same_v<E, expect::many_to_one_t> || std::is_same_v<E, expect::one_to_one_t>;

}  // namespace joinery
