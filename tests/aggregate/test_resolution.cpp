// Join side resolution (DESIGN.md §2.3, reference/000 §2): every case of the
// reference, as validate() findings (exact rule, exact path) and as results.
#include <catch2/catch.hpp>

#include <array>
#include <string_view>
#include <vector>

#include <joinery/aggregate/evaluate.hpp>
#include <joinery/aggregate/node.hpp>
#include <joinery/check/aggregate_diagnostics.hpp>
#include <joinery/check/aggregate_validate.hpp>

#include "fixtures.hpp"

using namespace agg_fx;
using pos2 = std::array<std::size_t, 2>;
using pos3 = std::array<std::size_t, 3>;

namespace {
template <class R>
std::vector<typename R::value_type> cells(const R& r) {
  return {r.begin(), r.end()};
}
}  // namespace

TEST_CASE("joinery.aggregate.resolution.design_example") {
  constexpr auto prior_value = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                             jy::join(jy::on(r_priorID, r_id)), jy::sum(value(b)));
  STATIC_REQUIRE(jy::validate(prior_value).empty());
  auto out = jy::evaluate(prior_value, jy::extent(row_ax{}, 5), r_id = std::vector<std::int64_t>{10, 11, 12, 13, 14},
                          r_priorID = std::vector<std::int64_t>{0, 10, 11, 11, 99},
                          value = std::vector<double>{1, 2, 3, 4, 5});
  REQUIRE(out.size() == 5);
  REQUIRE(out[1] == 1.0);
  REQUIRE(cells(out) == std::vector<double>{0, 1, 2, 2, 0});
  REQUIRE(jy::matches(prior_value, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(), value = values()) ==
          std::vector<pos2>{{1, 0}, {2, 1}, {3, 1}});
}

TEST_CASE("joinery.aggregate.resolution.canonical_order") {
  constexpr auto out_b = jy::aggregate(jy::output_idx(b), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                       jy::join(jy::on(r_priorID, r_id)), jy::sum(value(a)));
  constexpr auto contracted = jy::aggregate(jy::output_idx(), jy::ranges(jy::range(a, row_ax{}), jy::range(B, row_ax{})),
                                            jy::join(jy::on(r_priorID, r_id)), jy::count());
  constexpr auto two = jy::aggregate(jy::output_idx(a, b), jy::ranges(jy::range(b, row_ax{}), jy::range(a, row_ax{})),
                                     jy::join(jy::on(r_priorID, r_id)), jy::count());
  STATIC_REQUIRE(jy::canonical_symbols(out_b) == std::array<std::string_view, 2>{"b", "a"});
  STATIC_REQUIRE(jy::canonical_symbols(contracted) == std::array<std::string_view, 2>{"B", "a"});  // code point
  STATIC_REQUIRE(jy::canonical_symbols(two) == std::array<std::string_view, 2>{"a", "b"});         // output order
}

TEST_CASE("joinery.aggregate.resolution.two_candidates_output_first") {
  // |C| == 2 with output b: the LEFT key is read at C[0] = b, the right at a.
  constexpr auto node = jy::aggregate(jy::output_idx(b), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                      jy::join(jy::on(r_priorID, r_id)), jy::sum(value(a)));
  STATIC_REQUIRE(jy::validate(node).empty());
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(), value = values());
  REQUIRE(cells(out) == std::vector<double>{0, 1, 2, 2, 0});
}

