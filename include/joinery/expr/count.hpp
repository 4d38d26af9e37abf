#pragma once
/// @file
/// `count()`: the nullary count, shared by the relational plans
/// (`aggregate(as<"n">(count()))`) and the aggregate IR (the count semiring).
/// Each front door interprets the tag; neither defines its own `count()`.

namespace joinery {

/// The value `count()` returns; a tag each front door gives its meaning.
struct count_t {};

/// Number of rows (plans: per group, as `std::int64_t`).
[[nodiscard]] constexpr count_t count() noexcept { return {}; }

}  // namespace joinery
