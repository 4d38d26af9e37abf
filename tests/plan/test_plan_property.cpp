// Property tests: every join kind equals the naive nested loop, row for row
// and in order, on random relations with NULLs, duplicates, NaN and -0.0;
// the STYLE.md laws; and the work is linear (counted, not timed).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

#include <joinery/plan/relational.hpp>
#include "plan_test_util.hpp"

namespace jy = joinery;

namespace {
struct L : jy::table<"L", jy::column<"id", std::int64_t>, jy::column<"k", std::optional<std::int64_t>>,
                     jy::column<"d", double>> {};
struct R : jy::table<"R", jy::column<"rid", std::int64_t>, jy::column<"k", std::int32_t>,
                     jy::column<"d", std::optional<double>>> {};

constexpr auto l_id = jy::col<L, "id">;
constexpr auto l_k = jy::col<L, "k">;
constexpr auto l_d = jy::col<L, "d">;
constexpr auto r_id = jy::col<R, "rid">;
constexpr auto r_k = jy::col<R, "k">;
constexpr auto r_d = jy::col<R, "d">;

double random_double(std::mt19937_64& g) {
  static const double pool[] = {0.0, -0.0, 1.5, -2.0, std::numeric_limits<double>::quiet_NaN(), 3.25};
  return pool[g() % 6];
}

struct sample {
  jy::relation<L> l;
  jy::relation<R> r;
};

sample random_sample(std::uint64_t seed) {
  std::mt19937_64 g(seed);
  sample d;
  const std::size_t nl = g() % 13;
  const std::size_t nr = g() % 13;
  const std::int64_t key_range = 1 + static_cast<std::int64_t>(g() % 6);
  for (std::size_t i = 0; i < nl; ++i) {
    std::optional<std::int64_t> k;
    if (g() % 5 != 0) k = static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(key_range));
    d.l.insert({static_cast<std::int64_t>(i), k, random_double(g)});
  }
  // Half the samples have distinct right keys (the at-most-one-match probe
  // of a many-to-one join), drawn from a range wider than the left's so that
  // some left keys miss.
  const bool distinct = g() % 2 == 0;
  std::vector<std::int32_t> pool(nr + static_cast<std::size_t>(key_range));
  for (std::size_t v = 0; v < pool.size(); ++v) pool[v] = static_cast<std::int32_t>(v);
  std::shuffle(pool.begin(), pool.end(), g);
  for (std::size_t j = 0; j < nr; ++j) {
    std::optional<double> dd;
    if (g() % 4 != 0) dd = random_double(g);
    const auto k = distinct ? pool[j] : static_cast<std::int32_t>(g() % static_cast<std::uint64_t>(key_range));
    d.r.insert({static_cast<std::int64_t>(100 + j), k, dd});
  }
  return d;
}

bool same_double(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

/// The four condition shapes, written out by hand for the reference.
bool naive_cond(int shape, const jy::relation<L>& l, std::size_t i, const jy::relation<R>& r, std::size_t j) {
  const auto lk = l.column<"k">()[i];
  const bool keys = lk.has_value() && *lk == r.column<"k">()[j];
  switch (shape) {
    case 0: return keys;
    case 1: {
      const auto rd = r.column<"d">()[j];
      return keys && rd.has_value() && same_double(l.column<"d">()[i], *rd);
    }
    case 2: return keys && l.column<"id">()[i] + 100 < r.column<"rid">()[j];
    default: return l.column<"id">()[i] + 100 < r.column<"rid">()[j];  // no key: the nested loop
  }
}

using pair_row = std::tuple<std::int64_t, std::int64_t>;
using left_row = std::tuple<std::int64_t, std::optional<std::int64_t>>;
using id_row = std::tuple<std::int64_t>;

struct reference {
  std::vector<pair_row> inner;
  std::vector<left_row> left;
  std::vector<id_row> semi, anti;
};

reference naive(int shape, const sample& d) {
  reference ref;
  for (std::size_t i = 0; i < d.l.size(); ++i) {
    const std::int64_t id = d.l.column<"id">()[i];
    bool any = false;
    for (std::size_t j = 0; j < d.r.size(); ++j) {
      if (!naive_cond(shape, d.l, i, d.r, j)) continue;
      any = true;
      ref.inner.emplace_back(id, d.r.column<"rid">()[j]);
      ref.left.emplace_back(id, d.r.column<"rid">()[j]);
    }
    if (!any) ref.left.emplace_back(id, std::nullopt);
    (any ? ref.semi : ref.anti).emplace_back(id);
  }
  return ref;
}

template <class Cond>
void check_all_kinds(const Cond& cond, const sample& d, const reference& ref) {
  constexpr auto pair = jy::select(jy::as<"id">(l_id), jy::as<"rid">(r_id));
  constexpr auto ids = jy::select(jy::as<"id">(l_id));
  const auto inner = jy::materialize(jy::from<L> | jy::join_inner<R>(cond) | pair, d.l, d.r);
  const auto left = jy::materialize(jy::from<L> | jy::join_left<R>(cond) | pair, d.l, d.r);
  const auto semi = jy::materialize(jy::from<L> | jy::join_semi<R>(cond) | ids, d.l, d.r);
  const auto anti = jy::materialize(jy::from<L> | jy::join_anti<R>(cond) | ids, d.l, d.r);
  REQUIRE(rows_of(inner) == ref.inner);
  REQUIRE(rows_of(left) == ref.left);
  REQUIRE(rows_of(semi) == ref.semi);
  REQUIRE(rows_of(anti) == ref.anti);
  // The same rows read through `run` (streamed chunk by chunk when the plan allows it).
  auto streamed_pairs = [&](const auto& plan) {
    std::vector<std::tuple<std::int64_t, std::optional<std::int64_t>>> out;
    for (auto row : jy::run(plan, d.l, d.r)) out.emplace_back(jy::get<"id">(row), jy::get<"rid">(row));
    return out;
  };
  auto streamed_ids = [&](const auto& plan) {
    std::vector<id_row> out;
    for (auto row : jy::run(plan, d.l, d.r)) out.emplace_back(jy::get<"id">(row));
    return out;
  };
  std::vector<std::tuple<std::int64_t, std::optional<std::int64_t>>> inner_as_left;
  for (const auto& [id, rid] : ref.inner) inner_as_left.emplace_back(id, rid);
  REQUIRE(streamed_pairs(jy::from<L> | jy::join_inner<R>(cond) | pair) == inner_as_left);
  REQUIRE(streamed_pairs(jy::from<L> | jy::join_left<R>(cond) | pair) == ref.left);
  REQUIRE(streamed_ids(jy::from<L> | jy::join_semi<R>(cond) | ids) == ref.semi);
  REQUIRE(streamed_ids(jy::from<L> | jy::join_anti<R>(cond) | ids) == ref.anti);
  // Laws: inner = left minus its unmatched rows; semi and anti partition the
  // left input, each in input order.
  std::vector<pair_row> matched;
  for (const auto& [id, rid] : rows_of(left))
    if (rid) matched.emplace_back(id, *rid);
  REQUIRE(matched == rows_of(inner));
  std::vector<id_row> merged;
  const auto s = rows_of(semi);
  const auto a = rows_of(anti);
  std::size_t si = 0, ai = 0;
  while (si < s.size() || ai < a.size()) {
    if (ai == a.size() || (si < s.size() && s[si] < a[ai])) merged.push_back(s[si++]);
    else merged.push_back(a[ai++]);
  }
  std::vector<id_row> all;
  for (std::size_t i = 0; i < d.l.size(); ++i) all.emplace_back(static_cast<std::int64_t>(i));
  REQUIRE(merged == all);
}
}  // namespace

