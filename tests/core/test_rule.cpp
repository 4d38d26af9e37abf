#include <catch2/catch.hpp>
#include <joinery/core/rule.hpp>

namespace jy = joinery;

TEST_CASE("joinery.core.rule.names") {
  STATIC_REQUIRE(jy::rule_name(jy::rule::unknown_column) == "unknown_column");
  STATIC_REQUIRE(jy::rule_name(jy::rule::expect_one_to_one_needs_plain_pair) == "expect_one_to_one_needs_plain_pair");
  STATIC_REQUIRE(jy::rule_name(jy::rule::join_syms_axis_mismatch) == "join_syms_axis_mismatch");
}

TEST_CASE("joinery.core.rule.path_string") {
  constexpr auto p = jy::path_string("/join").index(0).segment("on").index(12).index(1);
  STATIC_REQUIRE(p.view() == "/join/0/on/12/1");
  CHECK(std::string_view(p) == "/join/0/on/12/1");
}

TEST_CASE("joinery.core.rule.findings_list") {
  constexpr auto f = [] {
    jy::findings out;
    out.add(jy::rule::expect_no_keys, jy::path_string("/join").index(1).segment("expect"));
    out.add(jy::rule::unknown_column, "/where");
    return out;
  }();
  STATIC_REQUIRE(f.size() == 2);
  STATIC_REQUIRE(!f.empty());
  STATIC_REQUIRE(f[0].rule == jy::rule::expect_no_keys);
  STATIC_REQUIRE(f[0].path == "/join/1/expect");
  STATIC_REQUIRE(f.contains(jy::rule::unknown_column));
  STATIC_REQUIRE(!f.contains(jy::rule::duplicate_column));
  constexpr jy::findings none{};
  STATIC_REQUIRE(none.empty());
}

TEST_CASE("joinery.core.rule.findings_overflow_is_reported") {
  jy::findings f;
  for (std::size_t i = 0; i < jy::findings::capacity + 3; ++i) f.add(jy::rule::unknown_column, "/x");
  CHECK(f.size() == jy::findings::capacity);
  CHECK(f.truncated());
}
