#pragma once
/// @file
/// Evaluation of an expression against an environment that reads columns
/// (`env.template read<T, "name">()`). NULL (an empty `std::optional`)
/// propagates through comparisons and arithmetic; `&&`, `||`, `!` use SQL's
/// three-valued logic (`false && NULL` is false, `true || NULL` is true); a
/// condition holds only when it is true. `==` is a total order's equality, the
/// same as the join keys' (NaN == NaN, -0.0 == 0.0), so an index and the
/// predicate it replaces always agree. Integers of any width and signedness
/// compare by value.
#include <cmath>
#include <concepts>
#include <functional>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include <joinery/core/key.hpp>
#include <joinery/expr/call.hpp>
#include <joinery/expr/column_ref.hpp>
#include <joinery/expr/expression.hpp>

namespace joinery {

namespace detail {

template <class T>
concept plain_integer = std::integral<T> && !std::same_as<T, bool> && !std::same_as<T, char> &&
                        !std::same_as<T, char8_t> && !std::same_as<T, char16_t> && !std::same_as<T, char32_t> &&
                        !std::same_as<T, wchar_t>;

template <class A, class B>
constexpr bool value_equal(const A& a, const B& b) {
  if constexpr (plain_integer<A> && plain_integer<B>) {
    return std::cmp_equal(a, b);
  } else if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B>) {
    using C = std::common_type_t<A, B>;
    const C x = static_cast<C>(a);
    const C y = static_cast<C>(b);
    if constexpr (std::is_floating_point_v<C>) {
      return x == y || (x != x && y != y);  // NaN equals NaN: the key order's equality
    } else {
      return x == y;
    }
  } else {
    return a == b;
  }
}

template <class A, class B>
constexpr bool value_less(const A& a, const B& b) {
  if constexpr (plain_integer<A> && plain_integer<B>) {
    return std::cmp_less(a, b);
  } else if constexpr (std::is_arithmetic_v<A> && std::is_arithmetic_v<B>) {
    using C = std::common_type_t<A, B>;
    return static_cast<C>(a) < static_cast<C>(b);
  } else {
    return a < b;
  }
}

template <class Op>
struct apply_op;
template <>
struct apply_op<op::eq> {
  template <class A, class B>
  static constexpr bool go(const A& a, const B& b) { return value_equal(a, b); }
};
template <>
struct apply_op<op::ne> {
  template <class A, class B>
  static constexpr bool go(const A& a, const B& b) { return !value_equal(a, b); }
};
template <>
struct apply_op<op::lt> {
  template <class A, class B>
  static constexpr bool go(const A& a, const B& b) { return value_less(a, b); }
};
template <>
struct apply_op<op::le> {
  template <class A, class B>
  static constexpr bool go(const A& a, const B& b) { return !value_less(b, a); }
};
template <>
struct apply_op<op::gt> {
  template <class A, class B>
  static constexpr bool go(const A& a, const B& b) { return value_less(b, a); }
};
template <>
struct apply_op<op::ge> {
  template <class A, class B>
  static constexpr bool go(const A& a, const B& b) { return !value_less(a, b); }
};
template <>
struct apply_op<op::add> {
  template <class A, class B>
  static constexpr auto go(const A& a, const B& b) { return a + b; }
};
template <>
struct apply_op<op::sub> {
  template <class A, class B>
  static constexpr auto go(const A& a, const B& b) { return a - b; }
};
template <>
struct apply_op<op::mul> {
  template <class A, class B>
  static constexpr auto go(const A& a, const B& b) { return a * b; }
};
template <>
struct apply_op<op::div> {
  template <class A, class B>
  static constexpr auto go(const A& a, const B& b) { return a / b; }
};

/// Truth of a possibly-NULL boolean: 1 true, 0 false, -1 NULL.
template <class V>
constexpr int truth(const V& v) {
  if constexpr (is_optional_v<V>) {
    return v.has_value() ? (static_cast<bool>(*v) ? 1 : 0) : -1;
  } else {
    return static_cast<bool>(v) ? 1 : 0;
  }
}

template <class V>
constexpr const auto& deref(const V& v) {
  if constexpr (is_optional_v<V>) return *v;
  else return v;
}

template <class V>
constexpr bool is_null(const V& v) {
  if constexpr (is_optional_v<V>) return !v.has_value();
  else return false;
}

}  // namespace detail

