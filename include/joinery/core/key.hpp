#pragma once
/// @file
/// Key equality as a total order's equality, shared by every front door so an
/// index and the predicate it replaces always agree: NaN equals NaN, -0.0
/// equals 0.0, NULL is handled by the caller (excluded from an equi-join,
/// one group in a group-by).
#include <bit>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace joinery {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
inline constexpr bool is_optional_v = is_optional<std::remove_cvref_t<T>>::value;

template <class T>
struct unwrap_optional {
  using type = T;
};
template <class T>
struct unwrap_optional<std::optional<T>> {
  using type = T;
};
template <class T>
using unwrap_optional_t = typename unwrap_optional<std::remove_cvref_t<T>>::type;

namespace detail {

/// The canonical representation a key component is hashed and compared by.
template <class T>
struct canonical_key {
  using type = T;
  static constexpr const T& of(const T& v) noexcept { return v; }
};
template <std::floating_point T>
struct canonical_key<T> {
  using type = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  static constexpr type of(T v) noexcept {
    if (v != v) return std::bit_cast<type>(std::numeric_limits<T>::quiet_NaN());  // every NaN is one key
    if (v == T(0)) return type(0);                                                  // -0.0 is 0.0
    return std::bit_cast<type>(v);
  }
};
// Integers of either signedness compare by value: widen to one 64-bit type.
template <std::integral T>
  requires(!std::same_as<T, bool>)
struct canonical_key<T> {
  using type = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
  static constexpr type of(T v) noexcept { return static_cast<type>(v); }
};
template <>
struct canonical_key<const char*> {
  using type = std::string;
  static type of(const char* v) { return type(v); }
};
template <>
struct canonical_key<std::string_view> {
  using type = std::string;
  static type of(std::string_view v) { return type(v); }
};

}  // namespace detail

/// The canonical key type of a value type `T` (after removing optional).
template <class T>
using canonical_key_t = typename detail::canonical_key<std::remove_cvref_t<T>>::type;

/// Canonical form of one key value.
template <class T>
constexpr canonical_key_t<T> canonical(const T& v) {
  return detail::canonical_key<std::remove_cvref_t<T>>::of(v);
}

/// `==` on keys as a total order's equality (NaN == NaN, -0.0 == 0.0).
template <class A, class B>
constexpr bool key_equal(const A& a, const B& b) {
  return canonical(a) == canonical(b);
}

namespace detail {
/// A strong 64-bit finaliser (murmur3 fmix64): keys are often sequential or
/// strided, and the table takes the high bits.
constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}
}  // namespace detail

/// Hash of a canonical key (integral, string, or tuple of those).
template <class K>
struct key_hash {
  std::uint64_t operator()(const K& k) const noexcept {
    if constexpr (std::is_integral_v<K> || std::is_enum_v<K>) {
      return detail::mix64(static_cast<std::uint64_t>(k));
    } else if constexpr (requires { std::tuple_size<K>::value; }) {
      std::uint64_t h = 0x9e3779b97f4a7c15ULL;
      std::apply([&](const auto&... c) {
        ((h = detail::mix64(h ^ key_hash<std::remove_cvref_t<decltype(c)>>{}(c))), ...);
      }, k);
      return h;
    } else {
      return detail::mix64(std::hash<K>{}(k));
    }
  }
};

}  // namespace joinery
