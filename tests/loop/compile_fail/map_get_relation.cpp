// map_get needs an associative container: a relation has no key of its own.
#include <joinery/loop/loop.hpp>
#include <test_schemas.hpp>
#include <vector>
namespace lp = joinery::loop;
int main() {
  jy::relation<customers> c;
  std::vector<std::int64_t> ids{1, 2};
  auto q = lp::for_each(lp::var<"x">, ids, lp::map_get(c, lp::var<"x">));
  (void)q;
}
