// E079 is asserted by materialized::refresh too.
#include <joinery/live/materialized.hpp>
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>
int main() {
  jy::relation<orders> o{{1, 10, 9.5}};
  jy::relation<customers> c{{10, "DE"}};
  jy::materialized mv{jy::from<orders> |
                      jy::join_inner<customers>(jy::col<customers, "customer_id"> == jy::col<customers, "customer_id">,
                                                jy::expect::many_to_one)};
  mv.refresh(o, c);
}
