#pragma once
// The differential harness: a plan shape (a type) runs in joinery and, as
// jy::to_sql(plan, jy::dialect::sqlite), in SQLite, on random tables with
// NULLs, duplicates, NaN, -0.0, empty tables and composite keys; the two must
// agree exactly: same rows, same order, same NULLs, same groups.
//
// Each TEST_CASE is one plan shape; its literals are runtime parameters drawn
// per case. Cases per shape: JOINERY_DIFF_CASES (default 60); the seed of case
// c of shape s is fnv1a(s) + c, so a failure names a reproducible case.
//
// Where the engines differ on purpose the harness says so:
// * NaN is stored in SQLite as the text 'NaN' (sqlite_support.hpp): joinery's
//   NaN == NaN then holds in SQLite too, for keys, filters and groups.
// * Ordering comparisons (<, <=, >, >=), arithmetic and sum/min/max read only
//   NaN-free columns: an order involving NaN is IEEE in joinery (NaN < x and
//   x < NaN both false) and has no portable SQL spelling (docs/sql.md).
// * Doubles are multiples of 0.5, so sums are exact in any order.
// * Annotated joins: SQLite runs jy::cardinality_sql's count queries; joinery
//   must throw jy::cardinality_error exactly when one is non-zero, with the
//   first non-zero count in its duplicate_groups() and message.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <joinery/plan/cardinality.hpp>
#include <joinery/plan/relational.hpp>
#include <joinery/schema/alias.hpp>
#include <joinery/sql/sql.hpp>

#include "sqlite_support.hpp"

namespace jy = joinery;

namespace diff {

struct ta : jy::table<"ta", jy::column<"id", std::int64_t>, jy::column<"k", std::optional<std::int64_t>>,
                      jy::column<"k2", std::string>, jy::column<"x", double>,
                      jy::column<"v", std::optional<std::int64_t>>, jy::column<"s", std::optional<std::string>>> {};
struct tb : jy::table<"tb", jy::column<"id", std::int64_t>, jy::column<"k", std::int64_t>,
                      jy::column<"k2", std::optional<std::string>>, jy::column<"x", std::optional<double>>,
                      jy::column<"w", std::int64_t>> {};
struct tc : jy::table<"tc", jy::column<"k", std::optional<std::int64_t>>, jy::column<"w", std::int64_t>,
                      jy::column<"y", double>> {};
using ta2 = jy::alias<ta, "ta2">;
using tb2 = jy::alias<tb, "tb2">;

inline constexpr auto a_id = jy::col<ta, "id">;
inline constexpr auto a_k = jy::col<ta, "k">;
inline constexpr auto a_k2 = jy::col<ta, "k2">;
inline constexpr auto a_x = jy::col<ta, "x">;
inline constexpr auto a_v = jy::col<ta, "v">;
inline constexpr auto a_s = jy::col<ta, "s">;
inline constexpr auto b_id = jy::col<tb, "id">;
inline constexpr auto b_k = jy::col<tb, "k">;
inline constexpr auto b_k2 = jy::col<tb, "k2">;
inline constexpr auto b_x = jy::col<tb, "x">;
inline constexpr auto b_w = jy::col<tb, "w">;
inline constexpr auto c_k = jy::col<tc, "k">;
inline constexpr auto c_w = jy::col<tc, "w">;
inline constexpr auto c_y = jy::col<tc, "y">;

struct dataset {
  jy::relation<ta> a;
  jy::relation<tb> b;
  jy::relation<tc> c;
};

inline std::size_t random_size(std::mt19937_64& g) {
  const auto r = g() % 10;
  if (r == 0) return 0;                              // empty inputs
  if (r < 8) return 1 + g() % 8;
  return 9 + g() % 12;
}

/// Values with NaN and -0.0 (keys and equality only).
inline double key_double(std::mt19937_64& g) {
  static constexpr double pool[] = {-1.5, -0.0, 0.0, 0.5, 1.0, 2.5, std::numeric_limits<double>::quiet_NaN()};
  return pool[g() % 7];
}
inline std::string key_text(std::mt19937_64& g, std::uint64_t domain) {
  static const char* const pool[] = {"a", "b", "A", "ab", ""};
  return pool[g() % domain];
}

inline dataset random_dataset(std::mt19937_64& g) {
  dataset d;
  const std::uint64_t dom = 1 + g() % 5;  // 1: every key equal (maximal fan-out)
  auto maybe = [&](unsigned pct) { return g() % 100 >= pct; };
  const std::size_t na = random_size(g), nb = random_size(g), nc = random_size(g);
  for (std::size_t i = 0; i < na; ++i) {
    std::optional<std::int64_t> k, v;
    std::optional<std::string> s;
    if (maybe(15)) k = static_cast<std::int64_t>(g() % dom);
    if (maybe(15)) v = static_cast<std::int64_t>(g() % 10) - 3;
    if (maybe(20)) s = std::string(g() % 2 ? "x" : "Xy");
    d.a.insert({static_cast<std::int64_t>(g() % (na + 2)), k, key_text(g, dom), key_double(g), v, s});
  }
  for (std::size_t j = 0; j < nb; ++j) {
    std::optional<std::string> k2;
    std::optional<double> x;
    if (maybe(15)) k2 = key_text(g, dom);
    if (maybe(20)) x = key_double(g);
    d.b.insert({static_cast<std::int64_t>(100 + j), static_cast<std::int64_t>(g() % dom), k2, x,
                static_cast<std::int64_t>(g() % 10)});
  }
  for (std::size_t j = 0; j < nc; ++j) {
    std::optional<std::int64_t> k;
    if (maybe(15)) k = static_cast<std::int64_t>(g() % dom);
    static constexpr double ys[] = {-1.0, 0.5, 2.0, 3.5, 0.0};
    d.c.insert({k, static_cast<std::int64_t>(g() % 10), ys[g() % 5]});
  }
  return d;
}

/// Literal values of a case (runtime parameters of the plan shape).
struct literals {
  std::mt19937_64& g;
  std::int64_t i() { return static_cast<std::int64_t>(g() % 10) - 3; }
  double x() { return key_double(g); }
  std::string_view s() {
    static constexpr std::string_view pool[] = {"a", "b", "A", "x", ""};
    return pool[g() % 5];
  }
};

inline std::size_t cases_per_shape() {
  if (const char* e = std::getenv("JOINERY_DIFF_CASES")) return static_cast<std::size_t>(std::strtoull(e, nullptr, 10));
  return 60;
}

inline std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h;
}

