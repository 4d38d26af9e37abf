#pragma once
/// @file
/// How a join condition lowers onto the kernel, from its type: the condition
/// is split into its top-level `&&` conjuncts, and each is
/// * a key pair: `==` between an expression reading only left tables (at
///   least one) and one reading only the joined table: a component of the
///   composite key the joined side is arranged by;
/// * left-only: decided per left row before probing (a false one: no match);
/// * right-only: decided per joined row while building (that row is left out);
/// * residual: decided per candidate pair (the kernel's `accept`).
/// Without any key pair the join is the nested loop the user wrote.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include <joinery/core/key.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/expr/analysis.hpp>
#include <joinery/expr/eval.hpp>
#include <joinery/expr/expression.hpp>

namespace joinery {

/// The role of one conjunct of a join condition.
enum class conjunct_role { key_left_right, key_right_left, left_only, right_only, residual };

namespace detail {

template <class E>
struct binary_parts {
  using op_type = void;
};
template <class Op, class L, class R>
struct binary_parts<binary<Op, L, R>> {
  using op_type = Op;
  using lhs = L;
  using rhs = R;
};

template <class E>
constexpr auto split_conjuncts(const E& e) {
  if constexpr (std::is_same_v<typename binary_parts<E>::op_type, op::and_>) {
    return std::tuple_cat(split_conjuncts(e.lhs), split_conjuncts(e.rhs));
  } else {
    return std::tuple<E>(e);
  }
}

template <class E, class Left, class T>
constexpr conjunct_role role_of() {
  using right = type_list<T>;
  if constexpr (std::is_same_v<typename binary_parts<E>::op_type, op::eq>) {
    using A = typename binary_parts<E>::lhs;
    using B = typename binary_parts<E>::rhs;
    constexpr bool a_left = reads_only_v<A, Left> && !reads_nothing_v<A>;
    constexpr bool b_left = reads_only_v<B, Left> && !reads_nothing_v<B>;
    constexpr bool a_right = reads_only_v<A, right> && !reads_nothing_v<A>;
    constexpr bool b_right = reads_only_v<B, right> && !reads_nothing_v<B>;
    if constexpr (a_left && b_right) return conjunct_role::key_left_right;
    else if constexpr (a_right && b_left) return conjunct_role::key_right_left;
  }
  if constexpr (reads_only_v<E, Left>) return conjunct_role::left_only;
  else if constexpr (reads_only_v<E, right>) return conjunct_role::right_only;
  else return conjunct_role::residual;
}

}  // namespace detail

/// The conjuncts of a condition (top-level `&&` split), as a tuple type.
template <class Cond>
using conjuncts_t = decltype(detail::split_conjuncts(std::declval<const Cond&>()));

/// The conjuncts of a condition, left to right.
template <class Cond>
[[nodiscard]] constexpr conjuncts_t<Cond> conjuncts(const Cond& c) {
  return detail::split_conjuncts(c);
}

namespace detail {
template <class Tuple, class Left, class T>
struct join_roles;
template <class... C, class Left, class T>
struct join_roles<std::tuple<C...>, Left, T> {
  static constexpr std::array<conjunct_role, sizeof...(C)> roles{role_of<C, Left, T>()...};
};

/// Indices of the conjuncts with a role satisfying `pred`, as a std::array.
template <std::size_t Count, std::size_t N, class Pred>
constexpr std::array<std::size_t, Count> indices_where(const std::array<conjunct_role, N>& roles, Pred pred) {
  std::array<std::size_t, Count> out{};
  std::size_t k = 0;
  for (std::size_t i = 0; i < N; ++i)
    if (pred(roles[i])) out[k++] = i;
  return out;
}
template <std::size_t N, class Pred>
constexpr std::size_t count_where(const std::array<conjunct_role, N>& roles, Pred pred) {
  std::size_t k = 0;
  for (auto r : roles) k += pred(r);
  return k;
}

constexpr bool is_key_role(conjunct_role r) {
  return r == conjunct_role::key_left_right || r == conjunct_role::key_right_left;
}

template <class T>
inline constexpr bool stringish = std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view> ||
                                  std::is_same_v<T, const char*> || std::is_same_v<T, char*>;

template <class L, class R>
struct key_common {
  using type = std::common_type_t<L, R>;
};
template <class L, class R>
  requires(plain_integer<L> && plain_integer<R>)
struct key_common<L, R> {
  using type = std::conditional_t<std::is_unsigned_v<L> && std::is_unsigned_v<R>, std::uint64_t, std::int64_t>;
};
template <class L, class R>
  requires(stringish<L> || stringish<R>)
struct key_common<L, R> {
  using type = std::string;
};

}  // namespace detail

/// The type both sides of a key pair are converted to before canonicalising
/// (so an int32 column joins an int64 one, a string_view literal a string).
template <class L, class R>
using key_common_t = typename detail::key_common<unwrap_optional_t<L>, unwrap_optional_t<R>>::type;

/// The canonical key component of a pair whose sides have value types L and R.
template <class L, class R>
using key_component_t = canonical_key_t<key_common_t<L, R>>;

namespace detail {
/// A possibly-NULL value as an optional canonical key component of type `C` (common type).
template <class C, class V>
auto to_key_component(const V& v) -> std::optional<canonical_key_t<C>> {
  if constexpr (is_optional_v<V>) {
    if (!v) return std::nullopt;
    return canonical(static_cast<C>(*v));
  } else {
    return canonical(static_cast<C>(v));
  }
}
}  // namespace detail

}  // namespace joinery
