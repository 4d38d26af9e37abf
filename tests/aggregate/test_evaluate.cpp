// Evaluation: semirings and identity fill, factors, bindings, key semantics.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <joinery/aggregate/evaluate.hpp>
#include <joinery/aggregate/node.hpp>
#include <joinery/check/aggregate_validate.hpp>

#include "fixtures.hpp"

using namespace agg_fx;

namespace {
template <class R>
std::vector<typename R::value_type> cells(const R& r) {
  return {r.begin(), r.end()};
}
constexpr auto two_rows = jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{}));
}  // namespace

TEST_CASE("joinery.aggregate.semiring.sum_identity_fill") {
  constexpr auto node = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(r_priorID, r_id)),
                                      jy::sum(value(a), value(b)));
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(), value = values());
  REQUIRE(cells(out) == std::vector<double>{0, 2 * 1, 3 * 2, 4 * 2, 0});
}

TEST_CASE("joinery.aggregate.semiring.min_plus_identity_fill") {
  constexpr auto node = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(r_priorID, r_id)),
                                      jy::min_plus(value(a), value(b)));
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = std::vector<std::int64_t>{11, 12, 11, 11, 99},
                          value = values());
  const double inf = std::numeric_limits<double>::infinity();
  REQUIRE(cells(out) == std::vector<double>{1 + 2, 2 + 3, 3 + 2, 4 + 2, inf});
  constexpr auto wi = jy::data<"wi", std::int64_t>(row_ax{});
  constexpr auto ints = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(r_priorID, r_id)), jy::min_plus(wi(b)));
  auto oi = jy::evaluate(ints, jy::extent(row_ax{}, 2), r_id = std::vector<std::int64_t>{1, 2},
                         r_priorID = std::vector<std::int64_t>{2, 7}, wi = std::vector<std::int64_t>{5, 6});
  REQUIRE(cells(oi) == std::vector<std::int64_t>{6, std::numeric_limits<std::int64_t>::max()});
}

TEST_CASE("joinery.aggregate.semiring.max_plus_identity_fill") {
  constexpr auto node = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(r_priorID, r_id)), jy::max_plus(value(b)));
  const std::vector<std::int64_t> dup_ids{10, 10, 12, 13, 14};
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), r_id = dup_ids, r_priorID = std::vector<std::int64_t>{10, 0, 10, 12, 0},
                          value = values());
  const double ninf = -std::numeric_limits<double>::infinity();
  REQUIRE(cells(out) == std::vector<double>{2, ninf, 2, 3, ninf});
}

TEST_CASE("joinery.aggregate.semiring.count_identity_fill") {
  constexpr auto node = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(r_priorID, r_id)), jy::count());
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), r_id = std::vector<std::int64_t>{10, 10, 11, 10, 12},
                          r_priorID = std::vector<std::int64_t>{10, 11, 13, 12, 10});
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(out[0])>, std::int64_t>);
  REQUIRE(cells(out) == std::vector<std::int64_t>{3, 1, 0, 1, 3});
}

TEST_CASE("joinery.aggregate.semiring.any_identity_fill") {
  constexpr auto node = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(r_priorID, r_id)), jy::any(flag(b)));
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 4), r_id = std::vector<std::int64_t>{1, 2, 2, 3},
                          r_priorID = std::vector<std::int64_t>{2, 3, 9, 1}, flag = std::vector<bool>{true, false, true, false});
  REQUIRE(cells(out) == std::vector<bool>{true, false, false, true});
  // any of several factors is or-of-and
  constexpr auto both = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(r_priorID, r_id)), jy::any(flag(a), flag(b)));
  auto o2 = jy::evaluate(both, jy::extent(row_ax{}, 4), r_id = std::vector<std::int64_t>{1, 2, 2, 3},
                         r_priorID = std::vector<std::int64_t>{2, 3, 9, 1}, flag = std::vector<bool>{true, false, true, false});
  REQUIRE(cells(o2) == std::vector<bool>{true, false, false, false});
}

