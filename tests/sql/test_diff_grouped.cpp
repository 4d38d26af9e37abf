// Differential: group_by | aggregate over single tables and join chains:
// groups in order of first appearance, NULL keys one group, NaN keys one
// group, -0.0 with 0.0, count/sum/min/max with NULLs skipped.
#include "diff_fixture.hpp"

using namespace diff;

TEST_CASE("joinery.sql.differential.group_nullable_key_count") {
  differential("group_nullable_key_count",
               [](literals&) { return jy::from<ta> | jy::group_by(a_k) | jy::aggregate(jy::as<"n">(jy::count())); });
}
TEST_CASE("joinery.sql.differential.group_composite_key_all_aggregates") {
  differential("group_composite_key_all_aggregates", [](literals&) {
    return jy::from<ta> | jy::group_by(a_k2, a_k) |
           jy::aggregate(jy::as<"n">(jy::count()), jy::as<"sv">(jy::sum(a_v)), jy::as<"lo">(jy::min(a_s)),
                         jy::as<"hi">(jy::max(a_v)), jy::as<"first">(jy::min(a_id)));
  });
}
TEST_CASE("joinery.sql.differential.group_double_key_nan_negative_zero") {
  differential("group_double_key_nan_negative_zero", [](literals&) {
    return jy::from<ta> | jy::group_by(a_x) | jy::aggregate(jy::as<"n">(jy::count()), jy::as<"ids">(jy::sum(a_id)));
  });
}
TEST_CASE("joinery.sql.differential.group_computed_key_after_where") {
  differential("group_computed_key_after_where", [](literals& l) {
    return jy::from<ta> | jy::where(a_id != l.i()) | jy::group_by(jy::as<"half">(a_v / 2)) |
           jy::aggregate(jy::as<"n">(jy::count()), jy::as<"mx">(jy::max(a_k2)));
  });
}
TEST_CASE("joinery.sql.differential.group_after_left_join_nullable_aggregates") {
  differential("group_after_left_join_nullable_aggregates", [](literals&) {
    return jy::from<ta> | jy::join_left<tb>(a_k == b_k) | jy::group_by(b_k2) |
           jy::aggregate(jy::as<"n">(jy::count()), jy::as<"sw">(jy::sum(b_w)), jy::as<"mn">(jy::min(b_id)));
  });
}
TEST_CASE("joinery.sql.differential.group_after_inner_chain") {
  differential("group_after_inner_chain", [](literals&) {
    return jy::from<ta> | jy::join_inner<tb>(a_k == b_k) | jy::join_inner<tc>(c_k == b_k) | jy::group_by(c_w) |
           jy::aggregate(jy::as<"n">(jy::count()), jy::as<"sy">(jy::sum(c_y)), jy::as<"lo">(jy::min(c_y)));
  });
}
TEST_CASE("joinery.sql.differential.group_after_semi_with_mapped_key") {
  differential("group_after_semi_with_mapped_key", [](literals&) {
    return jy::from<ta> | jy::join_semi<tc>(c_k == a_k) | jy::group_by(jy::as<"u">(jy::call(jy::upper, a_s))) |
           jy::aggregate(jy::as<"n">(jy::count()), jy::as<"sv">(jy::sum(a_v)));
  });
}
TEST_CASE("joinery.sql.differential.group_non_null_sum_of_double") {
  differential("group_non_null_sum_of_double", [](literals&) {
    return jy::from<tc> | jy::group_by(c_k) |
           jy::aggregate(jy::as<"sy">(jy::sum(c_y)), jy::as<"mx">(jy::max(c_y)), jy::as<"n">(jy::count()));
  });
}
