// Differential: joins annotated with expect::many_to_one / one_to_one. The
// verdict and the duplicate-key-group count come from SQLite running
// jy::cardinality_sql's queries; rows are compared when the checks hold.
#include "diff_fixture.hpp"

using namespace diff;

TEST_CASE("joinery.sql.differential.expect_many_to_one_left") {
  differential_expect("expect_many_to_one_left", [](literals&) {
    return jy::model<"enriched">(jy::from<ta> | jy::join_left<tb>(a_k == b_k, jy::expect::many_to_one) |
                                 jy::select(jy::as<"id">(a_id), jy::as<"bid">(b_id)));
  });
}
TEST_CASE("joinery.sql.differential.expect_one_to_one_composite_inner") {
  differential_expect("expect_one_to_one_composite_inner", [](literals&) {
    return jy::from<ta> | jy::join_inner<tb>(a_k == b_k && b_k2 == a_k2, jy::expect::one_to_one) |
           jy::select(jy::as<"id">(a_id), jy::as<"bid">(b_id));
  });
}
TEST_CASE("joinery.sql.differential.expect_right_literal_conjunct") {
  differential_expect("expect_right_literal_conjunct", [](literals& l) {
    return jy::from<ta> | jy::join_left<tc>(a_k == c_k && c_w == l.i() + 3, jy::expect::many_to_one) |
           jy::select(jy::as<"id">(a_id), jy::as<"y">(c_y));
  });
}
TEST_CASE("joinery.sql.differential.expect_left_key_expression") {
  differential_expect("expect_left_key_expression", [](literals&) {
    return jy::from<ta> | jy::join_left<tb>(jy::call(jy::upper, a_k2) == b_k2, jy::expect::many_to_one) |
           jy::select(jy::as<"k2">(a_k2), jy::as<"bid">(b_id));
  });
}
TEST_CASE("joinery.sql.differential.expect_double_key_nan_groups") {
  differential_expect("expect_double_key_nan_groups", [](literals&) {
    return jy::from<tc> | jy::join_left<tb>(b_x == c_y, jy::expect::many_to_one) |
           jy::select(jy::as<"w">(c_w), jy::as<"bid">(b_id));
  });
}
TEST_CASE("joinery.sql.differential.expect_one_to_one_left_only_filter") {
  differential_expect("expect_one_to_one_left_only_filter", [](literals& l) {
    return jy::from<tc> | jy::join_inner<tb>(c_k == b_k && c_w > l.i() + 4, jy::expect::one_to_one) |
           jy::select(jy::as<"w">(c_w), jy::as<"bid">(b_id));
  });
}
TEST_CASE("joinery.sql.differential.expect_chain_after_where_and_semi") {
  differential_expect("expect_chain_after_where_and_semi", [](literals& l) {
    return jy::from<ta> | jy::where(a_v != l.i()) | jy::join_semi<tc>(c_k == a_k) |
           jy::join_inner<tb>(b_k == a_k, jy::expect::many_to_one) |
           jy::join_left<tb2>(jy::col<tb2, "id"> == b_id, jy::expect::one_to_one) |
           jy::select(jy::as<"id">(a_id), jy::as<"bid">(b_id), jy::as<"id2">(jy::col<tb2, "id">));
  });
}
