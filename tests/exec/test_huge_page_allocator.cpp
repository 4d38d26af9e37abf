// exec::detail::huge_page_allocator: small blocks as std::allocator, mid-size
// ones in their own mapping of whole pages, large ones in their own 2 MiB-
// aligned mapping advised for huge pages; mapped blocks are kept for reuse
// when freed (within a byte limit and a slot count); values and growth
// behave as with any allocator.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <joinery/exec/arrangement.hpp>
#include <joinery/exec/huge_page_allocator.hpp>
#include <joinery/exec/match_set.hpp>

namespace ex = joinery::exec;
namespace dt = joinery::exec::detail;

namespace {
constexpr std::size_t large_count = dt::huge_page_allocator_threshold / sizeof(std::uint64_t) + 3;

bool aligned_to(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

#if defined(__linux__)
/// The VmFlags line of the mapping that holds `p` in /proc/self/smaps ("" if none).
std::string vm_flags_of(const void* p) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= at && at < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return {};
}
/// Whether this system has transparent huge pages at all (the advice is then recorded).
bool thp_available() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string s;
  std::getline(f, s);
  return !s.empty() && s.find("[never]") == std::string::npos;
}
#endif
}  // namespace

TEST_CASE("huge_page_allocator: a small block is an ordinary one", "[exec][memory]") {
  dt::huge_page_allocator<std::uint64_t> a;
  std::uint64_t* p = a.allocate(1000);
  for (std::size_t i = 0; i < 1000; ++i) p[i] = i * 7;
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < 1000; ++i) sum += p[i];
  CHECK(sum == 7 * 999 * 1000 / 2);
  CHECK(aligned_to(p, alignof(std::uint64_t)));
  a.deallocate(p, 1000);
}

TEST_CASE("huge_page_allocator: a large block is 2 MiB aligned, fully writable, and advised", "[exec][memory]") {
  dt::huge_page_allocator<std::uint64_t> a;
  std::uint64_t* p = a.allocate(large_count);
  for (std::size_t i = 0; i < large_count; ++i) p[i] = i;
  CHECK(p[0] == 0);
  CHECK(p[large_count - 1] == large_count - 1);
#if JOINERY_DETAIL_HUGE_PAGES
  CHECK(aligned_to(p, dt::huge_page_size));
  if (thp_available()) {
    const std::string flags = vm_flags_of(p);
    INFO(flags);
    CHECK(flags.find(" hg") != std::string::npos);
  }
#endif
  a.deallocate(p, large_count);
}

TEST_CASE("advise_huge_pages: the whole 2 MiB pages inside a reserved block are advised", "[exec][memory]") {
  std::vector<double> column;
  column.reserve(3 * dt::huge_page_size / sizeof(double));
  dt::advise_huge_pages(column.data(), column.capacity() * sizeof(double));
  column.assign(column.capacity(), 1.5);  // values unchanged by the advice
  CHECK(column.back() == 1.5);
#if JOINERY_DETAIL_HUGE_PAGES
  const auto at = reinterpret_cast<std::uintptr_t>(column.data());
  const auto inside = (at + dt::huge_page_size - 1) & ~std::uintptr_t{dt::huge_page_size - 1};
  if (thp_available()) {
    const std::string flags = vm_flags_of(reinterpret_cast<const void*>(inside));
    INFO(flags);
    CHECK(flags.find(" hg") != std::string::npos);
  }
#endif
  std::vector<double> small(100, 2.0);
  dt::advise_huge_pages(small.data(), small.size() * sizeof(double));  // below the threshold: nothing
  CHECK(small[99] == 2.0);
}

TEST_CASE("huge_page_allocator: a vector grown across the threshold keeps every value", "[exec][memory]") {
  dt::huge_page_vector<std::uint32_t> v;
  const std::size_t n = 2 * dt::huge_page_allocator_threshold / sizeof(std::uint32_t) + 17;
  for (std::size_t i = 0; i < n; ++i) v.push_back(static_cast<std::uint32_t>(i * 2654435761U));
  REQUIRE(v.size() == n);
  bool all = true;
  for (std::size_t i = 0; i < n; ++i) all = all && v[i] == static_cast<std::uint32_t>(i * 2654435761U);
  CHECK(all);
  v.resize(10);  // shrinking, then copying back below the threshold
  dt::huge_page_vector<std::uint32_t> w(v);
  CHECK(w == v);
  v.shrink_to_fit();
  CHECK(v.size() == 10);
  CHECK(v[9] == static_cast<std::uint32_t>(9 * 2654435761U));
}

