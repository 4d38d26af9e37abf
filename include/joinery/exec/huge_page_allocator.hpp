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
/// A block from `retained_block_min_bytes` up to that threshold is mapped on
/// its own too, in whole 4 KiB pages without the advice, only so that it can
/// be kept when freed (below). Smaller blocks, and every block elsewhere,
/// come from `std::allocator`.
/// As from any allocator, a block's contents are unspecified until written
/// (the containers construct their elements): this changes no value and no
/// order, only the page size and where the memory comes from.
///
/// Where the kernel compacts memory to find a huge page ("defrag" set to
/// "madvise" on a fragmented machine) a fault can stall; define
/// `JOINERY_HUGE_PAGES=0` to keep every block on `std::allocator`.
///
/// A freed mapping is kept for the next block of exactly its size
/// (`exec::retained_memory_bytes`, up to `exec::retained_memory_max_bytes`)
/// rather than given back at once: memory fresh from the system costs a
/// fault and a zero fill per page, and on a virtual machine that reports
/// free pages to its host (virtio-balloon free page reporting) a fault on
/// the host as well. That holds for the few-hundred-KiB arrays of a small
/// build as much as for large ones, which `std::allocator` (glibc) maps
/// and unmaps, or trims from its heap, at every build (a 10^5-key build of
/// dense keys: 517 faults, 9 of its 16 ms on an AMD family 26 guest).
/// `exec::release_retained_memory()` gives it all back.
/// Define `JOINERY_HUGE_PAGES` and `JOINERY_RETAINED_MEMORY_BYTES` alike in
/// every translation unit of a program (they change inline definitions).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <thread>
#include <type_traits>
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

/// Bytes of freed mappings kept for reuse at most (see above); 0 keeps none.
#ifndef JOINERY_RETAINED_MEMORY_BYTES
#define JOINERY_RETAINED_MEMORY_BYTES (std::size_t{1} << 30)
#endif

namespace joinery::exec {
/// The most bytes of freed mappings kept for the next block of their size
/// (`JOINERY_RETAINED_MEMORY_BYTES`, 1 GiB unless defined; 0 keeps none).
inline constexpr std::size_t retained_memory_max_bytes = JOINERY_RETAINED_MEMORY_BYTES;
}  // namespace joinery::exec