TEST_CASE("joinery.plan.property.every_join_kind_equals_the_nested_loop") {
  // 1,200 random cases, each checked for all four join kinds.
  for (std::uint64_t seed = 1; seed <= 1200; ++seed) {
    const sample d = random_sample(seed);
    const int shape = static_cast<int>(seed % 4);
    const reference ref = naive(shape, d);
    if (shape == 0) check_all_kinds(l_k == r_k, d, ref);
    else if (shape == 1) check_all_kinds(r_k == l_k && l_d == r_d, d, ref);
    else if (shape == 2) check_all_kinds(l_k == r_k && l_id + 100 < r_id, d, ref);
    else check_all_kinds(l_id + 100 < r_id, d, ref);
  }
}

TEST_CASE("joinery.plan.property.where_p_where_q_is_where_p_and_q") {
  constexpr auto p = l_d > 0.0;
  constexpr auto q = l_k != 2;
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    const sample d = random_sample(seed);
    const auto a = jy::materialize(jy::from<L> | jy::where(p) | jy::where(q), d.l);
    const auto b = jy::materialize(jy::from<L> | jy::where(p && q), d.l);
    REQUIRE(rows_of(a) == rows_of(b));
  }
}

TEST_CASE("joinery.plan.property.group_by_matches_a_naive_grouping") {
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    const sample d = random_sample(seed);
    const auto g = jy::materialize(jy::from<L> | jy::group_by(l_k) |
                                       jy::aggregate(jy::as<"n">(jy::count()), jy::as<"s">(jy::sum(l_id))),
                                   d.l);
    // Naive: groups in first-appearance order, NULL one group.
    std::vector<std::tuple<std::optional<std::int64_t>, std::int64_t, std::int64_t>> ref;
    for (std::size_t i = 0; i < d.l.size(); ++i) {
      const auto k = d.l.column<"k">()[i];
      auto it = std::find_if(ref.begin(), ref.end(), [&](const auto& t) { return std::get<0>(t) == k; });
      if (it == ref.end()) ref.emplace_back(k, 1, static_cast<std::int64_t>(i));
      else std::get<1>(*it) += 1, std::get<2>(*it) += static_cast<std::int64_t>(i);
    }
    REQUIRE(rows_of(g) == ref);
  }
}

TEST_CASE("joinery.plan.property.work_is_linear_in_inputs_and_matches") {
  // n probe rows, m build rows with heavy duplication: the kernel does one
  // insert per keyed build row, one probe per probe row, and hands out each
  // match once; comparisons stay within a small constant of |L| + |R|.
  for (const std::size_t scale : {1000u, 4000u, 16000u}) {
    jy::relation<L> l;
    jy::relation<R> r;
    for (std::size_t i = 0; i < scale; ++i)
      l.insert({static_cast<std::int64_t>(i), static_cast<std::int64_t>(i % 997), 0.0});
    for (std::size_t j = 0; j < scale / 4; ++j)
      r.insert({static_cast<std::int64_t>(j), static_cast<std::int32_t>((j * 7) % 1999), std::nullopt});
    jy::plan_stats st;
    const auto out = jy::materialize_counted(st, jy::from<L> | jy::join_inner<R>(l_k == r_k), l, r);
    CHECK(st.nested_pairs == 0);
    CHECK(st.work.inserts == r.size());
    CHECK(st.work.probes == l.size());
    CHECK(st.work.emitted == out.size());
    CHECK(st.work.comparisons <= 4 * (l.size() + r.size()));
  }
}
