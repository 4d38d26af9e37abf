// cardinality_sql prints the plan too: the same rule, first error.
#include <joinery/plan/relational.hpp>
#include <joinery/sql/sql.hpp>
#include <test_schemas.hpp>
namespace {
struct shout {
  std::string operator()(const std::string& s) const { return s + "!"; }
};
}  // namespace
int main() {
  constexpr auto p = jy::from<orders> | jy::join_left<customers>(jy::col<orders, "customer_id"> == jy::col<customers, "customer_id">) |
                     jy::select(jy::as<"c">(jy::call(shout{}, jy::col<customers, "country">)));
  const auto q = jy::cardinality_sql(p);
  (void)q;
}
