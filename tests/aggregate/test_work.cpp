// Complexity by counting work: a self-join over 1e5 rows whose product would
// be 1e10 tuples visits O(rows + matches) symbol positions.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <joinery/aggregate/evaluate.hpp>
#include <joinery/aggregate/node.hpp>

#include "fixtures.hpp"

using namespace agg_fx;

namespace {
constexpr std::size_t rows = 100'000;
constexpr auto two_rows = jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{}));
}  // namespace

TEST_CASE("joinery.aggregate.work.self_join_visits_rows_plus_matches") {
  constexpr auto node = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(r_priorID, r_id)), jy::sum(value(b)));
  std::vector<std::int64_t> id(rows), prior(rows);
  std::vector<double> v(rows, 1.0);
  std::size_t expected = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    id[r] = static_cast<std::int64_t>((r * 7919) % rows) * 3;  // distinct, scattered
    // every third row has no predecessor (a key no row carries)
    prior[r] = r % 3 == 0 ? -1 : static_cast<std::int64_t>(((r + 1) * 7919 % rows) * 3);
    expected += r % 3 != 0;
  }
  const auto work = jy::walk_work(node, jy::extent(row_ax{}, rows), r_id = id, r_priorID = prior, value = v);
  REQUIRE(work.tuples == expected);
  REQUIRE(work.visits == rows + expected);  // a scanned once, b only at its matches
  REQUIRE(work.probes == rows);
  REQUIRE(work.inserts == rows);
  auto out = jy::evaluate(node, jy::extent(row_ax{}, rows), r_id = id, r_priorID = prior, value = v);
  double total = 0;
  for (double x : out) total += x;
  REQUIRE(total == static_cast<double>(expected));
}

TEST_CASE("joinery.aggregate.work.duplicate_keys_and_chains_stay_linear") {
  // groups of 10 equal keys: 1e6 matches, each visited once
  constexpr auto grp = jy::data<"grp", std::int64_t>(row_ax{});
  constexpr auto node = jy::aggregate(jy::output_idx(a), two_rows, jy::join(jy::on(grp, grp)), jy::count());
  std::vector<std::int64_t> g(rows);
  for (std::size_t r = 0; r < rows; ++r) g[r] = static_cast<std::int64_t>(r / 10);
  const auto work = jy::walk_work(node, jy::extent(row_ax{}, rows), grp = g);
  REQUIRE(work.tuples == rows * 10);
  REQUIRE(work.visits == rows + rows * 10);

  // a three-symbol chain: each driven level visits only its matches
  constexpr auto chain = jy::aggregate(
      jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{}), jy::range(c, row_ax{})),
      jy::join(jy::on(r_priorID, r_id), jy::syms(a, b)), jy::join(jy::on(r_priorID, r_id), jy::syms(b, c)), jy::count());
  std::vector<std::int64_t> id(rows), prior(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    id[r] = static_cast<std::int64_t>(r);
    prior[r] = static_cast<std::int64_t>(r) - 1;  // row r's predecessor is r - 1
  }
  const auto cw = jy::walk_work(chain, jy::extent(row_ax{}, rows), r_id = id, r_priorID = prior);
  REQUIRE(cw.tuples == rows - 2);
  REQUIRE(cw.visits == rows + (rows - 1) + (rows - 2));
}
