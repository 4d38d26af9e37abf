#pragma once
/// @file
/// Key semantics of the loop DSL's `==`, shared by the predicate (nested
/// evaluation) and the index (recognised evaluation), so the two agree by
/// construction: both sides are converted to one joint value type, then
/// compared by their canonical keys (core/key.hpp: NaN == NaN, -0.0 == 0.0,
/// integers by value). An empty `std::optional` is a NULL key: it equals
/// nothing, and an index leaves it out.
#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include <joinery/core/key.hpp>

namespace joinery::loop::detail {

template <class T>
concept string_like = std::is_convertible_v<const T&, std::string_view> && !std::is_arithmetic_v<T>;

template <class T>
struct is_tuple : std::false_type {};
template <class... Ts>
struct is_tuple<std::tuple<Ts...>> : std::true_type {};

/// The value type both sides of `a == b` are converted to before keying.
template <class A, class B>
struct joint {
  using type = A;  // not a key type: compared with the types' own ==
};
template <class A, class B>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B>
struct joint<A, B> {
  using type = std::common_type_t<A, B>;
};
template <string_like A, string_like B>
struct joint<A, B> {
  using type = std::string_view;
};
template <class... As, class... Bs>
  requires(sizeof...(As) == sizeof...(Bs))
struct joint<std::tuple<As...>, std::tuple<Bs...>> {
  using type = std::tuple<typename joint<unwrap_optional_t<As>, unwrap_optional_t<Bs>>::type...>;
};
template <class A, class B>
using joint_t = typename joint<unwrap_optional_t<A>, unwrap_optional_t<B>>::type;

/// True for the value types an index can be keyed by.
template <class J>
inline constexpr bool keyable_v = std::is_arithmetic_v<J> || std::is_enum_v<J> || std::is_same_v<J, std::string_view>;
template <class... Js>
inline constexpr bool keyable_v<std::tuple<Js...>> = (keyable_v<Js> && ...);

/// The canonical key of joint value type J.
template <class J>
struct key_type_of {
  using type = canonical_key_t<J>;
};
template <class... Js>
struct key_type_of<std::tuple<Js...>> {
  using type = std::tuple<typename key_type_of<Js>::type...>;
};
template <class J>
using key_type_of_t = typename key_type_of<J>::type;

/// The canonical key of `v` read as joint type J; empty for a NULL (an empty
/// optional, or a tuple with one).
template <class J, class V>
std::optional<key_type_of_t<J>> key_of(const V& v) {
  if constexpr (is_optional_v<V>) {
    if (!v) return std::nullopt;
    return key_of<J>(*v);
  } else if constexpr (is_tuple<J>::value) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) -> std::optional<key_type_of_t<J>> {
      auto parts = std::make_tuple(key_of<std::tuple_element_t<I, J>>(std::get<I>(v))...);
      if (!(std::get<I>(parts).has_value() && ...)) return std::nullopt;
      return key_type_of_t<J>(std::move(*std::get<I>(parts))...);
    }(std::make_index_sequence<std::tuple_size_v<J>>{});
  } else {
    return canonical(static_cast<J>(v));
  }
}

/// The loop DSL's `a == b`.
template <class A, class B>
constexpr bool key_equal_dsl(const A& a, const B& b) {
  using J = joint_t<A, B>;
  if constexpr (keyable_v<J>) {
    auto ka = key_of<J>(a);
    if (!ka) return false;
    auto kb = key_of<J>(b);
    return kb && *ka == *kb;
  } else if constexpr (is_optional_v<A> || is_optional_v<B>) {
    if constexpr (is_optional_v<A>) {
      return a.has_value() && key_equal_dsl(*a, b);
    } else {
      return b.has_value() && key_equal_dsl(a, *b);
    }
  } else {
    return static_cast<bool>(a == b);
  }
}

}  // namespace joinery::loop::detail
