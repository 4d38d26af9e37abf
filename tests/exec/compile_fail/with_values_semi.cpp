// A semi join emits no build row, so it has no build-side values to hand over.
#include <cstdint>
#include <optional>
#include <vector>

#include <joinery/exec/equi_join.hpp>
namespace ex = joinery::exec;
int main() {
  std::vector<std::int64_t> keys{1, 2, 3}, values{10, 20, 30};
  ex::arrangement<std::int64_t> a;
  a.build(keys.size(), [&](std::size_t j) { return std::optional(keys[j]); });
  const auto v = ex::arrange_values(a, values);
  ex::probe<ex::join_kind::semi>(
      a, keys.size(), [&](std::size_t i) { return std::optional(keys[i]); },
      [](std::size_t, std::size_t) { return true; }, ex::with_values([](std::size_t, std::size_t, std::int64_t) {}, v));
}
