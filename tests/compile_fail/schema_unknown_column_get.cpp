// A misspelt column read through a row.
#include <test_schemas.hpp>
int main() {
  jy::relation<customers> c{{1, "DE"}};
  for (auto row : c) (void)jy::get<"contry">(row);
}
