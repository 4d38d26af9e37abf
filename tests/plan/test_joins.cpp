// Exact rows and order for every join kind (DESIGN.md §2.2, §3).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <joinery/plan/relational.hpp>
#include "plan_test_util.hpp"
#include <test_schemas.hpp>

namespace {
using std::nullopt;
using opt_s = std::optional<std::string>;
constexpr auto o_id = jy::col<orders, "order_id">;
constexpr auto o_cust = jy::col<orders, "customer_id">;
constexpr auto c_cust = jy::col<customers, "customer_id">;
constexpr auto c_country = jy::col<customers, "country">;

jy::relation<orders> sample_orders() {
  return {{1, 10, 9.5}, {2, nullopt, 3.0}, {3, 11, 1.0}, {4, 10, 2.0}, {5, 99, 4.0}};
}
jy::relation<customers> sample_customers() { return {{10, "DE"}, {11, "FR"}, {10, "AT"}}; }

constexpr auto on = o_cust == c_cust;
constexpr auto id_country = jy::select(jy::as<"id">(o_id), jy::as<"country">(c_country));
constexpr auto ids = jy::select(jy::as<"id">(o_id));

struct fk : jy::table<"fk", jy::column<"k", double>, jy::column<"v", int>> {};
struct pk : jy::table<"pk", jy::column<"k", std::optional<double>>, jy::column<"w", int>> {};
struct narrow : jy::table<"narrow", jy::column<"cid", std::int32_t>, jy::column<"tag", char>> {};
struct lhs2 : jy::table<"lhs2", jy::column<"x", int>, jy::column<"y", std::string>, jy::column<"v", int>> {};
struct rhs2 : jy::table<"rhs2", jy::column<"x", std::int64_t>, jy::column<"y", std::string>, jy::column<"w", int>> {};
}  // namespace

TEST_CASE("joinery.plan.join.inner_exact_rows") {
  const auto o = sample_orders();
  const auto c = sample_customers();
  const auto r = jy::materialize(jy::from<orders> | jy::join_inner<customers>(on) | id_country, o, c);
  using row = std::tuple<std::int64_t, std::string>;
  CHECK(rows_of(r) == std::vector<row>{{1, "DE"}, {1, "AT"}, {3, "FR"}, {4, "DE"}, {4, "AT"}});
}

TEST_CASE("joinery.plan.join.left_exact_rows_unmatched_in_place") {
  const auto o = sample_orders();
  const auto c = sample_customers();
  const auto r = jy::materialize(jy::from<orders> | jy::join_left<customers>(on) | id_country, o, c);
  using row = std::tuple<std::int64_t, opt_s>;
  STATIC_REQUIRE(std::is_same_v<decltype(r)::row_type, row>);
  CHECK(rows_of(r) == std::vector<row>{{1, "DE"}, {1, "AT"}, {2, nullopt}, {3, "FR"}, {4, "DE"}, {4, "AT"}, {5, nullopt}});
}

TEST_CASE("joinery.plan.join.semi_and_anti_exact_rows") {
  const auto o = sample_orders();
  const auto c = sample_customers();
  using row = std::tuple<std::int64_t>;
  CHECK(rows_of(jy::materialize(jy::from<orders> | jy::join_semi<customers>(on) | ids, o, c)) ==
        std::vector<row>{{1}, {3}, {4}});
  CHECK(rows_of(jy::materialize(jy::from<orders> | jy::join_anti<customers>(on) | ids, o, c)) ==
        std::vector<row>{{2}, {5}});
}

TEST_CASE("joinery.plan.join.sources_in_any_order_and_3_eq_col") {
  const auto o = sample_orders();
  const auto c = sample_customers();
  const auto a = jy::materialize(jy::from<orders> | jy::join_inner<customers>(c_cust == o_cust) | id_country, c, o);
  const auto b = jy::materialize(jy::from<orders> | jy::join_inner<customers>(on) | id_country, o, c);
  CHECK(a == b);
  const auto lit = jy::materialize(jy::from<orders> | jy::where(3 == o_id) | ids, o);
  CHECK(rows_of(lit) == std::vector<std::tuple<std::int64_t>>{{3}});
}

