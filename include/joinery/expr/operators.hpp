#pragma once
/// @file
/// Operators that build expression nodes: `== != < <= > >= && || !` and
/// `+ - * /`. Each is a constrained free template (at least one operand is an
/// expression) returning a node, never `bool`, so C++20's rewriting of `!=` and
/// reversed `==` cannot pick a different meaning: `3 == col` and `col != x`
/// build what they say.
#include <joinery/expr/expression.hpp>

namespace joinery {

/// At least one operand is a plan expression (the other may be a literal value).
template <class A, class B>
concept expression_operands = expression<A> || expression<B>;

namespace detail {
template <class Op, class A, class B>
constexpr binary<Op, expr_of_t<A>, expr_of_t<B>> make_binary(const A& a, const B& b) {
  return {{}, as_expr(a), as_expr(b)};
}
}  // namespace detail

template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator==(const A& a, const B& b) {
  return detail::make_binary<op::eq>(a, b);
}
template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator!=(const A& a, const B& b) {
  return detail::make_binary<op::ne>(a, b);
}
template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator<(const A& a, const B& b) {
  return detail::make_binary<op::lt>(a, b);
}
template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator<=(const A& a, const B& b) {
  return detail::make_binary<op::le>(a, b);
}
template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator>(const A& a, const B& b) {
  return detail::make_binary<op::gt>(a, b);
}
template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator>=(const A& a, const B& b) {
  return detail::make_binary<op::ge>(a, b);
}
template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator&&(const A& a, const B& b) {
  return detail::make_binary<op::and_>(a, b);
}
template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator||(const A& a, const B& b) {
  return detail::make_binary<op::or_>(a, b);
}
template <expression E>
[[nodiscard]] constexpr unary<op::not_, E> operator!(const E& e) {
  return {{}, e};
}
template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator+(const A& a, const B& b) {
  return detail::make_binary<op::add>(a, b);
}
template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator-(const A& a, const B& b) {
  return detail::make_binary<op::sub>(a, b);
}
template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator*(const A& a, const B& b) {
  return detail::make_binary<op::mul>(a, b);
}
template <class A, class B>
  requires expression_operands<A, B>
[[nodiscard]] constexpr auto operator/(const A& a, const B& b) {
  return detail::make_binary<op::div>(a, b);
}

}  // namespace joinery