TEST_CASE("huge_page_allocator: a count beyond max_size is refused", "[exec][memory]") {
  dt::huge_page_allocator<std::uint64_t> a;
  CHECK_THROWS_AS((void)a.allocate(~std::size_t{0} / 4), std::bad_array_new_length);
}

TEST_CASE("huge_page_allocator: position columns and arrangements beyond the threshold", "[exec][memory]") {
  ex::position_column col(large_count);  // default-initialised: written right after
  for (std::size_t i = 0; i < col.size(); ++i) col[i] = static_cast<std::uint32_t>(i);
  CHECK(col[large_count - 1] == large_count - 1);

  // 600k distinct keys: a slot array of several MiB, found row for row.
  const std::size_t n = 600000;
  ex::arrangement<std::int64_t> arr;
  arr.build(n, [](std::size_t i) { return std::optional<std::int64_t>(static_cast<std::int64_t>(i) * 1000003); });
  bool all = true;
  for (std::size_t i = 0; i < n; i += 997) {
    const auto rows = arr.matches(static_cast<std::int64_t>(i) * 1000003);
    all = all && rows.size() == 1 && rows[0] == i;
  }
  CHECK(all);
  CHECK(arr.find(7) == ex::no_group);
}

namespace {
/// The mapping a large block of `bytes` gets: whole 2 MiB pages.
constexpr std::size_t mapping_of(std::size_t bytes) {
  return (bytes + dt::huge_page_size - 1) & ~(dt::huge_page_size - 1);
}
}  // namespace

TEST_CASE("huge_page_allocator: a freed large block is kept for the next block of its size", "[exec][memory]") {
  ex::release_retained_memory();
  REQUIRE(ex::retained_memory_bytes() == 0);
  dt::huge_page_vector<std::uint64_t> first(large_count, 7);
  const void* at = first.data();
  dt::huge_page_vector<std::uint64_t>().swap(first);  // freed
#if JOINERY_DETAIL_HUGE_PAGES
  if constexpr (ex::retained_memory_max_bytes >= mapping_of(large_count * sizeof(std::uint64_t))) {
    CHECK(ex::retained_memory_bytes() == mapping_of(large_count * sizeof(std::uint64_t)));
    // Another size is mapped afresh and leaves the kept block alone.
    dt::huge_page_vector<std::uint64_t> other(2 * large_count);
    CHECK(static_cast<const void*>(other.data()) != at);
    CHECK(ex::retained_memory_bytes() == mapping_of(large_count * sizeof(std::uint64_t)));
    // The same size gets the kept block, and the vector still starts from zeros, not the 7s.
    dt::huge_page_vector<std::uint64_t> again(large_count);
    CHECK(static_cast<const void*>(again.data()) == at);
    CHECK(ex::retained_memory_bytes() == 0);
    bool zeros = true;
    for (const std::uint64_t x : again) zeros = zeros && x == 0;
    CHECK(zeros);
    CHECK(aligned_to(again.data(), dt::huge_page_size));
  }
#endif
  (void)at;
  const std::size_t kept = ex::retained_memory_bytes();
  CHECK(ex::release_retained_memory() == kept);
  CHECK(ex::retained_memory_bytes() == 0);
  CHECK(ex::release_retained_memory() == 0);
}

namespace {
/// The mapping a mid-size block of `bytes` gets: whole small pages.
constexpr std::size_t pages_of(std::size_t bytes) {
  return (bytes + dt::small_page_size - 1) & ~(dt::small_page_size - 1);
}
}  // namespace

