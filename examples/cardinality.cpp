// Cardinality expectations (reference/002): a join promises many_to_one; the
// compiler checks the promise is provable by counting keys, the data is
// checked on every refresh, and a violation keeps the last good result.
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>

#include <joinery/joinery.hpp>

namespace jy = joinery;

struct orders : jy::table<"orders",
    jy::column<"order_id", std::int64_t>,
    jy::column<"customer_id", std::optional<std::int64_t>>,
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
static_assert(jy::validate(enriched).empty());  // the shape is provable (E079)

void print(const jy::relation<jy::result_table_t<decltype(enriched)>>& rows) {
  for (auto row : rows)
    std::cout << "  order " << jy::get<"order_id">(row) << ": " << jy::get<"country">(row).value_or("-") << "\n";
}

int main() {
  jy::relation<orders> o{{1, 10, 9.5}, {2, std::nullopt, 3.0}, {3, 11, 1.0}};
  jy::relation<customers> c{{10, "DE"}, {11, "FR"}, {12, "IT"}};

  jy::materialized mv{enriched};
  mv.refresh(o, c);                       // passes: customer ids are unique
  std::cout << mv.report() << "\n";
  print(mv.rows());

  c.insert({10, "AT"});                   // now customer 10 appears twice
  try {
    mv.refresh(o, c);
  } catch (const jy::cardinality_error& e) {
    std::cout << e.what() << "\n";
  }
  std::cout << "last good result kept:\n";
  print(mv.rows());
  return mv.rows().size() == 3 ? 0 : 1;
}
