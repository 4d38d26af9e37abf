// Allocation failure and memory use, measured by a global operator new hook
// that lives only in this executable (alloc_hook.hpp):
// * every allocation of materialize/run/to_sql, failed in turn, throws
//   std::bad_alloc and leaves the inputs exactly as they were (strong
//   guarantee; ASan checks nothing leaks);
// * a 1e4 x 1e4 all-equal-key join (1e8 rows) runs lazily in memory
//   proportional to its output: the match set's row positions (4 bytes per
//   bound table per row, vectors growing by doubling), never a product-sized
//   intermediate or a materialised copy of the values.
#define ALLOC_HOOK_DEFINE
#include <alloc_hook.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <joinery/live/live.hpp>
#include <joinery/plan/relational.hpp>
#include <joinery/sql/sql.hpp>

namespace jy = joinery;

namespace {
struct lt : jy::table<"lt", jy::column<"id", std::int64_t>, jy::column<"k", std::optional<std::int64_t>>,
                      jy::column<"name", std::string>> {};
struct rt : jy::table<"rt", jy::column<"id", std::int64_t>, jy::column<"k", std::int64_t>> {};
constexpr auto l_id = jy::col<lt, "id">;
constexpr auto l_k = jy::col<lt, "k">;
constexpr auto l_name = jy::col<lt, "name">;
constexpr auto r_id = jy::col<rt, "id">;
constexpr auto r_k = jy::col<rt, "k">;

jy::relation<lt> left_rows() {
  jy::relation<lt> l;
  for (std::int64_t i = 0; i < 40; ++i)
    l.insert({i, i % 7 == 3 ? std::optional<std::int64_t>() : std::optional<std::int64_t>(i % 5),
              "a name long enough to allocate #" + std::to_string(i)});
  return l;
}
jy::relation<rt> right_rows() {
  jy::relation<rt> r;
  for (std::int64_t j = 0; j < 30; ++j) r.insert({100 + j, j % 6});
  return r;
}

/// Fails allocation 0, 1, 2, ... of `op` until it succeeds; every failure
/// must leave `l` and `r` equal to their copies, with their versions.
template <class Op>
std::size_t fail_every_allocation(const jy::relation<lt>& l, const jy::relation<rt>& r, Op op) {
  const jy::relation<lt> l0 = l;
  const jy::relation<rt> r0 = r;
  const auto lv = l.version(), rv = r.version();
  std::size_t failures = 0;
  for (long long n = 0;; ++n) {
    if (!alloc_hook::fails_at(n, op)) break;
    ++failures;
    REQUIRE(l == l0);
    REQUIRE(r == r0);
    REQUIRE(l.version() == lv);
    REQUIRE(r.version() == rv);
  }
  return failures;
}
}  // namespace

TEST_CASE("joinery.sql.faults.allocation_failure_in_materialize_leaves_inputs") {
  const auto l = left_rows();
  const auto r = right_rows();
  const auto p = jy::from<lt> | jy::join_left<rt>(l_k == r_k && r_id != 105) | jy::where(l_id != 4) |
                 jy::select(jy::as<"name">(l_name), jy::as<"rid">(r_id));
  const auto expected = jy::materialize(p, l, r);
  jy::relation<jy::result_table_t<decltype(p)>> got;
  const std::size_t failures = fail_every_allocation(l, r, [&] { got = jy::materialize(p, l, r); });
  CHECK(failures > 5);
  CHECK(got == expected);  // the attempt that succeeded is right
}

TEST_CASE("joinery.sql.faults.allocation_failure_in_group_by_and_run_leaves_inputs") {
  const auto l = left_rows();
  const auto r = right_rows();
  const auto grouped = jy::from<lt> | jy::join_inner<rt>(r_k == l_k) | jy::group_by(l_k) |
                       jy::aggregate(jy::as<"n">(jy::count()), jy::as<"s">(jy::sum(r_id)), jy::as<"m">(jy::max(l_name)));
  const auto expected = jy::materialize(grouped, l, r);
  jy::relation<jy::result_table_t<decltype(grouped)>> got;
  CHECK(fail_every_allocation(l, r, [&] { got = jy::materialize(grouped, l, r); }) > 3);
  CHECK(got == expected);

  const auto semi = jy::from<lt> | jy::join_semi<rt>(r_k == l_k) | jy::select(jy::as<"id">(l_id));
  std::size_t rows = 0;
  CHECK(fail_every_allocation(l, r, [&] { rows = jy::run(semi, l, r).size(); }) > 1);
  CHECK(rows == jy::materialize(semi, l, r).size());
}

