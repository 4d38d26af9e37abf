// syms names z, which no range of the node draws.
#include <joinery/aggregate/evaluate.hpp>
#include "../fixtures.hpp"
using namespace agg_fx;
int main() {
  constexpr auto node = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                      jy::join(jy::on(r_priorID, r_id), jy::syms(a, z)), jy::sum(value(b)));
  auto out = jy::evaluate(node, jy::extent(row_ax{}, 5), r_id = ids(), r_priorID = priors(), value = values());
  return static_cast<int>(out.size());
}
