// to_sql asserts the plan's own rules first: a misspelt column is
// joinery[unknown_column], not a SQL error.
#include <joinery/plan/relational.hpp>
#include <joinery/sql/sql.hpp>
#include <test_schemas.hpp>
int main() {
  const auto sql = jy::to_sql(jy::from<orders> | jy::select(jy::as<"a">(jy::col<orders, "amnt">)), jy::dialect::duckdb);
  (void)sql;
}
