// A user function printed as SQL: joinery[sql_unsupported_call], naming the
// function's type (the lambda) in the note.
#include <joinery/plan/relational.hpp>
#include <joinery/sql/sql.hpp>
#include <test_schemas.hpp>
int main() {
  constexpr auto p = jy::from<orders> |
                     jy::where(jy::call([](double a) { return a * 2; }, jy::col<orders, "amount">) > 3.0);
  const auto sql = jy::to_sql(p, jy::dialect::sqlite);
  (void)sql;
}
