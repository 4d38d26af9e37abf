#pragma once
// The self-join fixtures of DESIGN.md §2.3, shared by the aggregate tests.
#include <cstdint>
#include <optional>
#include <vector>

#include <joinery/aggregate/data.hpp>
#include <joinery/aggregate/index_set.hpp>
#include <joinery/aggregate/symbol.hpp>

namespace jy = joinery;

namespace agg_fx {

struct row_ax : jy::index_set<"row_ax"> {};
struct col_ax : jy::index_set<"col_ax"> {};
struct county : jy::index_set<"county"> {};

inline constexpr auto r_id = jy::data<"r_id", std::int64_t>(row_ax{});
inline constexpr auto r_priorID = jy::data<"r_priorID", std::int64_t>(row_ax{});
inline constexpr auto value = jy::data<"value", double>(row_ax{});
inline constexpr auto flag = jy::data<"flag", bool>(row_ax{});
inline constexpr auto c_key = jy::data<"c_key", std::int64_t>(col_ax{});
inline constexpr auto w = jy::data<"w", double>(row_ax{}, col_ax{});
inline constexpr auto pop = jy::data<"pop", double>(county{});

inline constexpr auto a = jy::sym<"a">;
inline constexpr auto b = jy::sym<"b">;
inline constexpr auto c = jy::sym<"c">;
inline constexpr auto B = jy::sym<"B">;
inline constexpr auto i = jy::sym<"i">;
inline constexpr auto j = jy::sym<"j">;
inline constexpr auto z = jy::sym<"z">;

/// The five rows of DESIGN.md §2.3.
inline std::vector<std::int64_t> ids() { return {10, 11, 12, 13, 14}; }
inline std::vector<std::int64_t> priors() { return {0, 10, 11, 11, 99}; }
inline std::vector<double> values() { return {1, 2, 3, 4, 5}; }

}  // namespace agg_fx
