// A query that reads a variable no loop binds: named, not a template cascade.
#include <joinery/loop/loop.hpp>
#include <map>
#include <vector>
namespace lp = joinery::loop;
struct review {
  int id;
  int author;
};
int main() {
  std::map<int, int> m;
  auto q = lp::map_get(m, lp::var<"x">[&review::author]);  // x is not bound by any loop
  (void)lp::run(q);
}
