#pragma once
// Shared benchmark data: int64 keys scrambled by a strong mixer and spread
// over a wide range, so no hidden regularity favours one table layout.
#include <cstdint>
#include <vector>

namespace joinery::bench {

inline std::uint64_t splitmix64(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The sparse key of dimension row i (i < 2^26): a bijective scramble of i
/// (xorshift and odd multiplications within 26 bits), spread x1000003, so
/// distinct rows always get distinct keys.
inline std::int64_t sparse_key(std::uint64_t i) {
  constexpr std::uint64_t mask = (std::uint64_t{1} << 26) - 1;
  std::uint64_t x = i & mask;
  for (int r = 0; r < 3; ++r) {
    x ^= x >> 13;
    x = (x * 0x5bd1e995ULL) & mask;
  }
  return static_cast<std::int64_t>(x * 1000003ULL);
}

/// `n` fact-side foreign keys drawn uniformly from the `m` dimension keys.
inline std::vector<std::int64_t> fact_keys(std::size_t n, std::size_t m, std::uint64_t seed = 42) {
  std::vector<std::int64_t> out(n);
  for (auto& k : out) k = sparse_key(splitmix64(seed) % m);
  return out;
}

inline std::vector<std::int64_t> dim_keys(std::size_t m) {
  std::vector<std::int64_t> out(m);
  for (std::size_t i = 0; i < m; ++i) out[i] = sparse_key(i);
  return out;
}

}  // namespace joinery::bench
