// Differential: single-table plans (where, select, expressions, SQL-mapped
// calls, literals as runtime parameters) in joinery and SQLite.
#include "diff_fixture.hpp"

using namespace diff;

TEST_CASE("joinery.sql.differential.from_all_columns") {
  differential("from_all_columns", [](literals&) { return jy::from<ta>; });
}
TEST_CASE("joinery.sql.differential.where_int_gt_literal") {
  differential("where_int_gt_literal", [](literals& l) { return jy::from<ta> | jy::where(a_v > l.i()); });
}
TEST_CASE("joinery.sql.differential.where_nullable_key_eq_literal") {
  differential("where_nullable_key_eq_literal",
               [](literals& l) { return jy::from<ta> | jy::where(l.i() == a_k) | jy::select(jy::as<"id">(a_id)); });
}
TEST_CASE("joinery.sql.differential.where_nan_eq_literal") {
  differential("where_nan_eq_literal", [](literals& l) {
    return jy::from<ta> | jy::where(a_x == l.x()) | jy::select(jy::as<"id">(a_id), jy::as<"x">(a_x));
  });
}
TEST_CASE("joinery.sql.differential.where_nan_ne_literal") {
  differential("where_nan_ne_literal", [](literals& l) {
    return jy::from<ta> | jy::where(a_x != l.x()) | jy::select(jy::as<"x">(a_x));
  });
}
TEST_CASE("joinery.sql.differential.where_three_valued_logic") {
  differential("where_three_valued_logic", [](literals& l) {
    return jy::from<ta> | jy::where(!(a_v < l.i()) || (a_s == "x" && a_k != l.i())) |
           jy::select(jy::as<"id">(a_id), jy::as<"v">(a_v), jy::as<"s">(a_s));
  });
}
TEST_CASE("joinery.sql.differential.select_arithmetic") {
  differential("select_arithmetic", [](literals& l) {
    return jy::from<ta> |
           jy::select(jy::as<"a">(a_v * 2 - a_id), jy::as<"b">(a_id / 2), jy::as<"c">(a_v + l.i()),
                      jy::as<"d">(a_v <= a_id), jy::as<"t">(a_k2 + std::string("!")));
  });
}
TEST_CASE("joinery.sql.differential.select_upper_lower") {
  differential("select_upper_lower", [](literals&) {
    return jy::from<ta> | jy::select(jy::as<"u">(jy::call(jy::upper, a_s)), jy::as<"l">(jy::call(jy::lower, a_k2)));
  });
}
TEST_CASE("joinery.sql.differential.where_call_eq_literal") {
  differential("where_call_eq_literal", [](literals& l) {
    return jy::from<ta> | jy::where(jy::call(jy::lower, a_k2) == l.s()) | jy::select(jy::as<"k2">(a_k2));
  });
}
TEST_CASE("joinery.sql.differential.where_twice") {
  differential("where_twice", [](literals& l) {
    return jy::from<ta> | jy::where(a_v >= l.i()) | jy::where(a_k2 > "a" || a_k2 == "") |
           jy::select(jy::as<"id">(a_id), jy::as<"k2">(a_k2));
  });
}

// The harness itself: a statement whose order differs (the last ORDER BY key
// descending) must be caught, as must one that loses a row.
TEST_CASE("joinery.sql.differential.harness_detects_wrong_order_and_lost_rows") {
  const auto reversed = run_shape("harness_order", [](literals&) { return jy::from<ta>; },
                                  [](std::string s) { return s + " DESC"; });
  CHECK(reversed.mismatches > 0);
  const auto lossy = run_shape("harness_rows", [](literals&) { return jy::from<ta>; }, [](std::string s) {
    return s.replace(s.find("ORDER BY"), 8, "WHERE \"ta\".\"_pos\" <> 1 ORDER BY");
  });
  CHECK(lossy.mismatches > 0);
}