inline std::string show_data(const dataset& d) {
  return "ta:\n" + sqltest::show(sqltest::rows_of(d.a)) + "tb:\n" + sqltest::show(sqltest::rows_of(d.b)) +
         "tc:\n" + sqltest::show(sqltest::rows_of(d.c));
}

/// What a shape's run found.
struct shape_stats {
  std::size_t cases = 0;
  std::size_t mismatches = 0;
  std::size_t nonempty = 0;       // cases whose result had rows
  std::size_t rows = 0;           // rows compared
  std::string first_mismatch;     // the first disagreement, reproducibly described
  std::size_t verdict_pass = 0;   // annotated plans: cases whose expectations held
  std::size_t verdict_fail = 0;   // ... and cases that threw cardinality_error
};

/// Runs shape `make` (literals -> plan) on `cases_per_shape()` random
/// datasets; `edit` may change the SQL (the harness's own sanity test).
template <class Make, class Edit>
shape_stats run_shape(std::string_view shape, Make make, Edit edit) {
  sqltest::database db;
  db.create<ta>();
  db.create<tb>();
  db.create<tc>();
  shape_stats st;
  st.cases = cases_per_shape();
  for (std::size_t c = 0; c < st.cases; ++c) {
    const std::uint64_t seed = fnv1a(shape) + c;
    std::mt19937_64 g(seed);
    const dataset d = random_dataset(g);
    literals lit{g};
    const auto p = make(lit);
    db.load(d.a);
    db.load(d.b);
    db.load(d.c);
    const std::string sql = edit(jy::to_sql(p, jy::dialect::sqlite));
    std::string problem;
    // Annotated joins: SQLite's duplicate-group counts decide the verdict;
    // joinery must throw exactly when one is non-zero, reporting the first.
    const auto checks = jy::cardinality_sql(p, jy::dialect::sqlite);
    std::int64_t first_dups = 0;
    std::string counts;
    for (const auto& q : checks) {
      const std::int64_t n = db.count(q.sql);
      counts += q.sql + "\n  -> " + std::to_string(n) + "\n";
      if (first_dups == 0) first_dups = n;
    }
    std::optional<std::vector<sqltest::row>> expected;
    try {
      expected = sqltest::rows_of(jy::materialize(p, d.a, d.b, d.c));
      if (first_dups != 0) problem = "joinery passed, SQLite counts " + std::to_string(first_dups) + " duplicate groups";
    } catch (const jy::cardinality_error& e) {
      const std::string needle = " has " + std::to_string(first_dups) + " duplicate key groups";
      if (first_dups == 0 || e.duplicate_groups() != static_cast<std::size_t>(first_dups) ||
          std::string_view(e.what()).find(needle) == std::string_view::npos)
        problem = std::string("cardinality verdicts differ: joinery threw: ") + e.what();
    }
    if (!checks.empty()) (first_dups == 0 ? st.verdict_pass : st.verdict_fail) += 1;
    if (expected && problem.empty()) {
      const auto actual = db.query(sql);
      st.rows += expected->size();
      st.nonempty += !expected->empty();
      if (!sqltest::same_rows(*expected, actual))
        problem = "rows differ\njoinery:\n" + sqltest::show(*expected) + "sqlite:\n" + sqltest::show(actual);
    }
    if (!problem.empty() && st.mismatches++ == 0) {
      st.first_mismatch = "shape " + std::string(shape) + ", case " + std::to_string(c) + " (seed " +
                          std::to_string(seed) + ")\nSQL:\n" + sql + "\n" + counts + show_data(d) + problem;
    }
  }
  return st;
}

/// The differential check of one shape: no case may disagree, and some case
/// must have rows (a shape that is always empty would prove nothing).
template <class Make>
void differential(std::string_view shape, Make make) {
  const shape_stats st = run_shape(shape, make, [](std::string s) { return s; });
  INFO(st.first_mismatch);
  INFO("shape " << shape << ": " << st.cases << " cases, " << st.rows << " rows compared");
  CHECK(st.mismatches == 0);
  CHECK((st.cases == 0 || st.nonempty > 0));
}

/// As `differential`, for a plan with annotated joins: also both verdicts
/// (held, cardinality_error) must occur among the cases.
template <class Make>
void differential_expect(std::string_view shape, Make make) {
  const shape_stats st = run_shape(shape, make, [](std::string s) { return s; });
  INFO(st.first_mismatch);
  INFO("shape " << shape << ": " << st.cases << " cases (" << st.verdict_pass << " held, " << st.verdict_fail
                << " threw), " << st.rows << " rows compared");
  CHECK(st.mismatches == 0);
  CHECK((st.cases < 20 || (st.verdict_pass > 0 && st.verdict_fail > 0 && st.nonempty > 0)));
}

}  // namespace diff
