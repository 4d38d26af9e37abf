// `run` and `materialize` with `jy::threads(n)`: the first table cut into
// contiguous parts, one per thread, concatenated in part order. Every result
// equals the one-thread result row for row, in order.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

#include <joinery/plan/relational.hpp>
#include "plan_test_util.hpp"

namespace {
struct fact : jy::table<"fact", jy::column<"id", std::int64_t>, jy::column<"k", std::optional<std::int64_t>>,
                        jy::column<"c", std::int64_t>> {};
struct dim : jy::table<"dim", jy::column<"k", std::int64_t>, jy::column<"v", std::int64_t>> {};
struct cat : jy::table<"cat", jy::column<"c", std::int64_t>, jy::column<"name", std::int64_t>> {};

constexpr auto f_id = jy::col<fact, "id">;
constexpr auto f_k = jy::col<fact, "k">;
constexpr auto f_c = jy::col<fact, "c">;
constexpr auto d_k = jy::col<dim, "k">;
constexpr auto d_v = jy::col<dim, "v">;
constexpr auto c_c = jy::col<cat, "c">;
constexpr auto c_name = jy::col<cat, "name">;

struct data {
  jy::relation<fact> f;
  jy::relation<dim> d;
  jy::relation<cat> c;
};

/// `n` fact rows (NULL keys, misses), a dim with some duplicate keys, a cat per c.
data make(std::size_t n, std::uint64_t seed, bool unique_dim) {
  std::mt19937_64 g(seed);
  data x;
  for (std::size_t i = 0; i < n; ++i) {
    std::optional<std::int64_t> k;
    if (g() % 9 != 0) k = static_cast<std::int64_t>(g() % 400);
    x.f.insert({static_cast<std::int64_t>(i), k, static_cast<std::int64_t>(g() % 50)});
  }
  for (std::int64_t k = 0; k < 300; ++k) {
    x.d.insert({k, 10 * k});
    if (!unique_dim && k % 7 == 0) x.d.insert({k, -k});
  }
  for (std::int64_t c = 0; c < 40; ++c) x.c.insert({c, 100 + c});
  return x;
}

const jy::threads two_small{2, 64};  // two parts even for small inputs
}  // namespace

TEST_CASE("joinery.plan.threads.every_join_kind_equals_one_thread") {
  constexpr auto pair = jy::select(jy::as<"id">(f_id), jy::as<"v">(d_v));
  constexpr auto ids = jy::select(jy::as<"id">(f_id));
  constexpr auto inner = jy::from<fact> | jy::join_inner<dim>(f_k == d_k) | pair;
  constexpr auto left = jy::from<fact> | jy::join_left<dim>(f_k == d_k) | pair;
  constexpr auto semi = jy::from<fact> | jy::join_semi<dim>(f_k == d_k) | ids;
  constexpr auto anti = jy::from<fact> | jy::join_anti<dim>(f_k == d_k) | ids;
  constexpr auto chain = jy::from<fact> | jy::join_left<dim>(f_k == d_k) | jy::where(f_c < 45) |
                         jy::join_inner<cat>(f_c == c_c) |
                         jy::select(jy::as<"id">(f_id), jy::as<"v">(d_v), jy::as<"name">(c_name));
  for (const bool unique_dim : {true, false}) {
    for (const std::size_t n : {0u, 1u, 63u, 1000u, 5000u}) {
      const data x = make(n, n + unique_dim, unique_dim);
      for (const jy::threads t : {jy::threads(2, 64), jy::threads(3, 16), jy::threads(2)}) {
        REQUIRE(rows_of(jy::materialize(inner, t, x.f, x.d)) == rows_of(jy::materialize(inner, x.f, x.d)));
        REQUIRE(rows_of(jy::materialize(left, t, x.f, x.d)) == rows_of(jy::materialize(left, x.f, x.d)));
        REQUIRE(rows_of(jy::materialize(semi, t, x.f, x.d)) == rows_of(jy::materialize(semi, x.f, x.d)));
        REQUIRE(rows_of(jy::materialize(anti, t, x.f, x.d)) == rows_of(jy::materialize(anti, x.f, x.d)));
        REQUIRE(rows_of(jy::materialize(chain, t, x.f, x.d, x.c)) == rows_of(jy::materialize(chain, x.f, x.d, x.c)));
      }
    }
  }
}

