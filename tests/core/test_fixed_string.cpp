#include <catch2/catch.hpp>
#include <joinery/core/fixed_string.hpp>

namespace jy = joinery;

template <jy::fixed_string S>
constexpr std::string_view name_of() { return S.view(); }

TEST_CASE("joinery.core.fixed_string.is_a_template_argument") {
  STATIC_REQUIRE(name_of<"orders">() == "orders");
  STATIC_REQUIRE(jy::fixed_string("ab").size() == 2);
  STATIC_REQUIRE(jy::fixed_string("ab") == jy::fixed_string("ab"));
  STATIC_REQUIRE(!(jy::fixed_string("ab") == jy::fixed_string("abc")));
  CHECK(std::string_view(jy::fixed_string("x1")) == "x1");
}
