// The reported duplicate-group counts equal a naive count on 1,000 random
// relations (NULL key components, composite keys, a right-side literal).
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>

#include <joinery/plan/relational.hpp>

namespace jy = joinery;

namespace {
struct lt : jy::table<"lt", jy::column<"a", std::optional<std::int64_t>>, jy::column<"b", std::int32_t>> {};
struct rt : jy::table<"rt", jy::column<"a", std::optional<std::int64_t>>, jy::column<"b", std::int64_t>,
                      jy::column<"tag", std::string>> {};

constexpr auto cond = jy::col<lt, "a"> == jy::col<rt, "a"> && jy::col<rt, "b"> == jy::col<lt, "b"> &&
                      jy::col<rt, "tag"> == "x";
constexpr auto m2o = jy::from<lt> | jy::join_left<rt>(cond, jy::expect::many_to_one);
constexpr auto o2o = jy::from<lt> | jy::join_inner<rt>(cond, jy::expect::one_to_one);

template <class F>
std::size_t reported(F&& f) {
  try {
    f();
  } catch (const jy::cardinality_error& e) {
    return e.duplicate_groups();
  }
  return 0;
}

template <class Map>
std::size_t dup_groups(const Map& m) {
  std::size_t d = 0;
  for (const auto& kv : m) d += kv.second > 1;
  return d;
}
}  // namespace

TEST_CASE("joinery.live.property.duplicate_groups_match_a_naive_count") {
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    std::mt19937_64 g(seed);
    jy::relation<lt> l;
    jy::relation<rt> r;
    const std::size_t nl = g() % 10, nr = g() % 10;
    auto maybe = [&]() -> std::optional<std::int64_t> {
      if (g() % 4 == 0) return std::nullopt;
      return static_cast<std::int64_t>(g() % 3);
    };
    for (std::size_t i = 0; i < nl; ++i) l.insert({maybe(), static_cast<std::int32_t>(g() % 2)});
    for (std::size_t j = 0; j < nr; ++j)
      r.insert({maybe(), static_cast<std::int64_t>(g() % 2), g() % 3 == 0 ? "y" : "x"});

    std::map<std::tuple<std::int64_t, std::int64_t>, int> right_keys, left_keys;
    for (std::size_t j = 0; j < r.size(); ++j) {
      const auto a = r.column<"a">()[j];
      if (a && r.column<"tag">()[j] == "x") ++right_keys[{*a, r.column<"b">()[j]}];
    }
    for (std::size_t i = 0; i < l.size(); ++i) {
      const auto a = l.column<"a">()[i];
      if (a) ++left_keys[{*a, l.column<"b">()[i]}];
    }
    const std::size_t right_dups = dup_groups(right_keys);
    REQUIRE(reported([&] { (void)jy::materialize(m2o, l, r); }) == right_dups);
    // one_to_one: the right side first, then the left side's groups.
    REQUIRE(reported([&] { (void)jy::materialize(o2o, l, r); }) == (right_dups != 0 ? right_dups : dup_groups(left_keys)));
  }
}
