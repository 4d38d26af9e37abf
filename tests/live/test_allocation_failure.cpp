// Strong guarantee under allocation failure: every allocation a refresh
// makes is made to fail in turn; each failure leaves the last good result and
// report exactly as they were. (Global operator new is replaced in this test
// executable only.)
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <optional>
#include <string>

#include <joinery/live/materialized.hpp>
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>

namespace {
std::atomic<long> allocations_left{-1};  // -1: never fail
}  // namespace

void* operator new(std::size_t n) {
  if (allocations_left.load() >= 0 && allocations_left.fetch_sub(1) == 0) throw std::bad_alloc();
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
// Every form is replaced, so each allocation and its release meet in malloc/free
// (a sanitizer checks the pairing); GCC cannot see it, hence the pragma.
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return std::malloc(n == 0 ? 1 : n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return std::malloc(n == 0 ? 1 : n); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

TEST_CASE("joinery.live.materialized.allocation_failure_keeps_last_good_result") {
  constexpr auto p = jy::model<"enriched">(
      jy::from<orders> |
      jy::join_left<customers>(jy::col<orders, "customer_id"> == jy::col<customers, "customer_id">,
                               jy::expect::one_to_one) |
      jy::select(jy::as<"order_id">(jy::col<orders, "order_id">), jy::as<"country">(jy::col<customers, "country">)));
  const jy::relation<orders> o1{{1, 10, 9.5}, {2, std::nullopt, 3.0}};
  const jy::relation<customers> c1{{10, "DE"}};
  jy::materialized mv{p};
  mv.refresh(o1, c1);
  const auto good = mv.rows();
  const std::string good_report = mv.report().str();

  const jy::relation<orders> o2{{5, 11, 1.0}, {6, 12, 2.0}, {7, 13, 3.0}};
  const jy::relation<customers> c2{{11, "a country name longer than the small-string buffer"}, {12, "FR"}, {13, "IT"}};
  int failures = 0;
  bool succeeded = false;
  for (long k = 0; k < 10000 && !succeeded; ++k) {
    allocations_left = k;
    try {
      mv.refresh(o2, c2);
      succeeded = true;
    } catch (const std::bad_alloc&) {
      allocations_left = -1;
      ++failures;
      REQUIRE(mv.rows() == good);
      REQUIRE(mv.report().str() == good_report);
    }
    allocations_left = -1;
  }
  CHECK(succeeded);
  CHECK(failures > 5);  // the refresh allocates in several places, each was made to fail
  CHECK(mv.rows().size() == 3);
  CHECK(mv.report().str() ==
        "ok enriched join_left customers: one_to_one (3 right rows, 0 duplicate key groups; 3 left rows, 0 "
        "duplicate key groups)");
}
