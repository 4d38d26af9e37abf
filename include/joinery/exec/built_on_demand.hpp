#pragma once
/// @file
/// A part of an arrangement built once, on demand, from any thread.
///
/// The key filter and the keys in buckets pay only for some probe loops, so
/// the arrangement's build makes neither: the first loop that wants one
/// builds it (`build_once`), and later loops read it. Probes run on a const
/// arrangement from several threads at once, hence the once-only build and
/// the acquire/release flag.
#include <atomic>
#include <memory>
#include <mutex>
#include <utility>

namespace joinery::exec::detail {

template <class Value>
class built_on_demand {
 public:
  built_on_demand() = default;
  built_on_demand(built_on_demand&&) noexcept = default;
  built_on_demand& operator=(built_on_demand&&) noexcept = default;
  /// A copy is wanted as the original is, and has the value if the original
  /// had it when copied.
  built_on_demand(const built_on_demand& o) {
    if (!o.state_) return;
    want();
    if (const Value* v = o.get()) {
      state_->value = *v;
      std::call_once(state_->once, [] {});
      state_->built.store(true, std::memory_order_release);
    }
  }
  built_on_demand& operator=(const built_on_demand& o) {
    if (this != &o) *this = built_on_demand(o);
    return *this;
  }

  /// Not wanted (a build it does not pay for, or none yet).
  void reset() noexcept { state_.reset(); }
  /// Wanted: `build_once` may build it.
  void want() { state_ = std::make_unique<state>(); }
  [[nodiscard]] bool wanted() const noexcept { return state_ != nullptr; }
  [[nodiscard]] bool built() const noexcept { return get() != nullptr; }
  /// The value once built; null before, or when not wanted.
  [[nodiscard]] const Value* get() const noexcept {
    return state_ && state_->built.load(std::memory_order_acquire) ? &state_->value : nullptr;
  }
  /// The value, made by `build()` on the first call among all threads; the
  /// others wait for it. Null when not wanted.
  template <class Build>
  const Value* build_once(Build&& build) const {
    if (!state_) return nullptr;
    std::call_once(state_->once, [&] {
      state_->value = std::forward<Build>(build)();
      state_->built.store(true, std::memory_order_release);
    });
    return &state_->value;
  }

 private:
  struct state {
    std::once_flag once;
    std::atomic<bool> built{false};
    Value value;
  };
  std::unique_ptr<state> state_;
};

}  // namespace joinery::exec::detail
