#pragma once
// Build and probe keys for the kernel's probe tests (prefetch_build,
// with_values): every layout, repeats, NULLs, misses.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace joinery::test {

using opt_key = std::optional<std::int64_t>;

/// Keys of `m` build rows: 0..m/dup-1 scattered over the rows (dense: a
/// direct layout) or those times 1000003 (sparse: hashed), each `dup`
/// times; one row in 101 has a NULL key.
inline std::vector<opt_key> build_keys(std::size_t m, std::size_t dup, bool dense) {
  std::vector<opt_key> keys(m);
  for (std::size_t j = 0; j < m; ++j) {
    const auto k = static_cast<std::int64_t>((j * 7919) % m / dup);
    keys[j] = j % 101 == 5 ? opt_key{} : opt_key(dense ? k : k * 1000003);
  }
  return keys;
}

/// `n` probe keys drawn from twice the build's key range (about half of
/// them missing), one in nine NULL; with `below`, one in seventeen lies
/// below the smallest build key.
inline std::vector<opt_key> probe_keys(std::size_t n, std::size_t m, std::size_t dup, bool dense,
                                       bool below = false) {
  std::vector<opt_key> p(n);
  std::uint64_t x = 42;
  for (std::size_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    auto k = static_cast<std::int64_t>((x >> 33) % (2 * m / dup));
    if (below && i % 17 == 3) k -= 3 * static_cast<std::int64_t>(m);
    p[i] = i % 9 == 4 ? opt_key{} : opt_key(dense ? k : k * 1000003);
  }
  return p;
}

}  // namespace joinery::test