TEST_CASE("joinery.plan.threads.run_reads_the_same_rows") {
  const data x = make(3000, 7, false);
  constexpr auto p = jy::from<fact> | jy::join_left<dim>(f_k == d_k) | jy::select(jy::as<"id">(f_id), jy::as<"v">(d_v));
  const auto one = rows_of(jy::materialize(p, x.f, x.d));
  const auto view = jy::run(p, two_small, x.f, x.d);
  std::vector<std::tuple<std::int64_t, std::optional<std::int64_t>>> got;
  for (auto row : view) got.emplace_back(jy::get<"id">(row), jy::get<"v">(row));
  CHECK(got == one);
  REQUIRE(view.size() == one.size());
  CHECK(jy::get<"id">(view[one.size() - 1]) == std::get<0>(one.back()));
  CHECK(view.end() - view.begin() == static_cast<std::ptrdiff_t>(one.size()));
  CHECK(rows_of(view.to_relation()) == one);
}

TEST_CASE("joinery.plan.threads.plans_that_do_not_pipeline_run_on_one_thread") {
  const data x = make(2000, 3, true);
  constexpr auto grouped = jy::from<fact> | jy::group_by(f_c) | jy::aggregate(jy::as<"n">(jy::count()));
  constexpr auto even = [](std::int64_t v) { return v % 2 == 0; };
  constexpr auto calls = jy::from<fact> | jy::join_left<dim>(f_k == d_k && jy::call(even, d_v)) |
                         jy::select(jy::as<"id">(f_id), jy::as<"v">(d_v));
  constexpr auto nested = jy::from<fact> | jy::join_semi<cat>(f_c + 60 < c_name) | jy::select(jy::as<"id">(f_id));
  CHECK(rows_of(jy::materialize(grouped, two_small, x.f)) == rows_of(jy::materialize(grouped, x.f)));
  CHECK(rows_of(jy::materialize(calls, two_small, x.f, x.d)) == rows_of(jy::materialize(calls, x.f, x.d)));
  CHECK(rows_of(jy::materialize(nested, two_small, x.f, x.c)) == rows_of(jy::materialize(nested, x.f, x.c)));
  CHECK(jy::run(grouped, two_small, x.f).size() == jy::materialize(grouped, x.f).size());
}

TEST_CASE("joinery.plan.threads.a_cardinality_error_is_thrown_before_any_thread_starts") {
  data x = make(500, 1, false);  // dim has duplicate keys
  constexpr auto p = jy::from<fact> | jy::join_inner<dim>(f_k == d_k, jy::expect::many_to_one) |
                     jy::select(jy::as<"id">(f_id));
  CHECK_THROWS_AS(jy::materialize(p, two_small, x.f, x.d), jy::cardinality_error);
  CHECK_THROWS_AS(jy::run(p, two_small, x.f, x.d), jy::cardinality_error);
}

namespace {
struct sale : jy::table<"sale", jy::column<"k", std::optional<std::int64_t>>, jy::column<"region", std::int64_t>,
                        jy::column<"amount", double>, jy::column<"bonus", std::optional<double>>> {};
constexpr auto s_k = jy::col<sale, "k">;
constexpr auto s_region = jy::col<sale, "region">;
constexpr auto s_amount = jy::col<sale, "amount">;
constexpr auto s_bonus = jy::col<sale, "bonus">;
constexpr auto by_k = jy::from<sale> | jy::group_by(s_k) |
                      jy::aggregate(jy::as<"n">(jy::count()), jy::as<"total">(jy::sum(s_amount)),
                                    jy::as<"low">(jy::min(s_amount)), jy::as<"high">(jy::max(s_bonus)));
}  // namespace

