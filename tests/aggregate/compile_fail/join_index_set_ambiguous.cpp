// reference/000 §2.5's trap: county is drawn by i and j; defaulting it to i
// would turn on(county, i) into i == i and silently drop the gate.
#include <joinery/aggregate/evaluate.hpp>
#include "../fixtures.hpp"
using namespace agg_fx;
int main() {
  constexpr auto node = jy::aggregate(jy::output_idx(i), jy::ranges(jy::range(i, county{}), jy::range(j, county{})),
                                      jy::join(jy::on(county{}, i)), jy::sum(pop(j)));
  auto out = jy::evaluate(node, jy::extent(county{}, 3), pop = std::vector<double>{1, 2, 3});
  return static_cast<int>(out.size());
}
