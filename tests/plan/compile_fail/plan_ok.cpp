// The twin of the plan compile-fail cases: the same plan, spelled right, compiles.
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>
int main() {
  jy::relation<orders> o{{1, 10, 9.5}};
  jy::relation<customers> c{{10, "DE"}};
  auto rows = jy::run(jy::from<orders> | jy::join_left<customers>(jy::col<orders, "customer_id"> ==
                                                                   jy::col<customers, "customer_id">) |
                          jy::select(jy::as<"country">(jy::col<customers, "country">)),
                      o, c);
  return static_cast<int>(rows.size()) - 1;
}
