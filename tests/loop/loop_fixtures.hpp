#pragma once
// The user structs of DESIGN.md §2.4 and small fixed data for the loop tests.
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <joinery/loop/loop.hpp>

namespace jy = joinery;
namespace lp = jy::loop;

struct review {
  int id;
  int author;
  bool operator==(const review&) const = default;
};
struct verdict {
  int author;
  int score;
  bool operator==(const verdict&) const = default;
};

inline constexpr auto x = lp::var<"x">;
inline constexpr auto y = lp::var<"y">;
inline constexpr auto z = lp::var<"z">;

struct loop_data {
  std::vector<review> reviews{{1, 10}, {2, 20}, {3, 10}, {4, 30}, {5, 20}};
  std::map<int, verdict> by_author{{10, {10, 5}}, {20, {20, 7}}};
  std::vector<verdict> verdicts{{20, 1}, {10, 2}, {20, 3}, {40, 4}, {10, 5}, {20, 6}};
};

/// The group as plain values, for exact comparisons.
template <class G>
auto values(const G& g) {
  return std::vector<typename G::value_type>(g.begin(), g.end());
}
