#pragma once
/// @file
/// The semiring reductions of the aggregate IR: `sum(f...)` (+, x),
/// `min_plus(f...)` (min, +), `max_plus(f...)` (max, +), `count()` (each
/// matched tuple adds one) and `any(f...)` (or, and). The factors of a
/// reduction are combined with the semiring's times at every matched tuple and
/// the products reduced with its plus; an output cell no tuple reaches holds
/// the semiring's zero (identity fill).
///
/// These overloads take aggregate-IR factors only (`value(b)`, `w(a, b)`), so
/// the relational plans' `sum(expr)` lives beside them in namespace joinery.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <joinery/aggregate/data.hpp>
#include <joinery/expr/count.hpp>

namespace joinery {

/// The semirings' operations: `zero<T>()`, `times(a, b)`, `plus(a, b)`.
namespace semiring {

/// (+, x), zero 0.
struct sum {
  template <class T>
  static constexpr T zero() noexcept {
    return T(0);
  }
  template <class T>
  static constexpr T times(T a, T b) noexcept {
    return a * b;
  }
  template <class T>
  static constexpr T plus(T a, T b) noexcept {
    return a + b;
  }
};

/// (min, +), zero +infinity (the largest value of an integer type).
struct min_plus {
  template <class T>
  static constexpr T zero() noexcept {
    if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  template <class T>
  static constexpr T times(T a, T b) noexcept {
    return a + b;
  }
  template <class T>
  static constexpr T plus(T a, T b) noexcept {
    return std::min(a, b);
  }
};

/// (max, +), zero -infinity (the lowest value of an integer type).
struct max_plus {
  template <class T>
  static constexpr T zero() noexcept {
    if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  template <class T>
  static constexpr T times(T a, T b) noexcept {
    return a + b;
  }
  template <class T>
  static constexpr T plus(T a, T b) noexcept {
    return std::max(a, b);
  }
};

/// (or, and), zero false.
struct any {
  template <class T>
  static constexpr T zero() noexcept {
    return false;
  }
  template <class T>
  static constexpr T times(T a, T b) noexcept {
    return a && b;
  }
  template <class T>
  static constexpr T plus(T a, T b) noexcept {
    return a || b;
  }
};

/// Number of matched tuples (+ over ones), zero 0, as std::int64_t.
struct count {
  template <class T>
  static constexpr T zero() noexcept {
    return T(0);
  }
  template <class T>
  static constexpr T plus(T a, T b) noexcept {
    return a + b;
  }
};

}  // namespace semiring

/// A reduction: semiring `S` over the product of `Factors...`.
template <class S, class... Factors>
struct reduction {
  using semiring_type = S;
};

namespace detail {
template <class T>
struct is_reduction : std::false_type {};
template <class S, class... F>
struct is_reduction<reduction<S, F...>> : std::true_type {};

template <class F>
using factor_value_t = typename F::data::value_type;

/// The element type of a reduction's result.
template <class R>
struct reduction_value;
template <class S, class... F>
struct reduction_value<reduction<S, F...>> {
  using type = std::common_type_t<factor_value_t<F>...>;
};
template <class... F>
struct reduction_value<reduction<semiring::any, F...>> {
  using type = bool;
};
template <>
struct reduction_value<reduction<semiring::count>> {
  using type = std::int64_t;
};
}  // namespace detail

/// A semiring term of `jy::aggregate`: a reduction or `jy::count()`.
template <class T>
concept aggregate_reduction = detail::is_reduction<std::remove_cvref_t<T>>::value ||
                              std::is_same_v<std::remove_cvref_t<T>, count_t>;

/// The element type `jy::evaluate` produces for reduction `R`.
template <class R>
using reduction_value_t = typename detail::reduction_value<R>::type;

// One-factor overloads are spelled out so that, beside the plans' `sum(expr)`,
// partial ordering ties and the constraint decides.

/// `jy::sum(value(b))`: sum over matched tuples of the product of the factors.
template <aggregate_factor F>
[[nodiscard]] constexpr reduction<semiring::sum, F> sum(F) noexcept {
  return {};
}
/// `jy::sum(f, g, ...)`.
template <aggregate_factor F, aggregate_factor G, aggregate_factor... H>
[[nodiscard]] constexpr reduction<semiring::sum, F, G, H...> sum(F, G, H...) noexcept {
  return {};
}
/// `jy::min_plus(w(a, b))`: minimum over matched tuples of the sum of the factors.
template <aggregate_factor F, aggregate_factor... G>
[[nodiscard]] constexpr reduction<semiring::min_plus, F, G...> min_plus(F, G...) noexcept {
  return {};
}
/// `jy::max_plus(w(a, b))`: maximum over matched tuples of the sum of the factors.
template <aggregate_factor F, aggregate_factor... G>
[[nodiscard]] constexpr reduction<semiring::max_plus, F, G...> max_plus(F, G...) noexcept {
  return {};
}
/// `jy::any(flag(b))`: true when some matched tuple has every factor true.
template <aggregate_factor F>
[[nodiscard]] constexpr reduction<semiring::any, F> any(F) noexcept {
  return {};
}
/// `jy::any(f, g, ...)`.
template <aggregate_factor F, aggregate_factor G, aggregate_factor... H>
[[nodiscard]] constexpr reduction<semiring::any, F, G, H...> any(F, G, H...) noexcept {
  return {};
}

}  // namespace joinery