TEST_CASE("joinery.plan.join.nan_and_negative_zero_keys_null_never_matches") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  jy::relation<fk> f{{nan, 1}, {-0.0, 2}, {1.5, 3}, {2.5, 4}};
  jy::relation<pk> p{{0.0, 10}, {nan, 20}, {nullopt, 30}, {1.5, 40}, {-0.0, 50}};
  constexpr auto k = jy::col<fk, "k"> == jy::col<pk, "k">;
  constexpr auto vw = jy::select(jy::as<"v">(jy::col<fk, "v">), jy::as<"w">(jy::col<pk, "w">));
  using row = std::tuple<int, int>;
  CHECK(rows_of(jy::materialize(jy::from<fk> | jy::join_inner<pk>(k) | vw, f, p)) ==
        std::vector<row>{{1, 20}, {2, 10}, {2, 50}, {3, 40}});
  using lrow = std::tuple<int, std::optional<int>>;
  CHECK(rows_of(jy::materialize(jy::from<fk> | jy::join_left<pk>(k) | vw, f, p)) ==
        std::vector<lrow>{{1, 20}, {2, 10}, {2, 50}, {3, 40}, {4, nullopt}});
  // The NULL-keyed right row matches nothing, not even a NULL on the left.
  CHECK(rows_of(jy::materialize(jy::from<pk> | jy::join_anti<fk>(k) | jy::select(jy::as<"w">(jy::col<pk, "w">)), f, p)) ==
        std::vector<std::tuple<int>>{{30}});
}

TEST_CASE("joinery.plan.join.empty_inputs_and_one_row") {
  const jy::relation<orders> none;
  const jy::relation<customers> no_c;
  const auto o = sample_orders();
  const auto c = sample_customers();
  CHECK(jy::materialize(jy::from<orders> | jy::join_inner<customers>(on) | id_country, none, c).empty());
  CHECK(jy::materialize(jy::from<orders> | jy::join_inner<customers>(on) | id_country, o, no_c).empty());
  CHECK(jy::materialize(jy::from<orders> | jy::join_left<customers>(on) | id_country, o, no_c).size() == 5);
  CHECK(jy::materialize(jy::from<orders> | jy::join_anti<customers>(on) | ids, o, no_c).size() == 5);
  CHECK(jy::materialize(jy::from<orders> | jy::join_semi<customers>(on) | ids, none, c).empty());
  const jy::relation<orders> one{{7, 11, 1.0}};
  const jy::relation<customers> one_c{{11, "FR"}};
  CHECK(rows_of(jy::materialize(jy::from<orders> | jy::join_inner<customers>(on) | id_country, one, one_c)) ==
        std::vector<std::tuple<std::int64_t, std::string>>{{7, "FR"}});
}

TEST_CASE("joinery.plan.join.all_duplicate_keys") {
  const jy::relation<orders> o{{1, 5, 0}, {2, 5, 0}, {3, 5, 0}};
  const jy::relation<customers> c{{5, "a"}, {5, "b"}, {5, "c"}};
  const auto r = jy::materialize(jy::from<orders> | jy::join_inner<customers>(on) | id_country, o, c);
  using row = std::tuple<std::int64_t, std::string>;
  CHECK(rows_of(r) == std::vector<row>{{1, "a"}, {1, "b"}, {1, "c"}, {2, "a"}, {2, "b"}, {2, "c"},
                                       {3, "a"}, {3, "b"}, {3, "c"}});
}

TEST_CASE("joinery.plan.join.composite_keys_and_mixed_widths") {
  const jy::relation<lhs2> l{{1, "a", 100}, {1, "b", 101}, {2, "a", 102}, {1, "a", 103}};
  const jy::relation<rhs2> r{{1, "a", 7}, {2, "b", 8}, {1, "b", 9}, {1, "a", 10}};
  const auto out = jy::materialize(
      jy::from<lhs2> |
          jy::join_inner<rhs2>(jy::col<lhs2, "x"> == jy::col<rhs2, "x"> && jy::col<rhs2, "y"> == jy::col<lhs2, "y">) |
          jy::select(jy::as<"v">(jy::col<lhs2, "v">), jy::as<"w">(jy::col<rhs2, "w">)),
      l, r);
  using row = std::tuple<int, int>;
  CHECK(rows_of(out) == std::vector<row>{{100, 7}, {100, 10}, {101, 9}, {103, 7}, {103, 10}});
  // int32 keys join int64 keys by value.
  const jy::relation<narrow> n{{10, 'x'}, {12, 'y'}, {11, 'z'}};
  const auto c = sample_customers();
  const auto nc = jy::materialize(jy::from<narrow> | jy::join_inner<customers>(jy::col<narrow, "cid"> == c_cust) |
                                      jy::select(jy::as<"tag">(jy::col<narrow, "tag">), jy::as<"country">(c_country)),
                                  n, c);
  CHECK(rows_of(nc) == std::vector<std::tuple<char, std::string>>{{'x', "DE"}, {'x', "AT"}, {'z', "FR"}});
}

