#pragma once
/// @file
/// The allocator of the kernel's large internal arrays (an arrangement's
/// slots, filter and positions; match-set position columns).
///
/// A probe or an insert reads one random slot of a table that is often tens
/// of MiB: with 4 KiB pages nearly every such read also misses the TLB and
/// walks the page table, and building the table faults once per 4 KiB. On
/// Linux, a block of at least `huge_page_allocator_threshold` bytes is mapped
/// on its own, aligned to 2 MiB and marked `MADV_HUGEPAGE`, so transparent
/// huge pages back it where the system allows them ("madvise" or "always").
/// Smaller blocks, and every block elsewhere, come from `std::allocator`.
/// Either way the memory is the same zeroed anonymous memory: this changes no
/// value and no order, only the page size.
///
/// Where the kernel compacts memory to find a huge page ("defrag" set to
/// "madvise" on a fragmented machine) a fault can stall; define
/// `JOINERY_HUGE_PAGES=0` to keep every block on `std::allocator`.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#ifndef JOINERY_HUGE_PAGES
#define JOINERY_HUGE_PAGES 1
#endif
#if defined(__linux__) && JOINERY_HUGE_PAGES
#define JOINERY_DETAIL_HUGE_PAGES 1
#include <sys/mman.h>
#else
#define JOINERY_DETAIL_HUGE_PAGES 0
#endif

namespace joinery::exec::detail {

inline constexpr std::size_t huge_page_size = std::size_t{2} << 20;
/// Blocks from this size up get their own mapping (its last 2 MiB page is
/// partly used: under a third of such a block), and result columns from
/// this size up are advised (`advise_huge_pages`). Measured: at 4 MiB a 10^6
/// row materialization takes 0.7x the time it takes at 8 MiB.
inline constexpr std::size_t huge_page_allocator_threshold = 2 * huge_page_size;

#if JOINERY_DETAIL_HUGE_PAGES
/// A fresh mapping of `bytes` (a multiple of the huge page size) aligned to a
/// huge page, or nullptr.
inline void* map_huge_aligned(std::size_t bytes) noexcept {
  const std::size_t span = bytes + huge_page_size;
  void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto at = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t start = (at + huge_page_size - 1) & ~std::uintptr_t{huge_page_size - 1};
  const std::uintptr_t end = start + bytes;
  // Give back the unaligned head and the tail beyond the block.
  if (start != at) ::munmap(raw, start - at);
  if (at + span != end) ::munmap(reinterpret_cast<void*>(end), at + span - end);
  void* p = reinterpret_cast<void*>(start);
  // Advice only: where huge pages are off it fails and the block is still good.
  (void)::madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}
#endif

/// Advises huge pages for the whole 2 MiB pages inside [p, p + bytes), a
/// block not yet written (a result column just reserved); pages already
/// touched keep their size. This is how memory the kernel does not allocate
/// itself (a relation's `std::vector` column) gets large pages. Nothing
/// below the threshold or off Linux.
inline void advise_huge_pages(void* p, std::size_t bytes) noexcept {
#if JOINERY_DETAIL_HUGE_PAGES
  if (bytes < huge_page_allocator_threshold) return;
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t start = (at + huge_page_size - 1) & ~std::uintptr_t{huge_page_size - 1};
  const std::uintptr_t end = (at + bytes) & ~std::uintptr_t{huge_page_size - 1};
  if (start < end) (void)::madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

/// `std::allocator` for small blocks; large ones in huge pages (see above).
template <class T>
struct huge_page_allocator {
  using value_type = T;

  huge_page_allocator() noexcept = default;
  template <class U>
  huge_page_allocator(const huge_page_allocator<U>&) noexcept {}  // converting, as allocators are

  [[nodiscard]] T* allocate(std::size_t n) {
#if JOINERY_DETAIL_HUGE_PAGES
    if (n > std::allocator_traits<std::allocator<T>>::max_size(std::allocator<T>{})) throw std::bad_array_new_length();
    if (const std::size_t bytes = mapped_bytes(n)) {
      void* p = map_huge_aligned(bytes);
      if (!p) throw std::bad_alloc();
      return static_cast<T*>(p);
    }
#endif
    return std::allocator<T>{}.allocate(n);
  }

  void deallocate(T* p, std::size_t n) noexcept {
#if JOINERY_DETAIL_HUGE_PAGES
    if (const std::size_t bytes = mapped_bytes(n)) {
      ::munmap(p, bytes);
      return;
    }
#endif
    std::allocator<T>{}.deallocate(p, n);
  }

  template <class U>
  friend bool operator==(const huge_page_allocator&, const huge_page_allocator<U>&) noexcept {
    return true;
  }

 private:
  /// The mapping of a block of `n` elements: its size, or 0 when the block
  /// comes from `std::allocator`.
  static std::size_t mapped_bytes(std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_page_allocator_threshold) return 0;
    return (bytes + huge_page_size - 1) & ~(huge_page_size - 1);
  }
};

/// A vector of the kernel's large internal arrays.
template <class T>
using huge_page_vector = std::vector<T, huge_page_allocator<T>>;

}  // namespace joinery::exec::detail
