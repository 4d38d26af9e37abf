#pragma once
/// @file
/// The `expression` concept and the node types of plan expressions: literals,
/// binary and unary operators. Column references (expr/column_ref.hpp) and
/// calls (expr/call.hpp) are expressions too. Nodes are literal types, so a
/// plan built from them is a `constexpr` value.
#include <string_view>
#include <type_traits>
#include <utility>

namespace joinery {

namespace detail {
/// Base of every plan-expression node: what the `expression` concept looks for.
struct expr_tag {};
}  // namespace detail

/// A relational-plan expression: a column reference, a literal, an operator
/// over expressions, or `call(f, args...)`.
template <class E>
concept expression = std::is_base_of_v<detail::expr_tag, std::remove_cvref_t<E>>;

/// A constant operand. String literals are kept as `std::string_view` so a
/// plan comparing with `"US"` stays a constexpr value.
template <class V>
struct literal : detail::expr_tag {
  V value;
};

/// Operator tags of binary and unary nodes.
namespace op {
struct eq {};
struct ne {};
struct lt {};
struct le {};
struct gt {};
struct ge {};
struct and_ {};
struct or_ {};
struct not_ {};
struct add {};
struct sub {};
struct mul {};
struct div {};
}  // namespace op

/// `lhs <Op> rhs`.
template <class Op, class L, class R>
struct binary : detail::expr_tag {
  using op_type = Op;
  L lhs;
  R rhs;
};

/// `<Op> arg` (only `!`).
template <class Op, class E>
struct unary : detail::expr_tag {
  using op_type = Op;
  E arg;
};

namespace detail {
template <class T>
struct literal_storage {
  using type = std::decay_t<T>;
};
template <std::size_t N>
struct literal_storage<char[N]> {
  using type = std::string_view;
};
template <std::size_t N>
struct literal_storage<const char[N]> {
  using type = std::string_view;
};
template <>
struct literal_storage<const char*> {
  using type = std::string_view;
};
template <>
struct literal_storage<char*> {
  using type = std::string_view;
};
}  // namespace detail

/// The expression a value becomes when used as an operand: itself when it is
/// an expression, else a `literal`.
template <class T>
using expr_of_t = std::conditional_t<expression<T>, std::remove_cvref_t<T>,
                                     literal<typename detail::literal_storage<std::remove_cvref_t<T>>::type>>;

/// `as_expr(v)`: wraps a non-expression operand into a `literal`.
template <class T>
[[nodiscard]] constexpr expr_of_t<T> as_expr(const T& v) {
  if constexpr (expression<T>) {
    return v;
  } else {
    return expr_of_t<T>{{}, v};
  }
}

}  // namespace joinery