TEST_CASE("joinery.plan.join.residual_and_single_side_conjuncts") {
  const auto o = sample_orders();
  const auto c = sample_customers();
  // Right-only conjunct: a right row that fails it is not a candidate.
  const auto a = jy::materialize(
      jy::from<orders> | jy::join_left<customers>(on && c_country != "DE") | id_country, o, c);
  using row = std::tuple<std::int64_t, opt_s>;
  CHECK(rows_of(a) == std::vector<row>{{1, "AT"}, {2, nullopt}, {3, "FR"}, {4, "AT"}, {5, nullopt}});
  // Left-only conjunct in a left join's ON: the row stays, unmatched.
  const auto b = jy::materialize(
      jy::from<orders> | jy::join_left<customers>(on && o_id != 1) | id_country, o, c);
  CHECK(rows_of(b) == std::vector<row>{{1, nullopt}, {2, nullopt}, {3, "FR"}, {4, "DE"}, {4, "AT"}, {5, nullopt}});
  // Residual over both sides: part of ON; no accepted candidate means unmatched.
  const auto d = jy::materialize(
      jy::from<orders> |
          jy::join_left<customers>(on && jy::call([](std::int64_t id, const std::string& s) { return id % 2 == 1 || s == "AT"; },
                                                  o_id, c_country)) |
          id_country,
      o, c);
  CHECK(rows_of(d) == std::vector<row>{{1, "DE"}, {1, "AT"}, {2, nullopt}, {3, "FR"}, {4, "AT"}, {5, nullopt}});
}

TEST_CASE("joinery.plan.join.no_equality_key_is_the_nested_loop") {
  const jy::relation<orders> o{{1, 10, 9.5}, {2, 11, 3.0}, {3, 12, 1.0}};
  const jy::relation<customers> c{{2, "x"}, {1, "y"}, {3, "z"}};
  const auto r = jy::materialize(jy::from<orders> | jy::join_inner<customers>(o_id < c_cust) | id_country, o, c);
  using row = std::tuple<std::int64_t, std::string>;
  CHECK(rows_of(r) == std::vector<row>{{1, "x"}, {1, "z"}, {2, "z"}});
  const auto l = jy::materialize(jy::from<orders> | jy::join_left<customers>(o_id < c_cust) | id_country, o, c);
  CHECK(l.size() == 4);
  CHECK(std::get<1>(l.row(3)) == nullopt);
  CHECK(rows_of(jy::materialize(jy::from<orders> | jy::join_anti<customers>(o_id < c_cust) | ids, o, c)) ==
        std::vector<std::tuple<std::int64_t>>{{3}});
}

TEST_CASE("joinery.plan.join.self_join_by_alias") {
  using prev = jy::alias<orders, "prev">;
  const jy::relation<orders> o{{1, 10, 1.0}, {2, 11, 2.0}, {3, 10, 3.0}, {4, 10, 4.0}};
  // Each order with the earlier orders of the same customer: one relation binds both sides.
  const auto r = jy::materialize(
      jy::from<orders> |
          jy::join_inner<prev>(o_cust == jy::col<prev, "customer_id"> && jy::col<prev, "order_id"> < o_id) |
          jy::select(jy::as<"id">(o_id), jy::as<"prev_id">(jy::col<prev, "order_id">)),
      o);
  using row = std::tuple<std::int64_t, std::int64_t>;
  CHECK(rows_of(r) == std::vector<row>{{3, 1}, {4, 1}, {4, 3}});
}

