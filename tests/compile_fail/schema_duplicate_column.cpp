// A table that declares "a" twice is refused where it is first used.
#include <test_schemas.hpp>
struct twice : jy::table<"twice", jy::column<"a", int>, jy::column<"a", double>> {};
int main() {
  jy::relation<twice> t;
  return static_cast<int>(t.size());
}