TEST_CASE("joinery.aggregate.resolution.two_candidates_code_point") {
  // Both contracted: "B" (0x42) sorts before "a" (0x61), so r_priorID is read at B.
  constexpr auto sum_a = jy::aggregate(jy::output_idx(), jy::ranges(jy::range(a, row_ax{}), jy::range(B, row_ax{})),
                                       jy::join(jy::on(r_priorID, r_id)), jy::sum(value(a)));
  constexpr auto sum_B = jy::aggregate(jy::output_idx(), jy::ranges(jy::range(a, row_ax{}), jy::range(B, row_ax{})),
                                       jy::join(jy::on(r_priorID, r_id)), jy::sum(value(B)));
  const auto bind = [](const auto& node) {
    return jy::evaluate(node, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(), value = values());
  };
  REQUIRE(cells(bind(sum_a)) == std::vector<double>{1 + 2 + 2});  // matched ids (a)
  REQUIRE(cells(bind(sum_B)) == std::vector<double>{2 + 3 + 4});  // rows with a prior (B)
  // tuples are (B, a) in canonical order
  REQUIRE(jy::matches(sum_a, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(), value = values()) ==
          std::vector<pos2>{{1, 0}, {2, 1}, {3, 1}});
  // lower-case pair: a before b, so r_priorID is read at a
  constexpr auto ab = jy::aggregate(jy::output_idx(), jy::ranges(jy::range(b, row_ax{}), jy::range(a, row_ax{})),
                                    jy::join(jy::on(r_priorID, r_id)), jy::sum(value(a)));
  REQUIRE(cells(bind(ab)) == std::vector<double>{2 + 3 + 4});
}

TEST_CASE("joinery.aggregate.resolution.syms_transposes") {
  constexpr auto successors =
      jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                    jy::join(jy::on(r_priorID, r_id), jy::syms(b, a)), jy::sum(value(b)));
  constexpr auto default_sides =
      jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                    jy::join(jy::on(r_priorID, r_id), jy::syms(a, b)), jy::sum(value(b)));
  STATIC_REQUIRE(jy::validate(successors).empty());
  auto s = jy::evaluate(successors, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(), value = values());
  REQUIRE(cells(s) == std::vector<double>{2, 3 + 4, 0, 0, 0});
  REQUIRE(jy::matches(successors, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(), value = values()) ==
          std::vector<pos2>{{0, 1}, {1, 2}, {1, 3}});
  auto d = jy::evaluate(default_sides, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(), value = values());
  REQUIRE(cells(d) == std::vector<double>{0, 1, 2, 2, 0});  // syms(a, b) spells the default
}

TEST_CASE("joinery.aggregate.resolution.three_symbols_need_syms") {
  // Grandparent: prior(a) == id(b), prior(b) == id(c), sum value(c).
  constexpr auto grand = jy::aggregate(
      jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{}), jy::range(c, row_ax{})),
      jy::join(jy::on(r_priorID, r_id), jy::syms(a, b)), jy::join(jy::on(r_priorID, r_id), jy::syms(b, c)),
      jy::sum(value(c)));
  STATIC_REQUIRE(jy::validate(grand).empty());
  const std::vector<std::int64_t> prior{0, 10, 11, 11, 12};
  auto out = jy::evaluate(grand, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = prior, value = values());
  REQUIRE(cells(out) == std::vector<double>{0, 0, 1, 1, 2});
  REQUIRE(jy::matches(grand, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = prior, value = values()) ==
          std::vector<pos3>{{2, 1, 0}, {3, 1, 0}, {4, 2, 1}});
}

TEST_CASE("joinery.aggregate.resolution.index_set_key_one_symbol") {
  // col_ax is drawn by c alone: the key is c's position (step 1), read there.
  constexpr auto node = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(c, col_ax{})),
                                      jy::join(jy::on(r_priorID, col_ax{})), jy::count());
  STATIC_REQUIRE(jy::validate(node).empty());
  // positions of c are 0..2; a prior of 3, -1 or 99 is outside the extent: no match
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), jy::extent(col_ax{}, 3),
                          r_priorID = std::vector<std::int64_t>{0, 2, -1, 3, 2});
  REQUIRE(cells(out) == std::vector<std::int64_t>{1, 1, 0, 0, 1});
}

TEST_CASE("joinery.aggregate.resolution.symbol_keys") {
  // Symbols are read at themselves: b's position equals a's prior.
  constexpr auto node = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                      jy::join(jy::on(r_priorID, b)), jy::sum(value(b)));
  STATIC_REQUIRE(jy::validate(node).empty());
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), r_priorID = std::vector<std::int64_t>{4, 0, 5, -2, 0},
                          value = values());
  REQUIRE(cells(out) == std::vector<double>{5, 1, 0, 0, 1});
}

