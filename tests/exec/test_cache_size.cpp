// exec::last_level_cache_bytes as the machine reports it (this suite is
// built without JOINERY_LAST_LEVEL_CACHE_BYTES), and the kernel's two
// cache-relative limits following it.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>

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

TEST_CASE("joinery.exec.cache_size.limits_are_half_the_cache") {
  using arr = ex::arrangement<std::int64_t>;
  const std::size_t half = ex::last_level_cache_bytes() / 2;
  CHECK(arr::filter_min_table_bytes() == half);
  CHECK(arr::fold_in_table_max_bytes() == half);
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
}
