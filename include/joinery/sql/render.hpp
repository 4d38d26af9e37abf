#pragma once
/// @file
/// Internals of `to_sql`: identifiers, literals and plan expressions as SQL
/// text. An expression's meaning is kept, not only its spelling: `==` is `=`
/// (NULL propagates, as in joinery), `&&`/`||`/`!` are SQL's three-valued
/// AND/OR/NOT (the same Kleene logic joinery evaluates), `+` of strings is
/// `||`, and DuckDB's integer division is `//` (its `/` is real division).
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <type_traits>

#include <joinery/core/key.hpp>
#include <joinery/expr/call.hpp>
#include <joinery/expr/column_ref.hpp>
#include <joinery/expr/eval.hpp>
#include <joinery/expr/expression.hpp>
#include <joinery/expr/sql_functions.hpp>
#include <joinery/sql/dialect.hpp>

namespace joinery::detail::sql {

/// `"name"` with embedded quotes doubled.
inline void quote_ident(std::string& out, std::string_view name) {
  out += '"';
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

/// `'text'` with embedded quotes doubled.
inline void quote_text(std::string& out, std::string_view s) {
  out += '\'';
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
}

/// A column reference `"table"."column"` (the table's, or alias's, name).
inline void column_sql(std::string& out, std::string_view table, std::string_view column) {
  quote_ident(out, table);
  out += '.';
  quote_ident(out, column);
}

template <class T>
inline constexpr bool is_text = std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view> ||
                                std::is_same_v<T, const char*> || std::is_same_v<T, char*>;

/// A floating literal that reads back as the same double: shortest round-trip
/// digits, always with a '.' or exponent so the engine types it REAL.
template <std::floating_point V>
void float_literal(std::string& out, V v, dialect d) {
  if (std::isnan(v)) {
    // SQLite cannot store NaN (it becomes NULL): the convention is the text 'NaN' (docs/sql.md).
    out += d == dialect::sqlite ? "'NaN'" : "'NaN'::DOUBLE";
    return;
  }
  if (std::isinf(v)) {
    if (d == dialect::sqlite) out += v < 0 ? "-9e999" : "9e999";
    else out += v < 0 ? "'-Infinity'::DOUBLE" : "'Infinity'::DOUBLE";
    return;
  }
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, static_cast<double>(v));
  std::string_view digits(buf, static_cast<std::size_t>(res.ptr - buf));
  out += digits;
  if (digits.find_first_of(".e") == std::string_view::npos) out += ".0";
}

/// A literal value as SQL: NULL, a number, a boolean, or a quoted string.
template <class V>
void literal_sql(std::string& out, const V& v, dialect d) {
  if constexpr (std::is_same_v<V, std::nullopt_t>) {
    out += "NULL";
  } else if constexpr (is_optional_v<V>) {
    if (!v) out += "NULL";
    else literal_sql(out, *v, d);
  } else if constexpr (std::is_same_v<V, bool>) {
    if (d == dialect::sqlite) out += v ? "1" : "0";
    else out += v ? "TRUE" : "FALSE";
  } else if constexpr (std::is_integral_v<V>) {
    out += std::to_string(v);
  } else if constexpr (std::is_floating_point_v<V>) {
    float_literal(out, v, d);
  } else if constexpr (is_text<V>) {
    quote_text(out, std::string_view(v));
  } else {
    static_assert(always_false<V>::value,
                  "joinery: to_sql prints literals of bool, integer, floating-point and string types");
  }
}

/// The SQL spelling of a binary operator (`Text`: string operands; `IntDiv`:
/// both operands integers).
template <class Op>
constexpr std::string_view binary_op_sql(bool text, bool int_div, dialect d) {
  if constexpr (std::is_same_v<Op, op::eq>) return "=";
  else if constexpr (std::is_same_v<Op, op::ne>) return "<>";
  else if constexpr (std::is_same_v<Op, op::lt>) return "<";
  else if constexpr (std::is_same_v<Op, op::le>) return "<=";
  else if constexpr (std::is_same_v<Op, op::gt>) return ">";
  else if constexpr (std::is_same_v<Op, op::ge>) return ">=";
  else if constexpr (std::is_same_v<Op, op::and_>) return "AND";
  else if constexpr (std::is_same_v<Op, op::or_>) return "OR";
  else if constexpr (std::is_same_v<Op, op::add>) return text ? "||" : "+";
  else if constexpr (std::is_same_v<Op, op::sub>) return "-";
  else if constexpr (std::is_same_v<Op, op::mul>) return "*";
  else if constexpr (std::is_same_v<Op, op::div>) return int_div && d == dialect::duckdb ? "//" : "/";
  else static_assert(always_false<Op>::value, "joinery: unknown operator");
}

/// The value type (optional removed) of expression `E` in the type environment `Env`.
template <class E, class Env>
using value_t = unwrap_optional_t<eval_result_t<E, Env>>;

/// Writes expressions of one scope: `Env` types the column references
/// (only for operator spelling; nothing is evaluated).
template <class Env>
struct expr_writer {
  std::string& out;
  dialect d;

  template <class T, fixed_string N>
  void operator()(const column_ref<T, N>&, bool = false) const {
    column_sql(out, T::name.view(), N.view());
  }

  template <class V>
  void operator()(const literal<V>& e, bool = false) const {
    literal_sql(out, e.value, d);
  }

  /// `top`: the whole condition of a clause (no parentheses needed around it).
  template <class Op, class L, class R>
  void operator()(const binary<Op, L, R>& e, bool top = false) const {
    using A = value_t<L, Env>;
    using B = value_t<R, Env>;
    constexpr bool text = is_text<A> || is_text<B>;
    constexpr bool int_div = std::is_integral_v<A> && std::is_integral_v<B>;
    if (!top) out += '(';
    (*this)(e.lhs);
    out += ' ';
    out += binary_op_sql<Op>(text, int_div, d);
    out += ' ';
    (*this)(e.rhs);
    if (!top) out += ')';
  }

  template <class Op, class E>
  void operator()(const unary<Op, E>& e, bool top = false) const {
    if (!top) out += '(';
    out += "NOT ";
    (*this)(e.arg);
    if (!top) out += ')';
  }

  template <class F, class... Args>
  void operator()(const call_expr<F, Args...>& e, bool = false) const {
    static_assert(sql_mapped_function<F>, "joinery: checked by sql_unsupported_call before printing");
    out += F::sql_name;
    out += '(';
    std::apply(
        [&](const auto&... a) {
          bool first = true;
          ((out += first ? "" : ", ", first = false, (*this)(a)), ...);
        },
        e.args);
    out += ')';
  }
};

}  // namespace joinery::detail::sql
