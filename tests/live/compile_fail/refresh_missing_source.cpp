// refresh needs a relation for every table the plan reads.
#include <joinery/live/materialized.hpp>
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>
int main() {
  jy::relation<orders> o{{1, 10, 9.5}};
  jy::materialized mv{jy::from<orders> |
                      jy::join_left<customers>(jy::col<orders, "customer_id"> == jy::col<customers, "customer_id">,
                                               jy::expect::many_to_one)};
  mv.refresh(o);
}
