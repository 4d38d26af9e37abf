#pragma once
/// @file
/// The last-level cache's size: where the kernel's tables stop being "in
/// cache". A hashed arrangement keeps a key filter only beyond half of it,
/// and a group-by folds in its table only within half of it. Both choices
/// were measured to flip there on two machines whose last-level caches
/// differ eightfold (32 MiB: 16 MiB tables; 260 MiB: 128 MiB tables), so
/// the size is read from the machine rather than fixed. It is the size
/// glibc's `sysconf` reports, which can exceed what one core uses: on a
/// first-generation EPYC guest it said 64 MiB where Linux's sysfs says 8,
/// and there the 32 MiB limits measured faster than 4 MiB ones would
/// (docs/performance.md, "Not done").
///
/// Define `JOINERY_LAST_LEVEL_CACHE_BYTES` to fix it (the project's tests do,
/// so that the choices they check are the same on every machine), with the
/// same value in every translation unit of a program: the functions below
/// are inline, and differing definitions would break the one-definition rule.
#include <cstddef>
#include <initializer_list>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace joinery::exec {

namespace detail {
/// Assumed where the system does not say: the size the thresholds were first tuned on.
inline constexpr std::size_t default_last_level_cache_bytes = std::size_t{32} << 20;

/// The system's last-level cache (glibc's `sysconf`: L3, else L2), or the default.
inline std::size_t system_last_level_cache_bytes() noexcept {
#if defined(_SC_LEVEL3_CACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
  for (const int level : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
    const long bytes = ::sysconf(level);
    if (bytes > 0) return static_cast<std::size_t>(bytes);
  }
#endif
  return default_last_level_cache_bytes;
}
}  // namespace detail

/// The last-level cache's size in bytes: `JOINERY_LAST_LEVEL_CACHE_BYTES` if
/// defined, else the system's, read once.
inline std::size_t last_level_cache_bytes() noexcept {
#if defined(JOINERY_LAST_LEVEL_CACHE_BYTES)
  return static_cast<std::size_t>(JOINERY_LAST_LEVEL_CACHE_BYTES);
#else
  static const std::size_t bytes = detail::system_last_level_cache_bytes();
  return bytes;
#endif
}

}  // namespace joinery::exec
