#pragma once
// A replacement global operator new for ONE test executable (never linked
// into another): it counts live and peak bytes, and can be told to fail the
// n-th allocation from now with std::bad_alloc.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#include <malloc.h>

namespace alloc_hook {

struct state {
  long long fail_in = -1;        // -1: never; 0: the next allocation throws
  std::size_t live = 0;          // bytes currently allocated through operator new
  std::size_t peak = 0;          // the most `live` reached since reset_peak()
  std::uint64_t allocations = 0;
};
inline state& get() {
  static state s;
  return s;
}

inline void* allocate(std::size_t n, std::size_t align = 0) {
  state& s = get();
  if (s.fail_in >= 0 && s.fail_in-- == 0) throw std::bad_alloc();
  if (n == 0) n = 1;
  void* p = align == 0 ? std::malloc(n) : std::aligned_alloc(align, (n + align - 1) / align * align);
  if (p == nullptr) throw std::bad_alloc();
  ++s.allocations;
  s.live += malloc_usable_size(p);
  if (s.live > s.peak) s.peak = s.live;
  return p;
}
inline void release(void* p) noexcept {
  if (p == nullptr) return;
  get().live -= malloc_usable_size(p);
  std::free(p);
}

/// Peak bytes of `f()` above what was live when it started.
template <class F>
std::size_t peak_of(F&& f) {
  state& s = get();
  const std::size_t base = s.live;
  s.peak = base;
  f();
  return s.peak - base;
}

/// Fails the `n`-th allocation of `f()` (0-based); returns whether f threw bad_alloc.
template <class F>
bool fails_at(long long n, F&& f) {
  get().fail_in = n;
  try {
    f();
  } catch (const std::bad_alloc&) {
    get().fail_in = -1;
    return true;
  }
  get().fail_in = -1;
  return false;
}

}  // namespace alloc_hook

// Defined in the test's one TU that includes this header with ALLOC_HOOK_DEFINE.
// Every replaceable form, so no allocation pairs the sanitizer's operator
// new with this free (ASan reports that as alloc-dealloc-mismatch).
#ifdef ALLOC_HOOK_DEFINE
void* operator new(std::size_t n) { return alloc_hook::allocate(n); }
void* operator new[](std::size_t n) { return alloc_hook::allocate(n); }
void* operator new(std::size_t n, std::align_val_t a) { return alloc_hook::allocate(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return alloc_hook::allocate(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return alloc_hook::allocate(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return alloc_hook::allocate(n, static_cast<std::size_t>(a));
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept { return operator new(n, a, t); }
void operator delete(void* p) noexcept { alloc_hook::release(p); }
void operator delete[](void* p) noexcept { alloc_hook::release(p); }
void operator delete(void* p, std::size_t) noexcept { alloc_hook::release(p); }
void operator delete[](void* p, std::size_t) noexcept { alloc_hook::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { alloc_hook::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { alloc_hook::release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { alloc_hook::release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { alloc_hook::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { alloc_hook::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { alloc_hook::release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { alloc_hook::release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { alloc_hook::release(p); }
#endif
