// Keys compare by a total order's equality (NaN == NaN, -0.0 == 0.0), a NULL
// (empty optional) matches nothing, integers compare by value across types,
// tuples compare component-wise: the index and the nested predicate agree.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "loop_fixtures.hpp"

namespace {
constexpr double nan_ = std::numeric_limits<double>::quiet_NaN();
struct dpoint {
  double k;
  int tag;
};
}  // namespace

TEST_CASE("joinery.loop.keys.nan_and_negative_zero") {
  std::vector<double> probes{nan_, -0.0, 0.0, 1.5, -nan_};
  std::vector<dpoint> rows{{0.0, 1}, {nan_, 2}, {1.5, 3}, {-0.0, 4}, {-nan_, 5}, {2.5, 6}};
  auto q = lp::for_each(x, probes, lp::map_list(z, lp::filter_list(y, rows, y[&dpoint::k] == x), z[&dpoint::tag]));
  STATIC_REQUIRE(lp::recognised(q));
  lp::run_stats st;
  auto out = lp::run(q, st);
  CHECK(out == std::vector<std::vector<int>>{{2, 5}, {1, 4}, {1, 4}, {3}, {2, 5}});
  CHECK(st.index_builds == 1);
  CHECK(lp::run_nested(q) == out);
  // The predicate itself says the same.
  auto eq = lp::for_each(x, probes, lp::lit(nan_) == x);
  CHECK(lp::run(eq) == std::vector<bool>{true, false, false, false, true});
}

TEST_CASE("joinery.loop.keys.floating_map_keys_use_an_arrangement") {
  // std::map's own find cannot find NaN and would disagree with `==`: the
  // map's entries are arranged by canonical key instead (one build).
  std::map<double, int> m{{-0.0, 1}, {2.0, 2}};
  std::vector<double> probes{0.0, -0.0, 2.0, nan_, 3.0};
  auto q = lp::for_each(x, probes, lp::map_get(m, x));
  STATIC_REQUIRE(lp::recognised(q));
  lp::run_stats st;
  auto out = lp::run(q, st);
  CHECK(out == std::vector<std::optional<int>>{1, 1, 2, std::nullopt, std::nullopt});
  CHECK(st.index_builds == 1);
  CHECK(st.map_probes == 0);
  CHECK(st.index_probes == 5);
  CHECK(lp::run_nested(q) == out);
}

TEST_CASE("joinery.loop.keys.null_never_matches") {
  struct item {
    std::optional<int> k;
    int v;
  };
  std::vector<item> items{{1, 10}, {std::nullopt, 20}, {1, 30}, {std::nullopt, 40}};
  std::vector<std::optional<int>> probes{1, std::nullopt, 2};
  auto q = lp::for_each(x, probes, lp::list_sum(lp::map_list(y, lp::filter_list(y, items, y[&item::k] == x), y[&item::v])));
  STATIC_REQUIRE(lp::recognised(q));
  auto out = lp::run(q);
  CHECK(out == std::vector<int>{40, 0, 0});
  CHECK(lp::run_nested(q) == out);
  std::map<int, int> m{{1, 7}};
  auto g = lp::for_each(x, probes, lp::map_get(m, x));
  CHECK(lp::run(g) == std::vector<std::optional<int>>{7, std::nullopt, std::nullopt});
  CHECK(lp::run_nested(g) == lp::run(g));
}

TEST_CASE("joinery.loop.keys.integers_by_value_across_types") {
  std::vector<std::int64_t> probes{1, -1, 5000000000LL};
  std::vector<short> small{1, -1, 1};
  auto q = lp::for_each(x, probes, lp::list_len(lp::filter_list(y, small, y == x)));
  STATIC_REQUIRE(lp::recognised(q));
  CHECK(lp::run(q) == std::vector<std::size_t>{2, 1, 0});
  CHECK(lp::run_nested(q) == lp::run(q));
  // A probe of another integer type than the map's key: no narrowing find.
  std::map<int, int> m{{705032704, 1}};  // 5000000000 mod 2^32
  auto g = lp::for_each(x, probes, lp::map_contains(m, x));
  CHECK(lp::run(g) == std::vector<bool>{false, false, false});
  CHECK(lp::run_nested(g) == lp::run(g));
}

TEST_CASE("joinery.loop.keys.tuple_and_string_keys") {
  struct sale {
    std::string region;
    int year;
    int amount;
  };
  struct target {
    std::string region;
    int year;
  };
  std::vector<sale> sales{{"north", 2020, 5}, {"south", 2020, 7}, {"north", 2021, 1}, {"north", 2020, 2}};
  std::vector<target> targets{{"north", 2020}, {"north", 2022}, {"south", 2020}};
  auto q = lp::for_each(x, targets, lp::list_sum(lp::map_list(y, lp::filter_list(
      y, sales, lp::tuple(y[&sale::region], y[&sale::year]) == lp::tuple(x[&target::region], x[&target::year])),
      y[&sale::amount])));
  STATIC_REQUIRE(lp::recognised(q));
  CHECK(lp::run(q) == std::vector<int>{7, 0, 7});
  CHECK(lp::run_nested(q) == lp::run(q));
  std::map<std::string, int> codes{{"north", 1}, {"south", 2}};
  auto c = lp::for_each(x, targets, lp::map_get(codes, x[&target::region]));
  lp::run_stats st;
  CHECK(lp::run(c, st) == std::vector<std::optional<int>>{1, 1, 2});
  CHECK(st.map_probes == 3);
  auto lit = lp::for_each(x, targets, x[&target::region] == "north");
  CHECK(lp::run(lit) == std::vector<bool>{true, true, false});
}