/// The value of a column reference: what the environment reads.
template <class T, fixed_string N, class Env>
constexpr decltype(auto) eval_expr(const column_ref<T, N>&, const Env& env) {
  return env.template read<T, N>();
}

template <class V, class Env>
constexpr const V& eval_expr(const literal<V>& e, const Env&) {
  return e.value;
}

template <class Op, class L, class R, class Env>
constexpr auto eval_expr(const binary<Op, L, R>& e, const Env& env) {
  if constexpr (std::is_same_v<Op, op::and_> || std::is_same_v<Op, op::or_>) {
    constexpr bool is_and = std::is_same_v<Op, op::and_>;
    const int a = detail::truth(eval_expr(e.lhs, env));
    using LT = std::remove_cvref_t<decltype(eval_expr(e.lhs, env))>;
    using RT = std::remove_cvref_t<decltype(eval_expr(e.rhs, env))>;
    if constexpr (!is_optional_v<LT> && !is_optional_v<RT>) {
      if constexpr (is_and) return a == 1 && detail::truth(eval_expr(e.rhs, env)) == 1;
      else return a == 1 || detail::truth(eval_expr(e.rhs, env)) == 1;
    } else {
      // Kleene logic; the right operand is skipped when the left decides.
      if constexpr (is_and) {
        if (a == 0) return std::optional<bool>(false);
      } else {
        if (a == 1) return std::optional<bool>(true);
      }
      const int b = detail::truth(eval_expr(e.rhs, env));
      if constexpr (is_and) {
        if (b == 0) return std::optional<bool>(false);
        if (a == -1 || b == -1) return std::optional<bool>();
        return std::optional<bool>(true);
      } else {
        if (b == 1) return std::optional<bool>(true);
        if (a == -1 || b == -1) return std::optional<bool>();
        return std::optional<bool>(false);
      }
    }
  } else {
    decltype(auto) a = eval_expr(e.lhs, env);
    decltype(auto) b = eval_expr(e.rhs, env);
    using A = std::remove_cvref_t<decltype(a)>;
    using B = std::remove_cvref_t<decltype(b)>;
    using result = decltype(detail::apply_op<Op>::go(detail::deref(a), detail::deref(b)));
    if constexpr (is_optional_v<A> || is_optional_v<B>) {
      if (detail::is_null(a) || detail::is_null(b)) return std::optional<result>();
      return std::optional<result>(detail::apply_op<Op>::go(detail::deref(a), detail::deref(b)));
    } else {
      return detail::apply_op<Op>::go(a, b);
    }
  }
}

template <class Op, class E, class Env>
constexpr auto eval_expr(const unary<Op, E>& e, const Env& env) {
  static_assert(std::is_same_v<Op, op::not_>);
  decltype(auto) v = eval_expr(e.arg, env);
  using V = std::remove_cvref_t<decltype(v)>;
  if constexpr (is_optional_v<V>) {
    if (!v) return std::optional<bool>();
    return std::optional<bool>(!static_cast<bool>(*v));
  } else {
    return !static_cast<bool>(v);
  }
}

template <class F, class... Args, class Env>
constexpr auto eval_expr(const call_expr<F, Args...>& e, const Env& env) {
  return std::apply([&](const auto&... a) { return std::invoke(e.fn, eval_expr(a, env)...); }, e.args);
}

/// The value type of expression `E` evaluated in environment `Env`
/// (`std::optional<...>` when it can be NULL).
template <class E, class Env>
using eval_result_t = std::remove_cvref_t<decltype(eval_expr(std::declval<const E&>(), std::declval<const Env&>()))>;

/// True when a condition's value holds (true, not false or NULL).
template <class V>
[[nodiscard]] constexpr bool holds(const V& v) {
  return detail::truth(v) == 1;
}

}  // namespace joinery
