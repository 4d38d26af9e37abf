// c_key is a column over col_ax, which no range draws.
#include <joinery/aggregate/evaluate.hpp>
#include "../fixtures.hpp"
using namespace agg_fx;
int main() {
  constexpr auto node = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
                                      jy::join(jy::on(c_key, r_id)), jy::count());
  auto m = jy::matches(node, jy::extent(row_ax{}, 5), r_id = ids(), c_key = std::vector<std::int64_t>{1});
  return static_cast<int>(m.size());
}
