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
/// `core_cache_bytes` is the smaller size Linux's sysfs gives for the
/// cache one core reaches. The guessless lookup of a unique build waits on
/// its slot, so it needs the slot to be there: it follows this size.
///
/// Define `JOINERY_LAST_LEVEL_CACHE_BYTES` to fix both (the project's tests do,
/// so that the choices they check are the same on every machine), with the
/// same value in every translation unit of a program: the functions below
/// are inline, and differing definitions would break the one-definition rule.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <string_view>

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

/// A sysfs cache size ("8192K\n", "32M"): bytes, or 0 if the text is not one.
constexpr std::size_t parse_cache_size(std::string_view text) noexcept {
  std::size_t value = 0, digits = 0;
  for (; digits < text.size() && text[digits] >= '0' && text[digits] <= '9'; ++digits) {
    if (value > (std::size_t{1} << 40)) return 0;  // no cache is this large: not a size
    value = value * 10 + static_cast<std::size_t>(text[digits] - '0');
  }
  if (digits == 0) return 0;
  text.remove_prefix(digits);
  std::size_t unit = 1;
  if (!text.empty() && (text[0] == 'K' || text[0] == 'M' || text[0] == 'G')) {
    unit = text[0] == 'K' ? std::size_t{1} << 10 : text[0] == 'M' ? std::size_t{1} << 20 : std::size_t{1} << 30;
    text.remove_prefix(1);
  }
  if (!text.empty() && text != "\n") return 0;
  return value * unit;
}

/// The size of the highest-level cache of CPU 0 in Linux's sysfs, or 0.
inline std::size_t sysfs_core_cache_bytes() noexcept {
  std::size_t best_level = 0, best_bytes = 0;
  char path[64], text[32];
  auto read = [&](unsigned index, const char* file) -> std::string_view {
    std::snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%u/%s", index, file);
    std::FILE* f = std::fopen(path, "r");
    if (!f) return {};
    const std::size_t n = std::fread(text, 1, sizeof text, f);
    std::fclose(f);
    return {text, n < sizeof text ? n : 0};
  };
  for (unsigned index = 0; index < 8; ++index) {
    const std::size_t level = parse_cache_size(read(index, "level"));  // a bare number
    if (level <= best_level) continue;
    if (const std::size_t bytes = parse_cache_size(read(index, "size")); bytes != 0) {
      best_level = level;
      best_bytes = bytes;
    }
  }
  return best_bytes;
}

/// The smaller of the last-level cache and sysfs's size for CPU 0's, if sysfs says.
inline std::size_t system_core_cache_bytes(std::size_t last_level, std::size_t sysfs) noexcept {
  return sysfs != 0 ? std::min(last_level, sysfs) : last_level;
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

/// The cache one core reaches, in bytes: `JOINERY_LAST_LEVEL_CACHE_BYTES` if
/// defined, else the smaller of `last_level_cache_bytes()` and sysfs's size
/// for CPU 0's highest-level cache, read once.
inline std::size_t core_cache_bytes() noexcept {
#if defined(JOINERY_LAST_LEVEL_CACHE_BYTES)
  return static_cast<std::size_t>(JOINERY_LAST_LEVEL_CACHE_BYTES);
#else
  static const std::size_t bytes =
      detail::system_core_cache_bytes(last_level_cache_bytes(), detail::sysfs_core_cache_bytes());
  return bytes;
#endif
}

}  // namespace joinery::exec