TEST_CASE("joinery.plan.join.chained_joins_and_null_extension_propagates") {
  using c2 = jy::alias<customers, "c2">;
  const auto o = sample_orders();
  const auto c = sample_customers();
  // The second join reads the first's right side: a NULL there matches nothing.
  const auto r = jy::materialize(
      jy::from<orders> | jy::join_left<customers>(on && c_country == "FR") |
          jy::join_left<c2>(c_cust == jy::col<c2, "customer_id">) |
          jy::select(jy::as<"id">(o_id), jy::as<"c2">(jy::col<c2, "country">)),
      o, c);
  using row = std::tuple<std::int64_t, opt_s>;
  CHECK(rows_of(r) == std::vector<row>{{1, nullopt}, {2, nullopt}, {3, "FR"}, {4, nullopt}, {5, nullopt}});
}

TEST_CASE("joinery.plan.join.values_of_a_large_joined_table_exact_rows") {
  // A joined table whose columns reach `exec::prefetch_min_column_bytes`
  // (200,000 int64 values; strings too), so the projection gathers them a
  // stretch of rows ahead: every row's values are its own, in order,
  // unmatched rows included, eagerly, on threads and streamed.
  struct big_fact : jy::table<"big_fact", jy::column<"id", std::int64_t>, jy::column<"k", std::optional<std::int64_t>>> {};
  struct big_dim : jy::table<"big_dim", jy::column<"k", std::int64_t>, jy::column<"v", std::int64_t>,
                             jy::column<"s", std::string>> {};
  REQUIRE(200'000 * sizeof(std::int64_t) >= jy::exec::prefetch_min_column_bytes);
  auto name = [](std::int64_t j) {
    std::string s = "s";
    s += std::to_string(j % 1000);
    return s;
  };
  std::vector<std::int64_t> dk, dv, fid;
  std::vector<std::string> ds;
  std::vector<std::optional<std::int64_t>> fk;
  for (std::int64_t j = 0; j < 200'000; ++j) {
    dk.push_back(j * 7);
    dv.push_back(j * 3 + 1);
    ds.push_back(name(j));
  }
  for (std::int64_t i = 0; i < 300'000; ++i) {
    // Keys of rows 0..249,999 of a dim of 200,000: one in five misses; every 11th row NULL.
    const std::int64_t j = (i * 13) % 250'000;
    fid.push_back(i);
    fk.push_back(i % 11 == 5 ? std::optional<std::int64_t>{} : std::optional<std::int64_t>{j * 7});
  }
  jy::relation<big_dim> d;
  d.assign_columns(dk, dv, ds);
  jy::relation<big_fact> f;
  f.assign_columns(fid, fk);
  constexpr auto on = jy::col<big_fact, "k"> == jy::col<big_dim, "k">;
  constexpr auto items = jy::select(jy::as<"id">(jy::col<big_fact, "id">), jy::as<"v">(jy::col<big_dim, "v">),
                                    jy::as<"s">(jy::col<big_dim, "s">));
  using inner_row = std::tuple<std::int64_t, std::int64_t, std::string>;
  using left_row = std::tuple<std::int64_t, std::optional<std::int64_t>, std::optional<std::string>>;
  std::vector<inner_row> inner;
  std::vector<left_row> left;
  for (std::int64_t i = 0; i < 300'000; ++i) {
    const std::int64_t j = (i * 13) % 250'000;
    if (i % 11 != 5 && j < 200'000) {
      inner.emplace_back(i, j * 3 + 1, name(j));
      left.emplace_back(i, j * 3 + 1, name(j));
    } else {
      left.emplace_back(i, std::nullopt, std::nullopt);
    }
  }
  REQUIRE(inner.size() > 200'000);
  constexpr auto inner_plan = jy::from<big_fact> | jy::join_inner<big_dim>(on) | items;
  constexpr auto left_plan = jy::from<big_fact> | jy::join_left<big_dim>(on) | items;
  CHECK(rows_of(jy::materialize(inner_plan, f, d)) == inner);
  CHECK(rows_of(jy::materialize(left_plan, f, d)) == left);
  CHECK(rows_of(jy::materialize(inner_plan, jy::threads(2), f, d)) == inner);
  CHECK(rows_of(jy::materialize(left_plan, jy::threads(2), f, d)) == left);
  std::vector<left_row> streamed;
  for (auto row : jy::run(left_plan, f, d))
    streamed.emplace_back(jy::get<"id">(row), jy::get<"v">(row), jy::get<"s">(row));
  CHECK(streamed == left);
}