TEST_CASE("huge_page_allocator: a mid-size block is mapped in whole pages and kept for the next block of its size",
          "[exec][memory]") {
  ex::release_retained_memory();
  REQUIRE(ex::retained_memory_bytes() == 0);
  // 400,000 bytes: a 10^5-entry array of 4-byte ids, between the two thresholds.
  constexpr std::size_t count = 100000;
  static_assert(count * sizeof(std::uint32_t) >= dt::retained_block_min_bytes &&
                pages_of(count * sizeof(std::uint32_t)) < dt::huge_page_allocator_threshold);
  dt::huge_page_vector<std::uint32_t> first(count, 7U);
  const void* at = first.data();
  dt::huge_page_vector<std::uint32_t>().swap(first);  // freed
#if JOINERY_DETAIL_HUGE_PAGES
  if constexpr (ex::retained_memory_max_bytes >= pages_of(count * sizeof(std::uint32_t))) {
    CHECK(aligned_to(at, dt::small_page_size));
    CHECK(ex::retained_memory_bytes() == pages_of(count * sizeof(std::uint32_t)));
    // One element more is still the same pages (400,004 bytes round to the same 98): it takes the kept block.
    dt::huge_page_vector<std::uint32_t> again(count + 1);
    CHECK(static_cast<const void*>(again.data()) == at);
    CHECK(ex::retained_memory_bytes() == 0);
    bool zeros = true;
    for (const std::uint32_t x : again) zeros = zeros && x == 0;
    CHECK(zeros);
  }
#endif
  (void)at;
  ex::release_retained_memory();
}

TEST_CASE("huge_page_allocator: a block below the mid size is not kept; one whose pages reach the threshold is large",
          "[exec][memory]") {
  ex::release_retained_memory();
  dt::huge_page_allocator<std::byte> a;
  std::byte* small = a.allocate(dt::retained_block_min_bytes - 1);
  small[dt::retained_block_min_bytes - 2] = std::byte{1};
  a.deallocate(small, dt::retained_block_min_bytes - 1);
  CHECK(ex::retained_memory_bytes() == 0);
  // One byte short of the threshold rounds up to it in small pages: mapped as a large block.
  const std::size_t edge = dt::huge_page_allocator_threshold - 1;
  std::byte* large = a.allocate(edge);
  large[edge - 1] = std::byte{2};
#if JOINERY_DETAIL_HUGE_PAGES
  CHECK(aligned_to(large, dt::huge_page_size));
#endif
  a.deallocate(large, edge);
#if JOINERY_DETAIL_HUGE_PAGES
  if constexpr (ex::retained_memory_max_bytes >= dt::huge_page_allocator_threshold)
    CHECK(ex::retained_memory_bytes() == dt::huge_page_allocator_threshold);
#endif
  ex::release_retained_memory();
}

TEST_CASE("huge_page_allocator: a dense build's group arrays are sized once and taken again by the next build",
          "[exec][memory]") {
  ex::release_retained_memory();
  // 10^5 distinct dense keys in shuffled rows: a direct layout.
  constexpr std::size_t n = 100000;
  auto key_at = [](std::size_t i) { return std::optional<std::int64_t>(static_cast<std::int64_t>(i * 1000003 % n)); };
  // Ids per key (4 bytes), and per group its key (8) and founding row (4):
  // sized from the sample, with no block left over from growing them.
  constexpr std::size_t direct = n * sizeof(ex::group_id), keys = n * sizeof(std::int64_t),
                        founders = n * sizeof(ex::row_pos);
  std::size_t kept = 0;
  {
    ex::arrangement<std::int64_t> arr;
    arr.build(n, key_at);
    REQUIRE(arr.index_layout() == ex::arrangement<std::int64_t>::layout::direct);
    CHECK(arr.memory_bytes() == direct + keys + founders);
  }
#if JOINERY_DETAIL_HUGE_PAGES
  if constexpr (ex::retained_memory_max_bytes >= 2 * dt::huge_page_allocator_threshold) {
    kept = ex::retained_memory_bytes();
    CHECK(kept == pages_of(direct) + pages_of(keys) + pages_of(founders));
    {
      ex::arrangement<std::int64_t> arr;
      arr.build(n, key_at);
      CHECK(ex::retained_memory_bytes() == 0);  // every array from a kept block: no fresh page
      CHECK(arr.matches(std::int64_t{99999}).size() == 1);
    }
    CHECK(ex::retained_memory_bytes() == kept);
  }
#endif
  (void)kept;
  ex::release_retained_memory();
}

