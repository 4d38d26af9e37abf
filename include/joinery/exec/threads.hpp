#pragma once
/// @file
/// `exec::threads(n)`: the parallelism policy a front door passes to the
/// kernel, and the fork/join helper that runs contiguous parts of a range.
///
/// Order is kept by construction: part p covers rows [begin_p, end_p) with
/// begin_0 = 0 < end_0 = begin_1 < ... , each part writes only its own
/// output, and the caller concatenates (or merges) the parts in part order.
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace joinery::exec {

/// Rows below which a range is not split (thread start-up costs more than it saves).
inline constexpr std::size_t min_rows_per_thread = std::size_t{1} << 15;

/// Parallelism policy: at most `count` threads (the calling one included),
/// each given at least `grain` rows. `threads(1)` is the serial kernel; 0 means 1.
///
/// Example: `exec::probe_parts<join_kind::inner>(exec::threads(2), arr, n, key_at, accept, make_sink)`.
struct threads {
  unsigned count = 1;
  std::size_t grain = min_rows_per_thread;
  constexpr explicit threads(unsigned n = 1, std::size_t min_rows = min_rows_per_thread) noexcept
      : count(n == 0 ? 1 : n), grain(min_rows == 0 ? 1 : min_rows) {}
};

namespace detail {

/// Number of contiguous parts `n` rows are cut into under policy `t`.
inline std::size_t part_count(threads t, std::size_t n) noexcept {
  std::size_t p = t.count;
  while (p > 1 && n / p < t.grain) --p;
  return p;
}
/// First row of part `p` of `parts` over [0, n).
inline std::size_t part_begin(std::size_t n, std::size_t parts, std::size_t p) noexcept {
  return n / parts * p + n % parts * p / parts;  // floor(n * p / parts) without overflow
}

/// Runs `part(p, begin, end)` for every part, part 0 on the calling thread,
/// the others on their own threads; joins all, then rethrows the exception of
/// the lowest-numbered part that threw (so a failure is reported
/// deterministically and no thread outlives the call).
template <class Part>
void run_parts(std::size_t parts, std::size_t n, Part& part) {
  if (parts <= 1) {
    part(std::size_t{0}, std::size_t{0}, n);
    return;
  }
  std::vector<std::exception_ptr> errors(parts);
  auto guarded = [&](std::size_t p) {
    try {
      part(p, part_begin(n, parts, p), part_begin(n, parts, p + 1));
    } catch (...) {
      errors[p] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(parts - 1);
  std::size_t started = 1;
  try {
    for (; started < parts; ++started) pool.emplace_back(guarded, started);
  } catch (...) {
    // Could not start a thread: run the remaining parts here.
    for (std::size_t p = started; p < parts; ++p) guarded(p);
  }
  guarded(0);
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace detail
}  // namespace joinery::exec
