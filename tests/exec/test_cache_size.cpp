// exec::last_level_cache_bytes and exec::core_cache_bytes as the machine
// reports them (this suite is built without JOINERY_LAST_LEVEL_CACHE_BYTES),
// and the kernel's cache-relative limits following them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#if defined(__linux__)
#include <unistd.h>
#endif

#include <joinery/exec/arrangement.hpp>
#include <joinery/exec/cache_size.hpp>

namespace ex = joinery::exec;

TEST_CASE("joinery.exec.cache_size.read_from_the_system") {
  const std::size_t llc = ex::last_level_cache_bytes();
  CHECK(llc == ex::detail::system_last_level_cache_bytes());
  CHECK(llc == ex::last_level_cache_bytes());  // read once, the same every time
#if defined(_SC_LEVEL3_CACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
  const long l3 = ::sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = ::sysconf(_SC_LEVEL2_CACHE_SIZE);
  const std::size_t expected = l3 > 0   ? static_cast<std::size_t>(l3)
                               : l2 > 0 ? static_cast<std::size_t>(l2)
                                        : ex::detail::default_last_level_cache_bytes;
  CHECK(llc == expected);
#else
  CHECK(llc == ex::detail::default_last_level_cache_bytes);
#endif
}

TEST_CASE("joinery.exec.cache_size.sysfs_sizes_are_parsed") {
  STATIC_REQUIRE(ex::detail::parse_cache_size("8192K\n") == std::size_t{8} << 20);
  STATIC_REQUIRE(ex::detail::parse_cache_size("32M") == std::size_t{32} << 20);
  STATIC_REQUIRE(ex::detail::parse_cache_size("1G\n") == std::size_t{1} << 30);
  STATIC_REQUIRE(ex::detail::parse_cache_size("512") == 512);
  STATIC_REQUIRE(ex::detail::parse_cache_size("3\n") == 3);  // a level file
  // Not a size: 0, so the caller keeps the last-level cache's.
  STATIC_REQUIRE(ex::detail::parse_cache_size("") == 0);
  STATIC_REQUIRE(ex::detail::parse_cache_size("K") == 0);
  STATIC_REQUIRE(ex::detail::parse_cache_size("12X") == 0);
  STATIC_REQUIRE(ex::detail::parse_cache_size("8192K junk") == 0);
  STATIC_REQUIRE(ex::detail::parse_cache_size("-1K") == 0);
  STATIC_REQUIRE(ex::detail::parse_cache_size("99999999999999999999K") == 0);
}

TEST_CASE("joinery.exec.cache_size.core_cache_from_sysfs") {
  // The smaller of the two sizes; the last-level cache's if sysfs says nothing.
  CHECK(ex::detail::system_core_cache_bytes(std::size_t{64} << 20, std::size_t{8} << 20) == std::size_t{8} << 20);
  CHECK(ex::detail::system_core_cache_bytes(std::size_t{8} << 20, std::size_t{64} << 20) == std::size_t{8} << 20);
  CHECK(ex::detail::system_core_cache_bytes(std::size_t{32} << 20, 0) == std::size_t{32} << 20);

  // CPU 0's highest-level cache as this machine's sysfs lists it, read here
  // independently of the parser above.
  std::size_t level = 0, bytes = 0;
  const std::filesystem::path dir = "/sys/devices/system/cpu/cpu0/cache";
  std::error_code ec;
  for (unsigned index = 0; index < 8; ++index) {
    const std::filesystem::path entry = dir / ("index" + std::to_string(index));
    if (!std::filesystem::exists(entry, ec)) continue;
    std::size_t l = 0;
    std::string size;
    std::ifstream(entry / "level") >> l;
    std::ifstream(entry / "size") >> size;
    if (l <= level || size.empty()) continue;
    const char unit = size.back();
    std::size_t value = std::stoull(size);
    value <<= unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : 0;
    level = l;
    bytes = value;
  }
  CHECK(ex::detail::sysfs_core_cache_bytes() == bytes);
  const std::size_t llc = ex::last_level_cache_bytes();
  CHECK(ex::core_cache_bytes() == (bytes != 0 ? std::min(llc, bytes) : llc));
  CHECK(ex::core_cache_bytes() == ex::core_cache_bytes());  // read once
}

TEST_CASE("joinery.exec.cache_size.limits_follow_the_cache") {
  using arr = ex::arrangement<std::int64_t>;
  const std::size_t half = ex::last_level_cache_bytes() / 2;
  CHECK(arr::filter_min_table_bytes() == half);
  CHECK(arr::fold_in_table_max_bytes() == half);
  CHECK(arr::guessless_max_table_bytes() == ex::core_cache_bytes());
  struct acc {
    std::int64_t count = 0, sum = 0;
  };
  // The largest power-of-two group count folded in the table: twice as many
  // are not; folds on threads keep the limit of a 32 MiB cache.
  std::size_t g = 1;
  while (arr::folds_in_table<acc>(g * 2)) g *= 2;
  CHECK(arr::folds_in_table<acc>(g));
  CHECK_FALSE(arr::folds_in_table<acc>(g, g * 32 / 4));
  CHECK(arr::fold_in_table_shared_max_bytes == std::size_t{16} << 20);
  // A one-thread fold of n rows keeps its table up to 16 bytes a row where
  // that is more than half the cache: 10^6 groups of 10^7 rows fold in one
  // pass; of 10^6 rows only where half the cache holds their table (2^21
  // slots of 32 bytes: a guest may report a host's whole L3, e.g. 320 MiB).
  CHECK(arr::fold_in_table_limit_bytes(0) == half);
  CHECK(arr::fold_in_table_limit_bytes(half / 16) == half);
  CHECK(arr::fold_in_table_limit_bytes(10'000'000) == std::max(half, std::size_t{160'000'000}));
  CHECK(arr::folds_in_table<acc>(1'000'000, arr::fold_in_table_limit_bytes(10'000'000)));
  CHECK(arr::folds_in_table<acc>(1'000'000, arr::fold_in_table_limit_bytes(1'000'000)) ==
        (half >= (std::size_t{64} << 20)));
  CHECK_FALSE(arr::folds_in_table<acc>(1'000'000, 16'000'000));
  CHECK(arr::fold_in_table_limit_bytes(1'000'000, std::size_t{1} << 20) == 16'000'000);
  CHECK(arr::fold_in_table_limit_bytes(1'000, std::size_t{1} << 20) == std::size_t{1} << 20);
}
