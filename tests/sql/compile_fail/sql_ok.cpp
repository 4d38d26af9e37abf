// The sanity twin: the same plans with SQL-mapped functions compile.
#include <joinery/plan/relational.hpp>
#include <joinery/sql/sql.hpp>
#include <test_schemas.hpp>
int main() {
  constexpr auto p = jy::from<orders> | jy::join_left<customers>(jy::col<orders, "customer_id"> == jy::col<customers, "customer_id">) |
                     jy::select(jy::as<"c">(jy::call(jy::upper, jy::col<customers, "country">)));
  const auto sql = jy::to_sql(p, jy::dialect::sqlite);
  const auto q = jy::cardinality_sql(p);
  return sql.empty() || !q.empty();
}