TEST_CASE("joinery.plan.threads.group_by_on_threads_exact_rows") {
  jy::relation<sale> s;
  const std::optional<std::int64_t> null;
  s.insert({7, 1, 1.5, 2.0});
  s.insert({null, 2, 4.0, null});
  s.insert({3, 1, 2.0, null});
  s.insert({7, 2, -1.0, 5.0});
  s.insert({9, 1, 0.25, null});
  s.insert({3, 2, 8.0, 1.0});
  s.insert({null, 1, 1.0, 3.0});
  s.insert({7, 1, 10.0, null});
  using row = std::tuple<std::optional<std::int64_t>, std::int64_t, double, double, std::optional<double>>;
  // Groups in order of first appearance (7, NULL, 3, 9); max of bonus skips NULLs.
  const std::vector<row> expected{{7, 3, 10.5, -1.0, 5.0},
                                  {null, 2, 5.0, 1.0, 3.0},
                                  {3, 2, 10.0, 2.0, 1.0},
                                  {9, 1, 0.25, 0.25, std::nullopt}};
  for (const jy::threads t : {jy::threads(1), jy::threads(2, 1), jy::threads(3, 1), jy::threads(8, 1)}) {
    INFO("threads " << t.count);
    CHECK(rows_of(jy::materialize(by_k, t, s)) == expected);
    const auto view = jy::run(by_k, t, s);
    REQUIRE(view.size() == expected.size());
    CHECK(jy::get<"total">(view[0]) == 10.5);
    CHECK(jy::get<"high">(view[3]) == std::nullopt);
  }
}

TEST_CASE("joinery.plan.threads.group_by_on_threads_equals_one_thread_bit_for_bit") {
  // Sums whose value depends on the order of the additions: each group must
  // fold its rows in row order on whichever thread has it.
  std::mt19937_64 g(5);
  for (const std::size_t n : {0u, 1u, 300u, 5000u, 40000u}) {
    jy::relation<sale> s;
    for (std::size_t i = 0; i < n; ++i) {
      std::optional<std::int64_t> k;
      if (g() % 11 != 0) k = static_cast<std::int64_t>(g() % (n / 4 + 1)) * 1000003;
      const double big = (g() % 2 ? 1e16 : -1e16) * static_cast<double>(g() % 3);
      std::optional<double> bonus;
      if (g() % 3 != 0) bonus = static_cast<double>(g() % 1000) / 7.0;
      s.insert({k, static_cast<std::int64_t>(g() % 5), big + static_cast<double>(g() % 100) / 3.0, bonus});
    }
    constexpr auto by_k_region = jy::from<sale> | jy::group_by(s_k, s_region) |
                                 jy::aggregate(jy::as<"total">(jy::sum(s_amount)), jy::as<"b">(jy::sum(s_bonus)),
                                               jy::as<"n">(jy::count()));
    const auto one = rows_of(jy::materialize(by_k, s));
    const auto one_kr = rows_of(jy::materialize(by_k_region, s));
    for (const jy::threads t : {jy::threads(2, 1), jy::threads(3, 16), jy::threads(2)}) {
      INFO("n=" << n << " threads=" << t.count);
      CHECK(rows_of(jy::materialize(by_k, t, s)) == one);
      CHECK(rows_of(jy::materialize(by_k_region, t, s)) == one_kr);
    }
  }
}

TEST_CASE("joinery.plan.threads.group_by_after_a_join_and_with_a_user_function") {
  const data x = make(6000, 17, false);
  constexpr auto joined = jy::from<fact> | jy::join_inner<dim>(f_k == d_k) | jy::group_by(d_v) |
                          jy::aggregate(jy::as<"n">(jy::count()), jy::as<"ids">(jy::sum(f_id)));
  constexpr auto twice = [](std::int64_t v) { return 2 * v; };
  constexpr auto called = jy::from<fact> | jy::group_by(f_c) |
                          jy::aggregate(jy::as<"n">(jy::count()), jy::as<"t">(jy::sum(jy::call(twice, f_id))));
  CHECK(rows_of(jy::materialize(joined, two_small, x.f, x.d)) == rows_of(jy::materialize(joined, x.f, x.d)));
  CHECK(rows_of(jy::materialize(called, two_small, x.f)) == rows_of(jy::materialize(called, x.f)));
}
