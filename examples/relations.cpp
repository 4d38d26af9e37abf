// Relations: typed, columnar tables (DESIGN.md §2.1).
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>

#include <joinery/joinery.hpp>

namespace jy = joinery;

struct orders : jy::table<"orders",
                          jy::column<"order_id", std::int64_t>,
                          jy::column<"customer_id", std::optional<std::int64_t>>,  // nullable
                          jy::column<"amount", double>> {};

int main() {
  jy::relation<orders> o{{1, 10, 9.5}, {2, std::nullopt, 3.0}};
  o.insert({3, 10, 1.0});

  double total = 0;
  for (double a : o.column<"amount">()) total += a;
  std::cout << o.size() << " orders, total amount " << total << "\n";
  for (auto row : o) {
    const auto& cust = jy::get<"customer_id">(row);
    std::cout << "  order " << jy::get<"order_id">(row) << " customer "
              << (cust ? std::to_string(*cust) : "NULL") << "\n";
  }
}
