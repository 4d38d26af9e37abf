// A misspelt column in a join condition, reported at materialize.
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>
int main() {
  jy::relation<orders> o{{1, 10, 9.5}};
  jy::relation<customers> c{{10, "DE"}};
  auto rel = jy::materialize(
      jy::from<orders> | jy::join_inner<customers>(jy::col<orders, "customer_id"> == jy::col<customers, "custid">), o, c);
  (void)rel;
}
