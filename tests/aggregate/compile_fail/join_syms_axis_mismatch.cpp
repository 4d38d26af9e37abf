// syms(a, c): the right key r_id lives on row_ax, but c draws col_ax.
#include <joinery/aggregate/evaluate.hpp>
#include "../fixtures.hpp"
using namespace agg_fx;
int main() {
  constexpr auto node = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(c, col_ax{})),
                                      jy::join(jy::on(r_priorID, r_id), jy::syms(a, c)), jy::count());
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), jy::extent(col_ax{}, 2), r_id = ids(), r_priorID = priors());
  return static_cast<int>(out.size());
}
