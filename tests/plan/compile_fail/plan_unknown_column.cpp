// A misspelt column in a select: joinery[unknown_column] naming orders and "amnt".
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>
int main() {
  jy::relation<orders> o{{1, 10, 9.5}};
  auto rows = jy::run(jy::from<orders> | jy::select(jy::as<"a">(jy::col<orders, "amnt">)), o);
  (void)rows;
}
