// joinery in one page: typed tables, columnar relations, and a relational plan
// whose join promises many_to_one (DESIGN.md §2.1 and §2.2).
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>

#include <joinery/joinery.hpp>

namespace jy = joinery;

struct orders : jy::table<"orders",
    jy::column<"order_id", std::int64_t>,
    jy::column<"customer_id", std::optional<std::int64_t>>,  // std::optional = nullable
    jy::column<"amount", double>> {};
struct customers : jy::table<"customers",
    jy::column<"customer_id", std::int64_t>,
    jy::column<"country", std::string>> {};

constexpr auto enriched = jy::model<"enriched">(
    jy::from<orders>
  | jy::join_left<customers>(jy::col<orders, "customer_id"> == jy::col<customers, "customer_id">,
                             jy::expect::many_to_one)
  | jy::select(jy::as<"order_id">(jy::col<orders, "order_id">),
               jy::as<"country">(jy::col<customers, "country">)));

int main() {
  jy::relation<orders> o{{1, 10, 9.5}, {2, std::nullopt, 3.0}};  // columnar storage
  o.insert({3, 10, 1.0});
  jy::relation<customers> c{{10, "DE"}, {11, "FR"}};

  double total = 0;
  for (double a : o.column<"amount">()) total += a;
  std::cout << o.size() << " orders, total amount " << total << "\n";

  auto rows = jy::run(enriched, o, c);        // a lazy range of result rows; sources matched by table type
  for (auto row : rows)
    std::cout << "order " << jy::get<"order_id">(row) << ": "
              << jy::get<"country">(row).value_or("(no customer)") << "\n";

  auto rel = jy::materialize(enriched, o, c);  // jy::relation<result table>
  std::cout << rel.size() << " rows materialized\n";
}
