// A streamed `run` whose chunk refill throws (every allocation of the loop
// made to fail in turn): the exception leaves the loop as itself, the rows
// read before it are the result's first rows, and the view, read again,
// gives every row. (Global operator new is replaced in this executable only:
// tests/support/alloc_hook.hpp.)
#define ALLOC_HOOK_DEFINE
#include <alloc_hook.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <new>
#include <optional>
#include <tuple>
#include <vector>

#include <joinery/plan/relational.hpp>

namespace jy = joinery;

namespace {
struct fact : jy::table<"fact", jy::column<"id", std::int64_t>, jy::column<"k", std::int64_t>> {};
struct dim : jy::table<"dim", jy::column<"k", std::int64_t>, jy::column<"v", std::int64_t>> {};

using row_t = std::tuple<std::int64_t, std::optional<std::int64_t>>;

template <class View>
void read_into(const View& view, std::vector<row_t>& out) {
  for (auto row : view) out.emplace_back(jy::get<"id">(row), jy::get<"v">(row));
}
}  // namespace

TEST_CASE("joinery.plan.run.refill_failure_throws_from_the_loop_and_loses_nothing") {
  // Five chunks of the first table; every third key has no match.
  jy::relation<fact> f;
  jy::relation<dim> d;
  constexpr std::int64_t n = 5 * 2048 + 7;
  for (std::int64_t i = 0; i < n; ++i) f.insert({i, (i * 7919) % 3000});
  for (std::int64_t k = 0; k < 3000; ++k)
    if (k % 3 != 0) d.insert({k, 10 * k});
  constexpr auto p = jy::from<fact> | jy::join_left<dim>(jy::col<fact, "k"> == jy::col<dim, "k">) |
                     jy::select(jy::as<"id">(jy::col<fact, "id">), jy::as<"v">(jy::col<dim, "v">));
  std::vector<row_t> expected;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t k = (i * 7919) % 3000;
    expected.emplace_back(i, k % 3 != 0 ? std::optional<std::int64_t>(10 * k) : std::nullopt);
  }

  const auto view = jy::run(p, f, d);
  int failures = 0, mid_loop = 0;
  for (long fail_at = 0;; ++fail_at) {
    std::vector<row_t> got;
    got.reserve(expected.size());  // the test's own vector never allocates in the loop
    const bool threw = alloc_hook::fails_at(fail_at, [&] { read_into(view, got); });
    if (!threw) {
      REQUIRE(got == expected);
      break;
    }
    ++failures;
    mid_loop += !got.empty();
    // What was read before the failure is the result's beginning.
    REQUIRE(got.size() < expected.size());
    REQUIRE(std::equal(got.begin(), got.end(), expected.begin()));
    // The view is intact: read again, it gives every row.
    std::vector<row_t> again;
    read_into(view, again);
    REQUIRE(again == expected);
  }
  // The first chunk's allocations failed in turn, and refills' after rows were read.
  CHECK(failures >= 4);
  CHECK(mid_loop >= 2);
}
