// A user's program: one include, one relation.
#include <cstdint>
#include <iostream>
#include <joinery/joinery.hpp>

namespace jy = joinery;
struct items : jy::table<"items", jy::column<"id", std::int64_t>, jy::column<"name", std::string>> {};

int main() {
  jy::relation<items> r{{1, "a"}, {2, "b"}};
  if (jy::get<"name">(r[1]) != "b") return 1;
  std::cout << "consumer ok: " << r.size() << " rows\n";
}