namespace joinery::exec::detail {

inline constexpr std::size_t huge_page_size = std::size_t{2} << 20;
/// Blocks from this size up get their own mapping (its last 2 MiB page is
/// partly used: under a third of such a block), and result columns from
/// this size up are advised (`advise_huge_pages`). Measured: at 4 MiB a 10^6
/// row materialization takes 0.7x the time it takes at 8 MiB.
inline constexpr std::size_t huge_page_allocator_threshold = 2 * huge_page_size;
/// Blocks from this size up to `huge_page_allocator_threshold` get a
/// mapping of whole pages of `small_page_size`, kept for reuse when freed
/// (see above): where glibc would map a block of its own as well.
inline constexpr std::size_t retained_block_min_bytes = std::size_t{128} << 10;
inline constexpr std::size_t small_page_size = std::size_t{4} << 10;

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

/// A fresh mapping of `bytes` (a multiple of the small page size), or nullptr.
inline void* map_pages(std::size_t bytes) noexcept {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

/// A fresh mapping of `bytes` as `mapped_bytes` sized it: whole huge pages
/// from the huge-page threshold up, else whole small pages.
inline void* map_block(std::size_t bytes) noexcept {
  return bytes >= huge_page_allocator_threshold ? map_huge_aligned(bytes) : map_pages(bytes);
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

#if JOINERY_DETAIL_HUGE_PAGES
/// The freed mappings kept for reuse: at most `slots` of them and
/// `retained_memory_max_bytes` in all, the oldest given back first to make
/// room. A block is handed out again only for a request of exactly its
/// size, the most recently freed first (its pages are the likeliest to be
/// in cache). Constant-initialised and trivially destructible, so a vector
/// freed during static destruction still finds it; a spin lock guards it
/// (a few large blocks per join: never contended for long).
class retained_mappings {
 public:
  static constexpr std::size_t slots = 32;

  /// A kept mapping of exactly `bytes`, or nullptr.
  [[nodiscard]] void* take(std::size_t bytes) noexcept {
    const guard g(lock_);
    block* best = nullptr;
    for (block& b : blocks_)
      if (b.bytes == bytes && (!best || b.age > best->age)) best = &b;
    if (!best) return nullptr;
    void* p = best->at;
    held_ -= bytes;
    *best = block{};
    return p;
  }

  /// Keeps the mapping [p, p + bytes) for reuse, or unmaps it when it
  /// alone exceeds the limit.
  void keep(void* p, std::size_t bytes) noexcept {
    if (bytes > retained_memory_max_bytes) {
      ::munmap(p, bytes);
      return;
    }
    const guard g(lock_);
    for (;;) {
      block* free_slot = nullptr;
      block* oldest = nullptr;
      for (block& b : blocks_) {
        if (!b.at) free_slot = free_slot ? free_slot : &b;
        else if (!oldest || b.age < oldest->age) oldest = &b;
      }
      if (free_slot && held_ + bytes <= retained_memory_max_bytes) {
        *free_slot = block{p, bytes, ++clock_};
        held_ += bytes;
        return;
      }
      ::munmap(oldest->at, oldest->bytes);  // non-null: the slots are full or the bytes over the limit
      held_ -= oldest->bytes;
      *oldest = block{};
    }
  }

  /// Unmaps every kept mapping; returns their bytes.
  std::size_t release() noexcept {
    const guard g(lock_);
    const std::size_t released = held_;
    for (block& b : blocks_) {
      if (b.at) ::munmap(b.at, b.bytes);
      b = block{};
    }
    held_ = 0;
    return released;
  }

  [[nodiscard]] std::size_t bytes() noexcept {
    const guard g(lock_);
    return held_;
  }

 private:
  struct block {
    void* at = nullptr;
    std::size_t bytes = 0;
    std::uint64_t age = 0;  // when it was kept: higher is more recent
  };
  struct guard {
    std::atomic_flag& f;
    explicit guard(std::atomic_flag& flag) noexcept : f(flag) {
      while (f.test_and_set(std::memory_order_acquire)) std::this_thread::yield();
    }
    ~guard() { f.clear(std::memory_order_release); }
    guard(const guard&) = delete;
    guard& operator=(const guard&) = delete;
  };
  std::atomic_flag lock_;
  block blocks_[slots]{};
  std::size_t held_ = 0;
  std::uint64_t clock_ = 0;
};
static_assert(std::is_trivially_destructible_v<retained_mappings>);

inline constinit retained_mappings retained{};
#endif

/// `std::allocator` for small blocks; larger ones mapped on their own and
/// kept for reuse, from the threshold up in huge pages (see above).
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
      void* p = retained.take(bytes);
      if (!p) p = map_block(bytes);
      if (!p) {
        // The system is out of mappings or memory: give back what is kept and try once more.
        if (retained.release() != 0) p = map_block(bytes);
        if (!p) throw std::bad_alloc();
      }
      return static_cast<T*>(p);
    }
#endif
    return std::allocator<T>{}.allocate(n);
  }

  void deallocate(T* p, std::size_t n) noexcept {
#if JOINERY_DETAIL_HUGE_PAGES
    if (const std::size_t bytes = mapped_bytes(n)) {
      retained.keep(p, bytes);
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
  /// comes from `std::allocator`. A size of whole small pages is below the
  /// huge-page threshold, so no block of one kind is handed out as the other.
  static std::size_t mapped_bytes(std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < retained_block_min_bytes) return 0;
    const std::size_t paged = (bytes + small_page_size - 1) & ~(small_page_size - 1);
    if (paged < huge_page_allocator_threshold) return paged;
    return (bytes + huge_page_size - 1) & ~(huge_page_size - 1);
  }
};

/// A vector of the kernel's large internal arrays.
template <class T>
using huge_page_vector = std::vector<T, huge_page_allocator<T>>;

}  // namespace joinery::exec::detail

namespace joinery::exec {
/// Bytes of freed kernel arrays kept for reuse (0 where huge pages are off).
[[nodiscard]] inline std::size_t retained_memory_bytes() noexcept {
#if JOINERY_DETAIL_HUGE_PAGES
  return detail::retained.bytes();
#else
  return 0;
#endif
}
/// Gives every kept mapping back to the system (e.g. after a burst of
/// large joins, before a long idle phase); returns the bytes given back.
inline std::size_t release_retained_memory() noexcept {
#if JOINERY_DETAIL_HUGE_PAGES
  return detail::retained.release();
#else
  return 0;
#endif
}
}  // namespace joinery::exec
