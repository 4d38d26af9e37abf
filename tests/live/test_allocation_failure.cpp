// Strong guarantee under allocation failure: every allocation a refresh
// makes is made to fail in turn; each failure leaves the last good result and
// report exactly as they were. (Global operator new is replaced in this test
// executable only: tests/support/alloc_hook.hpp.)
#define ALLOC_HOOK_DEFINE
#include <alloc_hook.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <new>
#include <optional>
#include <string>

#include <joinery/live/materialized.hpp>
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>

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
    if (!alloc_hook::fails_at(k, [&] { mv.refresh(o2, c2); })) {
      succeeded = true;
    } else {
      ++failures;
      REQUIRE(mv.rows() == good);
      REQUIRE(mv.report().str() == good_report);
    }
  }
  CHECK(succeeded);
  CHECK(failures > 5);  // the refresh allocates in several places, each was made to fail
  CHECK(mv.rows().size() == 3);
  CHECK(mv.report().str() ==
        "ok enriched join_left customers: one_to_one (3 right rows, 0 duplicate key groups; 3 left rows, 0 "
        "duplicate key groups)");
}
