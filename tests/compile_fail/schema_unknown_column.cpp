// A misspelt column: names the table (orders) and the name (amnt).
#include <test_schemas.hpp>
int main() {
  jy::relation<orders> o{{1, 10, 9.5}};
  return static_cast<int>(o.column<"amnt">().size());
}
