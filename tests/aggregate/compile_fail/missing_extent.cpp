// No jy::extent for col_ax, which c draws.
#include <joinery/aggregate/evaluate.hpp>
#include "../fixtures.hpp"
using namespace agg_fx;
int main() {
  constexpr auto node = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(c, col_ax{})),
                                      jy::join(jy::on(r_priorID, col_ax{})), jy::count());
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), r_priorID = priors());
  return static_cast<int>(out.size());
}
