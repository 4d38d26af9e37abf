// Differential: two-table joins of all four kinds (single, composite and
// double keys with NaN/-0.0, residual, left-only and right-only conjuncts,
// no equality key, key expressions, self-joins) in joinery and SQLite.
#include "diff_fixture.hpp"

using namespace diff;

namespace {
constexpr auto ab_cols = jy::select(jy::as<"id">(a_id), jy::as<"k">(a_k), jy::as<"bid">(b_id), jy::as<"w">(b_w));
constexpr auto a_cols = jy::select(jy::as<"id">(a_id), jy::as<"k">(a_k), jy::as<"k2">(a_k2));
}  // namespace

TEST_CASE("joinery.sql.differential.inner_single_key") {
  differential("inner_single_key", [](literals&) { return jy::from<ta> | jy::join_inner<tb>(a_k == b_k) | ab_cols; });
}
TEST_CASE("joinery.sql.differential.left_single_key_all_columns") {
  differential("left_single_key_all_columns", [](literals&) { return jy::from<ta> | jy::join_left<tb>(b_k == a_k); });
}
TEST_CASE("joinery.sql.differential.semi_single_key") {
  differential("semi_single_key", [](literals&) { return jy::from<ta> | jy::join_semi<tb>(a_k == b_k) | a_cols; });
}
TEST_CASE("joinery.sql.differential.anti_single_key") {
  differential("anti_single_key", [](literals&) { return jy::from<ta> | jy::join_anti<tb>(a_k == b_k) | a_cols; });
}
TEST_CASE("joinery.sql.differential.inner_composite_key") {
  differential("inner_composite_key",
               [](literals&) { return jy::from<ta> | jy::join_inner<tb>(a_k == b_k && a_k2 == b_k2) | ab_cols; });
}
TEST_CASE("joinery.sql.differential.left_composite_key") {
  differential("left_composite_key", [](literals&) {
    return jy::from<ta> | jy::join_left<tb>(b_k2 == a_k2 && a_k == b_k) |
           jy::select(jy::as<"id">(a_id), jy::as<"bid">(b_id), jy::as<"k2">(b_k2));
  });
}
TEST_CASE("joinery.sql.differential.semi_anti_composite_key") {
  differential("semi_composite_key",
               [](literals&) { return jy::from<ta> | jy::join_semi<tb>(a_k == b_k && a_k2 == b_k2) | a_cols; });
  differential("anti_composite_key",
               [](literals&) { return jy::from<ta> | jy::join_anti<tb>(a_k2 == b_k2 && a_k == b_k) | a_cols; });
}
TEST_CASE("joinery.sql.differential.inner_double_key_nan_negative_zero") {
  differential("inner_double_key_nan_negative_zero", [](literals&) {
    return jy::from<ta> | jy::join_inner<tb>(a_x == b_x) |
           jy::select(jy::as<"id">(a_id), jy::as<"ax">(a_x), jy::as<"bx">(b_x), jy::as<"bid">(b_id));
  });
}
TEST_CASE("joinery.sql.differential.left_and_anti_double_key") {
  differential("left_double_key", [](literals&) {
    return jy::from<ta> | jy::join_left<tb>(b_x == a_x) | jy::select(jy::as<"id">(a_id), jy::as<"bid">(b_id));
  });
  differential("anti_double_key", [](literals&) { return jy::from<ta> | jy::join_anti<tb>(b_x == a_x) | a_cols; });
}
TEST_CASE("joinery.sql.differential.inner_key_plus_residual") {
  differential("inner_key_plus_residual",
               [](literals&) { return jy::from<ta> | jy::join_inner<tb>(a_k == b_k && a_v < b_w) | ab_cols; });
}
TEST_CASE("joinery.sql.differential.left_key_plus_right_only_literal") {
  differential("left_key_plus_right_only_literal", [](literals& l) {
    return jy::from<ta> | jy::join_left<tb>(a_k == b_k && b_w > l.i()) | ab_cols;
  });
}
TEST_CASE("joinery.sql.differential.left_key_plus_left_only_literal") {
  differential("left_key_plus_left_only_literal", [](literals& l) {
    return jy::from<ta> | jy::join_left<tb>(a_k == b_k && a_v >= l.i()) | ab_cols;
  });
}
TEST_CASE("joinery.sql.differential.no_equality_key_nested_loop") {
  differential("inner_no_key", [](literals&) { return jy::from<ta> | jy::join_inner<tb>(a_v > b_w) | ab_cols; });
  differential("left_no_key", [](literals&) { return jy::from<ta> | jy::join_left<tb>(a_v < b_w || b_k2 == a_s) | ab_cols; });
}
TEST_CASE("joinery.sql.differential.anti_key_plus_residual") {
  differential("anti_key_plus_residual",
               [](literals&) { return jy::from<ta> | jy::join_anti<tb>(a_k == b_k && a_v != b_w) | a_cols; });
}
TEST_CASE("joinery.sql.differential.semi_on_mapped_call_key") {
  differential("semi_on_mapped_call_key", [](literals&) {
    return jy::from<ta> | jy::join_semi<tb>(jy::call(jy::upper, a_k2) == b_k2) | a_cols;
  });
}
TEST_CASE("joinery.sql.differential.inner_mixed_int_double_key") {
  differential("inner_mixed_int_double_key", [](literals&) {
    return jy::from<ta> | jy::join_inner<tb>(a_v == b_x) | jy::select(jy::as<"id">(a_id), jy::as<"bid">(b_id));
  });
}
TEST_CASE("joinery.sql.differential.inner_then_where_across_tables") {
  differential("inner_then_where_across_tables", [](literals& l) {
    return jy::from<ta> | jy::join_inner<tb>(a_k == b_k) | jy::where(b_w > a_v || b_w == l.i()) |
           jy::select(jy::as<"id">(a_id), jy::as<"sum">(a_v + b_w), jy::as<"k2">(b_k2));
  });
}
TEST_CASE("joinery.sql.differential.self_join_alias") {
  differential("self_join_alias", [](literals&) {
    return jy::from<ta> | jy::join_inner<ta2>(a_k == jy::col<ta2, "k"> && a_id != jy::col<ta2, "id">) |
           jy::select(jy::as<"id">(a_id), jy::as<"id2">(jy::col<ta2, "id">));
  });
  differential("self_left_join_alias", [](literals&) {
    return jy::from<tb> | jy::join_left<tb2>(b_k == jy::col<tb2, "w">) |
           jy::select(jy::as<"id">(b_id), jy::as<"id2">(jy::col<tb2, "id">));
  });
}
