// Reading a result row by a name the result does not have: joinery[unknown_column]
// naming the result table and the name.
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>
int main() {
  jy::relation<orders> o{{1, 10, 9.5}};
  for (auto row : jy::run(jy::from<orders> | jy::select(jy::as<"id">(jy::col<orders, "order_id">)), o))
    return static_cast<int>(jy::get<"order_id">(row));
}
