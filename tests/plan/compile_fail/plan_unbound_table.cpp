// A where reading a table that is not bound (yet): joinery[unknown_column].
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>
int main() {
  jy::relation<orders> o{{1, 10, 9.5}};
  jy::relation<customers> c{{10, "DE"}};
  auto rows = jy::run(jy::from<orders> | jy::where(jy::col<customers, "country"> == "DE"), o, c);
  (void)rows;
}