TEST_CASE("joinery.sql.faults.allocation_failure_mid_refresh_keeps_last_good_result") {
  auto l = left_rows();
  auto r = right_rows();
  const auto p = jy::model<"m">(jy::from<lt> | jy::join_left<rt>(l_k == r_k && r_id != 105) |
                                jy::select(jy::as<"name">(l_name), jy::as<"rid">(r_id)));
  jy::materialized mv{p};
  mv.refresh(l, r);
  const auto good_rows = mv.rows();
  const std::string good_report = mv.report().str();
  l.insert({99, 2, "one more row"});
  const auto expected = jy::materialize(p, l, r);
  std::size_t failures = fail_every_allocation(l, r, [&] { mv.refresh(l, r); });
  // every failed attempt kept the last good result; the attempt that succeeded replaced it
  CHECK(failures > 5);
  CHECK(mv.rows() == expected);
  CHECK_FALSE(mv.rows() == good_rows);
  jy::materialized mv2{p};
  mv2.refresh(left_rows(), r);
  failures = 0;
  for (long long n = 0;; ++n) {
    if (!alloc_hook::fails_at(n, [&] { mv2.refresh(l, r); })) break;
    ++failures;
    REQUIRE(mv2.rows() == good_rows);
    REQUIRE(mv2.report().str() == good_report);
  }
  CHECK(failures > 5);
}

TEST_CASE("joinery.sql.faults.allocation_failure_in_to_sql_throws_cleanly") {
  const auto l = left_rows();
  const auto r = right_rows();
  const auto p = jy::from<lt> | jy::join_anti<rt>(l_k == r_k) | jy::select(jy::as<"name">(jy::call(jy::upper, l_name)));
  const std::string expected = jy::to_sql(p, jy::dialect::sqlite);
  std::string got;
  CHECK(fail_every_allocation(l, r, [&] { got = jy::to_sql(p, jy::dialect::sqlite); }) > 3);
  CHECK(got == expected);
}

TEST_CASE("joinery.sql.faults.fan_out_1e4_x_1e4_memory_proportional_to_output") {
  constexpr std::int64_t n = 10'000;
  jy::relation<lt> l;
  jy::relation<rt> r;
  l.reserve(n);
  r.reserve(n);
  for (std::int64_t i = 0; i < n; ++i) {
    l.insert({i, 7, std::string()});
    r.insert({i, 7});
  }
  const auto p = jy::from<lt> | jy::join_inner<rt>(l_k == r_k) | jy::select(jy::as<"l">(l_id), jy::as<"r">(r_id));
  constexpr std::size_t rows = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::size_t counted = 0;
  bool in_order = true;
  const std::size_t peak = alloc_hook::peak_of([&] {
    const auto view = jy::run(p, l, r);
    // The lazy range is sized and random access: count it, and read every
    // 9973rd row and the last one, where row i must be (i / n, i % n).
    counted = static_cast<std::size_t>(view.end() - view.begin());
    auto check_row = [&](std::size_t i) {
      const auto row = view[static_cast<std::ptrdiff_t>(i)];
      in_order = in_order && jy::get<"l">(row) == static_cast<std::int64_t>(i / n) &&
                 jy::get<"r">(row) == static_cast<std::int64_t>(i % n);
    };
    for (std::size_t i = 0; i < counted; i += 9973) check_row(i);
    if (counted != 0) check_row(counted - 1);
  });
  CHECK(counted == rows);
  CHECK(in_order);
  // The output's row positions are 8 bytes a row (two uint32); doubling
  // growth can hold up to twice that, plus the old buffer while moving.
  INFO("peak bytes " << peak << " = " << static_cast<double>(peak) / static_cast<double>(rows) << " per output row");
  CHECK(peak <= 24 * rows);
}
