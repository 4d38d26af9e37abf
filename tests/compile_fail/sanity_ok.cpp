// Must compile: the same includes and flags as every compile-fail case.
#include <test_schemas.hpp>
int main() {
  jy::relation<orders> o{{1, 10, 9.5}};
  return static_cast<int>(o.column<"amount">().size()) - 1;
}