TEST_CASE("joinery.aggregate.evaluate.no_output_symbols_one_cell") {
  constexpr auto node = jy::aggregate(jy::output_idx(), two_rows, jy::join(jy::on(r_priorID, r_id)), jy::sum(value(b)));
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(), value = values());
  REQUIRE(out.size() == 1);
  REQUIRE(out[0] == 5.0);
  auto none = jy::evaluate(node, jy::extent(row_ax{}, 0), r_id = std::vector<std::int64_t>{},
                           r_priorID = std::vector<std::int64_t>{}, value = std::vector<double>{});
  REQUIRE(cells(none) == std::vector<double>{0});
}

TEST_CASE("joinery.aggregate.evaluate.two_dimensional_output_and_factor") {
  // out[a][c] = sum over b gated to a of w(b, c)
  constexpr auto node = jy::aggregate(jy::output_idx(a, c),
                                      jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{}), jy::range(c, col_ax{})),
                                      jy::join(jy::on(r_priorID, r_id)), jy::sum(w(b, c)));
  STATIC_REQUIRE(jy::validate(node).empty());
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 3), jy::extent(col_ax{}, 2),
                          r_id = std::vector<std::int64_t>{1, 2, 3}, r_priorID = std::vector<std::int64_t>{2, 1, 1},
                          w = std::vector<double>{10, 11, 20, 21, 30, 31});
  REQUIRE(out.shape() == std::array<std::size_t, 2>{3, 2});
  REQUIRE(cells(out) == std::vector<double>{20, 21, 10, 11, 10, 11});
}

TEST_CASE("joinery.aggregate.evaluate.null_nan_and_signed_zero_keys") {
  constexpr auto ok = jy::data<"ok", std::optional<std::int64_t>>(row_ax{});
  constexpr auto nk = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(ok, ok)), jy::count());
  auto n = jy::evaluate(nk, jy::extent(row_ax{}, 3), ok = std::vector<std::optional<std::int64_t>>{1, std::nullopt, 1});
  REQUIRE(cells(n) == std::vector<std::int64_t>{2, 0, 2});  // NULL never matches, not even NULL

  constexpr auto dk = jy::data<"dk", double>(row_ax{});
  constexpr auto fk = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(dk, dk)), jy::count());
  const double nan = std::nan("");
  auto f = jy::evaluate(fk, jy::extent(row_ax{}, 4), dk = std::vector<double>{nan, -0.0, 0.0, nan});
  REQUIRE(cells(f) == std::vector<std::int64_t>{2, 2, 2, 2});  // NaN == NaN, -0.0 == 0.0
}

TEST_CASE("joinery.aggregate.evaluate.several_clauses") {
  // prior(a) == id(b) and grp(a) == grp(b): two gates of one pair of symbols
  constexpr auto grp = jy::data<"grp", std::int64_t>(row_ax{});
  constexpr auto node = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(r_priorID, r_id)),
                                      jy::join(jy::on(grp, grp)), jy::sum(value(b)));
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(), value = values(),
                          grp = std::vector<std::int64_t>{1, 1, 2, 1, 1});
  REQUIRE(cells(out) == std::vector<double>{0, 1, 0, 2, 0});
}

TEST_CASE("joinery.aggregate.evaluate.binding_by_reference_and_order") {
  constexpr auto node = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(r_priorID, r_id)), jy::sum(value(b)));
  const std::vector<std::int64_t> id = ids();
  const std::vector<std::int64_t> pr = priors();
  const std::vector<double> v = values();
  // arguments in any order; lvalues are read in place
  auto out = jy::evaluate(node, value = v, r_priorID = pr, jy::extent(row_ax{}, 5), r_id = id);
  REQUIRE(cells(out) == std::vector<double>{0, 1, 2, 2, 0});
}

TEST_CASE("joinery.aggregate.evaluate.length_mismatch_throws_naming_the_data") {
  constexpr auto node = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(r_priorID, r_id)), jy::sum(value(b)));
  REQUIRE_THROWS_WITH(jy::evaluate(node, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(),
                                   value = std::vector<double>{1, 2, 3, 4}),
                      "joinery: data 'value' has 4 values but its index sets (row_ax) have 5 positions");
  REQUIRE_THROWS_AS(jy::evaluate(node, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = std::vector<std::int64_t>{1},
                                 value = values()),
                    std::length_error);
}
