// The hand-written equivalent of examples/quickstart.cpp: the same tables, the
// same left join (many-to-one, checked) and projection, with plain structs, a
// std::unordered_map index and loops. scripts/compile-time compiles both TUs
// to show what joinery's types cost at compile time.
#include <cstdint>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

struct order {
  std::int64_t order_id;
  std::optional<std::int64_t> customer_id;
  double amount;
};
struct customer {
  std::int64_t customer_id;
  std::string country;
};
struct enriched_row {
  std::int64_t order_id;
  std::optional<std::string> country;
};

int main() {
  std::vector<order> o{{1, 10, 9.5}, {2, std::nullopt, 3.0}, {3, 10, 1.0}, {4, 11, 2.5}};
  std::vector<customer> c{{10, "DE"}, {11, "FR"}, {12, "IT"}};

  std::unordered_map<std::int64_t, std::size_t> by_id;
  for (std::size_t j = 0; j < c.size(); ++j)
    if (!by_id.emplace(c[j].customer_id, j).second) throw std::runtime_error("duplicate customer_id");

  std::vector<enriched_row> rows;
  for (const auto& r : o) {
    std::optional<std::string> country;
    if (r.customer_id)
      if (auto it = by_id.find(*r.customer_id); it != by_id.end()) country = c[it->second].country;
    rows.push_back({r.order_id, country});
  }
  for (const auto& r : rows) std::cout << r.order_id << " " << r.country.value_or("NULL") << "\n";
}