TEST_CASE("huge_page_allocator: the kept blocks stay within the byte limit, the oldest given back first",
          "[exec][memory]") {
  ex::release_retained_memory();
  dt::huge_page_allocator<std::byte> a;
  // Blocks never written: address space only. Three of a third of the limit fit.
  const std::size_t third = ex::retained_memory_max_bytes / 3 / dt::huge_page_size * dt::huge_page_size;
  if (third < dt::huge_page_allocator_threshold) {
    // A limit too small for the test's blocks (or 0): nothing of this size is kept.
    std::byte* p = a.allocate(dt::huge_page_allocator_threshold);
    a.deallocate(p, dt::huge_page_allocator_threshold);
    CHECK(ex::retained_memory_bytes() <= ex::retained_memory_max_bytes);
    return;
  }
  std::byte* b1 = a.allocate(third);
  std::byte* b2 = a.allocate(third);
  std::byte* b3 = a.allocate(third);
  std::byte* b4 = a.allocate(third);
  a.deallocate(b1, third);
  a.deallocate(b2, third);
  a.deallocate(b3, third);
#if JOINERY_DETAIL_HUGE_PAGES
  CHECK(ex::retained_memory_bytes() == 3 * third);
  a.deallocate(b4, third);  // a fourth: b1, the oldest, is given back to make room
  CHECK(ex::retained_memory_bytes() == 3 * third);
  // The three kept ones come back most recent first; then the size is mapped afresh.
  std::byte* r4 = a.allocate(third);
  std::byte* r3 = a.allocate(third);
  std::byte* r2 = a.allocate(third);
  CHECK(r4 == b4);
  CHECK(r3 == b3);
  CHECK(r2 == b2);
  CHECK(ex::retained_memory_bytes() == 0);
  std::byte* fresh = a.allocate(third);
  CHECK(ex::retained_memory_bytes() == 0);
  for (std::byte* p : {r4, r3, r2, fresh}) a.deallocate(p, third);
  // A block beyond the limit on its own is given back at once.
  ex::release_retained_memory();
  const std::size_t beyond = ex::retained_memory_max_bytes + dt::huge_page_size;
  std::byte* big = a.allocate(beyond);
  a.deallocate(big, beyond);
  CHECK(ex::retained_memory_bytes() == 0);
#else
  a.deallocate(b4, third);
  CHECK(ex::retained_memory_bytes() == 0);
#endif
  ex::release_retained_memory();
}

TEST_CASE("huge_page_allocator: at most the slot count of blocks is kept", "[exec][memory]") {
#if JOINERY_DETAIL_HUGE_PAGES
  ex::release_retained_memory();
  dt::huge_page_allocator<std::byte> a;
  constexpr std::size_t block = dt::huge_page_allocator_threshold;
  constexpr std::size_t count = dt::retained_mappings::slots + 3;
  if constexpr (count * block <= ex::retained_memory_max_bytes) {
    std::vector<std::byte*> blocks;
    for (std::size_t i = 0; i < count; ++i) blocks.push_back(a.allocate(block));
    for (std::byte* p : blocks) a.deallocate(p, block);
    CHECK(ex::retained_memory_bytes() == dt::retained_mappings::slots * block);
    // The most recent comes back first; the three oldest were given back.
    std::byte* again = a.allocate(block);
    CHECK(again == blocks.back());
    a.deallocate(again, block);
  }
  ex::release_retained_memory();
#endif
  SUCCEED();
}

TEST_CASE("huge_page_allocator: threads freeing and taking blocks each keep their own values", "[exec][memory]") {
  ex::release_retained_memory();
  std::atomic<int> wrong{0};
  auto work = [&](std::uint64_t id) {
    for (int round = 0; round < 50; ++round) {
      dt::huge_page_vector<std::uint64_t> v(large_count, id);
      v[large_count / 2] = id + 1;
      std::uint64_t sum = 0;
      for (const std::uint64_t x : v) sum += x;
      if (sum != id * large_count + 1) ++wrong;
    }
  };
  std::thread other(work, 1000);
  work(2000);
  other.join();
  CHECK(wrong.load() == 0);
  CHECK(ex::retained_memory_bytes() <= 2 * mapping_of(large_count * sizeof(std::uint64_t)));
  ex::release_retained_memory();
}
