// A self-join by alias: each order beside the same customer's previous
// orders. `jy::alias<orders, "prev">` is orders under another name; it reads
// the relation of its base table, so one relation binds both sides.
#include <cstdint>
#include <iostream>
#include <optional>

#include <joinery/joinery.hpp>

namespace jy = joinery;

struct orders : jy::table<"orders",
    jy::column<"order_id", std::int64_t>,
    jy::column<"customer_id", std::optional<std::int64_t>>,
    jy::column<"amount", double>> {};
using prev = jy::alias<orders, "prev">;

constexpr auto with_previous = jy::model<"with_previous">(
    jy::from<orders>
  | jy::join_left<prev>(jy::col<orders, "customer_id"> == jy::col<prev, "customer_id">
                        && jy::col<prev, "order_id"> < jy::col<orders, "order_id">)
  | jy::select(jy::as<"order_id">(jy::col<orders, "order_id">),
               jy::as<"previous">(jy::col<prev, "order_id">),
               jy::as<"previous_amount">(jy::col<prev, "amount">)));

// How many earlier orders each customer's order has.
constexpr auto counts = jy::from<orders>
  | jy::join_inner<prev>(jy::col<orders, "customer_id"> == jy::col<prev, "customer_id">
                         && jy::col<prev, "order_id"> < jy::col<orders, "order_id">)
  | jy::group_by(jy::col<orders, "order_id">)
  | jy::aggregate(jy::as<"earlier">(jy::count()), jy::as<"spent_before">(jy::sum(jy::col<prev, "amount">)));

int main() {
  const jy::relation<orders> o{{1, 10, 9.5}, {2, 11, 3.0}, {3, 10, 1.0}, {4, 10, 2.0}, {5, std::nullopt, 7.0}};

  for (auto row : jy::run(with_previous, o)) {
    const auto p = jy::get<"previous">(row);
    std::cout << "order " << jy::get<"order_id">(row) << " previous "
              << (p ? std::to_string(*p) : "-") << "\n";
  }
  for (auto row : jy::run(counts, o))
    std::cout << "order " << jy::get<"order_id">(row) << ": " << jy::get<"earlier">(row) << " earlier, "
              << jy::get<"spent_before">(row) << " spent before\n";
}