TEST_CASE("joinery.aggregate.resolution.index_set_trap_stays_an_error") {
  // reference §2.5: on(county, i) with i and j drawing county must NOT default
  // county to i (the pair would become the tautology i == i and drop the gate).
  constexpr auto trap = jy::aggregate(jy::output_idx(i), jy::ranges(jy::range(i, county{}), jy::range(j, county{})),
                                      jy::join(jy::on(county{}, i)), jy::sum(pop(j)));
  constexpr auto f = jy::validate(trap);
  STATIC_REQUIRE(f.size() == 1);
  STATIC_REQUIRE(f[0].rule == jy::rule::join_index_set_ambiguous);
  STATIC_REQUIRE(f[0].path.view() == "/join/0/on/0/0");
  // syms resolves it: county read at j
  constexpr auto fixed = jy::aggregate(jy::output_idx(i), jy::ranges(jy::range(i, county{}), jy::range(j, county{})),
                                       jy::join(jy::on(county{}, i), jy::syms(j, i)), jy::sum(pop(j)));
  STATIC_REQUIRE(jy::validate(fixed).empty());
  auto out = jy::evaluate(fixed, jy::extent(county{}, 3), pop = std::vector<double>{5, 6, 7});
  REQUIRE(cells(out) == std::vector<double>{5, 6, 7});  // j == i: the diagonal, a real gate
}

TEST_CASE("joinery.aggregate.resolution.predicate_on_one_symbol") {
  // Only a draws row_ax: both keys resolve to a, a predicate, not a gate.
  constexpr auto node = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(c, col_ax{})),
                                      jy::join(jy::on(r_priorID, r_id)), jy::count());
  STATIC_REQUIRE(jy::validate(node).empty());
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 4), jy::extent(col_ax{}, 2),
                          r_id = std::vector<std::int64_t>{1, 2, 3, 4}, r_priorID = std::vector<std::int64_t>{1, 0, 3, 9});
  REQUIRE(cells(out) == std::vector<std::int64_t>{2, 0, 2, 0});  // x 2 positions of c
  // syms(a, a) asks for the same predicate explicitly
  constexpr auto same = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                      jy::join(jy::on(r_priorID, r_id), jy::syms(a, a)), jy::count());
  auto s = jy::evaluate(same, jy::extent(row_ax{}, 4), r_id = std::vector<std::int64_t>{1, 2, 3, 4},
                        r_priorID = std::vector<std::int64_t>{1, 0, 3, 9});
  REQUIRE(cells(s) == std::vector<std::int64_t>{4, 0, 4, 0});  // b is free: 4 positions
}

TEST_CASE("joinery.aggregate.resolution.composite_key") {
  constexpr auto k1 = jy::data<"k1", std::int64_t>(row_ax{});
  constexpr auto k2 = jy::data<"k2", std::int64_t>(row_ax{});
  constexpr auto node = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                      jy::join(jy::on(k1, k1), jy::on(k2, k2)), jy::count());
  STATIC_REQUIRE(jy::validate(node).empty());
  const std::vector<std::int64_t> v1{1, 1, 1, 2, 2};
  const std::vector<std::int64_t> v2{7, 8, 7, 7, 7};
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), k1 = v1, k2 = v2);
  REQUIRE(cells(out) == std::vector<std::int64_t>{2, 1, 2, 2, 2});
  REQUIRE(jy::matches(node, jy::extent(row_ax{}, 5), k1 = v1, k2 = v2) ==
          std::vector<pos2>{{0, 0}, {0, 2}, {1, 1}, {2, 0}, {2, 2}, {3, 3}, {3, 4}, {4, 3}, {4, 4}});
}

// ---- the five rules: exact rule and exact path ----

