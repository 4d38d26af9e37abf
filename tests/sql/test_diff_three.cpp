// Differential: join chains of up to three joins, mixing kinds, with wheres
// between them and conditions over a left join's nullable columns.
#include "diff_fixture.hpp"

using namespace diff;

namespace {
constexpr auto abc_cols = jy::select(jy::as<"id">(a_id), jy::as<"bid">(b_id), jy::as<"cw">(c_w), jy::as<"y">(c_y));
}  // namespace

TEST_CASE("joinery.sql.differential.chain_inner_inner") {
  differential("chain_inner_inner",
               [](literals&) { return jy::from<ta> | jy::join_inner<tb>(a_k == b_k) | jy::join_inner<tc>(b_k == c_k) | abc_cols; });
}
TEST_CASE("joinery.sql.differential.chain_left_left_on_nullable") {
  differential("chain_left_left_on_nullable", [](literals&) {
    return jy::from<ta> | jy::join_left<tb>(a_k == b_k) | jy::join_left<tc>(b_w == c_w) | abc_cols;
  });
}
TEST_CASE("joinery.sql.differential.chain_inner_semi") {
  differential("chain_inner_semi", [](literals&) {
    return jy::from<ta> | jy::join_inner<tb>(a_k == b_k) | jy::join_semi<tc>(c_w == b_w && c_k == a_k) |
           jy::select(jy::as<"id">(a_id), jy::as<"bid">(b_id));
  });
}
TEST_CASE("joinery.sql.differential.chain_left_anti") {
  differential("chain_left_anti", [](literals&) {
    return jy::from<ta> | jy::join_left<tb>(a_k == b_k) | jy::join_anti<tc>(b_w == c_w) |
           jy::select(jy::as<"id">(a_id), jy::as<"bid">(b_id));
  });
}
TEST_CASE("joinery.sql.differential.chain_where_left_inner_where") {
  differential("chain_where_left_inner_where", [](literals& l) {
    return jy::from<ta> | jy::where(a_v != l.i()) | jy::join_left<tb>(a_k2 == b_k2) | jy::join_inner<tc>(c_k == a_k) |
           jy::where(c_y > 0.0 || b_w < c_w) | abc_cols;
  });
}
TEST_CASE("joinery.sql.differential.chain_semi_anti_left") {
  differential("chain_semi_anti_left", [](literals&) {
    return jy::from<ta> | jy::join_semi<tb>(a_k == b_k) | jy::join_anti<tc>(c_k == a_k && c_w > 6) |
           jy::join_left<tb2>(jy::col<tb2, "k2"> == a_k2) |
           jy::select(jy::as<"id">(a_id), jy::as<"id2">(jy::col<tb2, "id">));
  });
}
TEST_CASE("joinery.sql.differential.chain_three_joins_inner_left_inner") {
  differential("chain_three_joins_inner_left_inner", [](literals&) {
    return jy::from<ta> | jy::join_inner<tb>(a_k == b_k) | jy::join_left<tc>(c_w == b_w && c_k == a_k) |
           jy::join_inner<tb2>(jy::col<tb2, "k"> == b_k && jy::col<tb2, "w"> != b_w) |
           jy::select(jy::as<"id">(a_id), jy::as<"bid">(b_id), jy::as<"y">(c_y), jy::as<"id2">(jy::col<tb2, "id">));
  });
}
TEST_CASE("joinery.sql.differential.chain_left_then_inner_on_left_side_nulls") {
  differential("chain_left_then_inner_on_left_side_nulls", [](literals&) {
    return jy::from<tc> | jy::join_left<tb>(c_k == b_k && b_w > c_w) | jy::join_inner<ta>(a_k == b_k) |
           jy::select(jy::as<"cw">(c_w), jy::as<"bid">(b_id), jy::as<"id">(a_id));
  });
}
