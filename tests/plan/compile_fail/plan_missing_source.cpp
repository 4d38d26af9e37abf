// The plan reads customers, but only orders is passed: joinery[missing_source] naming customers.
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>
int main() {
  jy::relation<orders> o{{1, 10, 9.5}};
  auto rows = jy::run(jy::from<orders> | jy::join_semi<customers>(jy::col<orders, "customer_id"> ==
                                                                  jy::col<customers, "customer_id">),
                      o);
  (void)rows;
}
