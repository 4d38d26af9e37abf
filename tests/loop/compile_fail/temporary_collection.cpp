// Collections are captured by reference: a temporary would dangle.
#include <joinery/loop/loop.hpp>
#include <vector>
namespace lp = joinery::loop;
int main() {
  auto q = lp::for_each(lp::var<"x">, std::vector<int>{1, 2, 3}, lp::var<"x"> + 1);
  (void)q;
}