TEST_CASE("joinery.aggregate.rules.join_side_ambiguous") {
  constexpr auto node = jy::aggregate(
      jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{}), jy::range(c, row_ax{})),
      jy::join(jy::on(r_priorID, r_id)), jy::sum(value(b)));
  constexpr auto f = jy::validate(node);
  STATIC_REQUIRE(f.size() == 2);
  STATIC_REQUIRE(f[0].rule == jy::rule::join_side_ambiguous);
  STATIC_REQUIRE(f[0].path.view() == "/join/0/on/0/0");
  STATIC_REQUIRE(f[1].rule == jy::rule::join_side_ambiguous);
  STATIC_REQUIRE(f[1].path.view() == "/join/0/on/0/1");
  // the report names the key and the candidates, in canonical order
  using N = std::remove_cvref_t<decltype(node)>;
  constexpr auto& res = jy::detail::agg::resolution_of<N>;
  STATIC_REQUIRE(std::is_same_v<jy::detail::agg::candidates_t<N, res.issues[0].cand>,
                                jy::candidates<jy::spelled<"a">, jy::spelled<"b">, jy::spelled<"c">>>);
}

TEST_CASE("joinery.aggregate.rules.join_syms_unknown_symbol") {
  constexpr auto node = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                      jy::join(jy::on(r_id, r_id)), jy::join(jy::on(r_priorID, r_id), jy::syms(a, z)),
                                      jy::sum(value(b)));
  constexpr auto f = jy::validate(node);
  STATIC_REQUIRE(f.size() == 1);
  STATIC_REQUIRE(f[0].rule == jy::rule::join_syms_unknown_symbol);
  STATIC_REQUIRE(f[0].path.view() == "/join/1/syms/1");
}

TEST_CASE("joinery.aggregate.rules.join_index_set_ambiguous") {
  constexpr auto node = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                      jy::join(jy::on(r_priorID, row_ax{})), jy::sum(value(b)));
  constexpr auto f = jy::validate(node);
  STATIC_REQUIRE(f.size() == 1);
  STATIC_REQUIRE(f[0].rule == jy::rule::join_index_set_ambiguous);
  STATIC_REQUIRE(f[0].path.view() == "/join/0/on/0/1");
}

TEST_CASE("joinery.aggregate.rules.join_syms_axis_mismatch") {
  // c draws col_ax, but r_id lives on row_ax
  constexpr auto axis = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(c, col_ax{})),
                                      jy::join(jy::on(r_priorID, r_id), jy::syms(a, c)), jy::count());
  constexpr auto f = jy::validate(axis);
  STATIC_REQUIRE(f.size() == 1);
  STATIC_REQUIRE(f[0].rule == jy::rule::join_syms_axis_mismatch);
  STATIC_REQUIRE(f[0].path.view() == "/join/0/on/0/1");
  // a key naming the other side's symbol
  constexpr auto other = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                       jy::join(jy::on(r_priorID, r_id), jy::on(b, a), jy::syms(a, b)), jy::count());
  constexpr auto g = jy::validate(other);
  STATIC_REQUIRE(g.size() == 2);
  STATIC_REQUIRE(g[0].rule == jy::rule::join_syms_axis_mismatch);
  STATIC_REQUIRE(g[0].path.view() == "/join/0/on/1/0");
  STATIC_REQUIRE(g[1].rule == jy::rule::join_syms_axis_mismatch);
  STATIC_REQUIRE(g[1].path.view() == "/join/0/on/1/1");
}

TEST_CASE("joinery.aggregate.rules.join_key_unresolved") {
  // a symbol no range draws, a column over an index set no range draws, a 2-D column
  constexpr auto grid = jy::data<"grid", std::int64_t>(row_ax{}, col_ax{});
  constexpr auto node = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                      jy::join(jy::on(r_priorID, z)), jy::join(jy::on(c_key, r_id)),
                                      jy::join(jy::on(grid, r_id)), jy::count());
  constexpr auto f = jy::validate(node);
  STATIC_REQUIRE(f.size() == 3);
  STATIC_REQUIRE(f[0].rule == jy::rule::join_key_unresolved);
  STATIC_REQUIRE(f[0].path.view() == "/join/0/on/0/1");
  STATIC_REQUIRE(f[1].rule == jy::rule::join_key_unresolved);
  STATIC_REQUIRE(f[1].path.view() == "/join/1/on/0/0");
  STATIC_REQUIRE(f[2].rule == jy::rule::join_key_unresolved);
  STATIC_REQUIRE(f[2].path.view() == "/join/2/on/0/0");
}
