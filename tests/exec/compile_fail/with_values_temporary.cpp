// with_values keeps a pointer to the arranged values: a temporary would dangle.
#include <cstdint>
#include <optional>
#include <vector>

#include <joinery/exec/equi_join.hpp>
namespace ex = joinery::exec;
int main() {
  std::vector<std::int64_t> keys{1, 2, 3}, values{10, 20, 30};
  ex::arrangement<std::int64_t> a;
  a.build(keys.size(), [&](std::size_t j) { return std::optional(keys[j]); });
  auto emit = ex::with_values([](std::size_t, std::size_t, std::int64_t) {}, ex::arrange_values(a, values));
  (void)emit;
}
