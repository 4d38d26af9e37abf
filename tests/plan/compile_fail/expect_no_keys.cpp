// No left == right key pair.
#include <cstdint>
#include <string>
#include <joinery/plan/relational.hpp>
#include <test_schemas.hpp>
int main() {
  jy::relation<orders> o{{1, 10, 9.5}};
  jy::relation<customers> c{{10, "DE"}};
  constexpr auto o_id = jy::col<orders, "order_id">;
  constexpr auto o_cust = jy::col<orders, "customer_id">;
  constexpr auto c_cust = jy::col<customers, "customer_id">;
  constexpr auto c_country = jy::col<customers, "country">;
  constexpr auto plus_one = [](std::int64_t v) { return v + 1; };
  (void)o_id; (void)o_cust; (void)c_cust; (void)c_country; (void)plus_one;
  auto r = jy::run(jy::from<orders> | jy::join_left<customers>(c_country == "DE", jy::expect::many_to_one), o, c); (void)r;
}
