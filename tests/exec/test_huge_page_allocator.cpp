// exec::detail::huge_page_allocator: small blocks as std::allocator, large
// ones in their own 2 MiB-aligned mapping advised for huge pages; values and
// growth behave as with any allocator.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <new>
#include <optional>
#include <sstream>
#include <string>
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
