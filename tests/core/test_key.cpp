#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <joinery/core/key.hpp>

namespace jy = joinery;

TEST_CASE("joinery.core.key.total_order_equality") {
  const double nan1 = std::numeric_limits<double>::quiet_NaN();
  const double nan2 = -std::nan("7");
  CHECK(jy::key_equal(nan1, nan2));
  CHECK(jy::key_equal(-0.0, 0.0));
  CHECK(!jy::key_equal(1.0, 2.0));
  CHECK(!jy::key_equal(nan1, 0.0));
  CHECK(jy::key_equal(std::int32_t{7}, std::int64_t{7}));
  CHECK(jy::key_equal(std::string("a"), std::string("a")));
  jy::key_hash<std::uint64_t> h;
  CHECK(h(jy::canonical(-0.0)) == h(jy::canonical(0.0)));
  CHECK(h(jy::canonical(nan1)) == h(jy::canonical(nan2)));
}

TEST_CASE("joinery.core.key.optional_traits") {
  STATIC_REQUIRE(jy::is_optional_v<std::optional<int>>);
  STATIC_REQUIRE(!jy::is_optional_v<int>);
  STATIC_REQUIRE(std::is_same_v<jy::unwrap_optional_t<std::optional<double>>, double>);
  STATIC_REQUIRE(std::is_same_v<jy::canonical_key_t<float>, std::uint32_t>);
  STATIC_REQUIRE(std::is_same_v<jy::canonical_key_t<int>, std::int64_t>);
}

TEST_CASE("joinery.core.key.tuple_hash_depends_on_every_component") {
  jy::key_hash<std::tuple<std::int64_t, std::string>> h;
  CHECK(h({1, "a"}) == h({1, "a"}));
  CHECK(h({1, "a"}) != h({1, "b"}));
  CHECK(h({1, "a"}) != h({2, "a"}));
}
