#pragma once
/// @file
/// The loop DSL's own small expression language: variables (`var<"x">`),
/// member access (`x[&T::m]`), relation columns (`get<"c">(x)`), literals,
/// captured collections, arithmetic / comparison / logical operators and
/// `tuple(...)`. Expressions are values whose TYPES are the tree, so which
/// variables and collections an expression reads is known to the compiler
/// (recognise.hpp decides joins from that alone).
///
/// Kept inside `joinery::loop` so it never collides with the relational
/// expressions of `joinery/expr/`.
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include <joinery/core/fixed_string.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/loop/key.hpp>

namespace joinery::loop {

namespace detail {
struct expr_tag {};

/// The compiler's spelling of T (GCC and Clang), for explain().
template <class T>
std::string_view type_name() {
  const std::string_view p = __PRETTY_FUNCTION__;
  const std::size_t b = p.find("T = ");
  if (b == std::string_view::npos) return "?";
  const std::size_t e = p.find_first_of(";]", b + 4);
  return p.substr(b + 4, e - b - 4);
}

template <class P>
struct member_pointer_parts;
template <class M, class C>
struct member_pointer_parts<M C::*> {
  using cls = C;
  using mem = M;
};
}  // namespace detail

/// Anything of the loop DSL's expression language.
template <class T>
concept expression = std::derived_from<std::remove_cvref_t<T>, detail::expr_tag>;

template <class E, class P>
struct member_t;

/// CRTP base of every expression: gives `e[&T::m]` (member access).
template <class D>
struct expr_base : detail::expr_tag {
  /// `e[&T::m]`: the data member `m` of the value `e` evaluates to.
  template <class M, class C>
    requires(!std::is_function_v<M>)
  constexpr member_t<D, M C::*> operator[](M C::*p) const {
    return member_t<D, M C::*>(static_cast<const D&>(*this), p);
  }
};

/// A loop variable, bound by `for_each`, `filter_list` or `map_list`.
template <fixed_string Name>
struct var_t : expr_base<var_t<Name>> {
  static constexpr auto name = Name;
  [[nodiscard]] constexpr bool same(const var_t&) const noexcept { return true; }
  void render(std::string& out) const { out += Name.view(); }
};

/// `lp::var<"x">`: the variable called x.
template <fixed_string Name>
inline constexpr var_t<Name> var{};

namespace detail {
template <class T>
using lit_value_t = std::conditional_t<std::is_convertible_v<std::decay_t<T>, std::string_view> &&
                                           std::is_pointer_v<std::decay_t<T>>,
                                       std::string_view, std::decay_t<T>>;
}  // namespace detail

/// A literal value (made implicitly for a non-expression operand).
template <class T>
struct lit_t : expr_base<lit_t<T>> {
  T value;
  constexpr explicit lit_t(T v) : value(std::move(v)) {}
  [[nodiscard]] constexpr bool same(const lit_t& o) const {
    if constexpr (std::equality_comparable<T>) return value == o.value;
    else return false;
  }
  void render(std::string& out) const {
    if constexpr (std::is_same_v<T, bool>) out += value ? "true" : "false";
    else if constexpr (std::is_arithmetic_v<T>) out += std::to_string(value);
    else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
      out += '"';
      out += std::string_view(value);
      out += '"';
    } else out += "<literal>";
  }
};

/// `lp::lit(v)`: an explicit literal.
template <class T>
constexpr auto lit(const T& v) {
  return lit_t<detail::lit_value_t<T>>(detail::lit_value_t<T>(v));
}

/// A collection captured by reference (a `std::vector`, `std::map`,
/// `std::unordered_map`, `jy::relation`, ...). The query must not outlive it.
template <class C>
struct capture_t : expr_base<capture_t<C>> {
  const C* ptr;
  constexpr explicit capture_t(const C& c) noexcept : ptr(&c) {}
  [[nodiscard]] constexpr bool same(const capture_t& o) const noexcept { return ptr == o.ptr; }
  void render(std::string& out) const {
    out += "<captured ";
    if constexpr (requires { C::table_type::name; }) {
      out += "relation<";
      out += C::table_type::name.view();
      out += '>';
    } else if constexpr (requires { typename C::mapped_type; }) {
      out += "map";
    } else {
      out += "list";
    }
    out += '>';
  }
};

/// `e[&T::m]`.
template <class E, class P>
struct member_t : expr_base<member_t<E, P>> {
  E base;
  P ptr;
  constexpr member_t(E b, P p) : base(std::move(b)), ptr(p) {}
  [[nodiscard]] constexpr bool same(const member_t& o) const { return ptr == o.ptr && base.same(o.base); }
  void render(std::string& out) const {
    base.render(out);
    out += "[&";
    out += detail::type_name<typename detail::member_pointer_parts<P>::cls>();
    out += "::<";
    out += detail::type_name<typename detail::member_pointer_parts<P>::mem>();
    out += " member>]";
  }
};

/// `lp::get<"c">(e)`: column `c` of a `jy::relation` row.
template <fixed_string Name, class E>
struct field_t : expr_base<field_t<Name, E>> {
  E base;
  constexpr explicit field_t(E b) : base(std::move(b)) {}
  [[nodiscard]] constexpr bool same(const field_t& o) const { return base.same(o.base); }
  void render(std::string& out) const {
    out += "get<\"";
    out += Name.view();
    out += "\">(";
    base.render(out);
    out += ')';
  }
};

/// A column of a relation row: `lp::get<"author">(y)`.
template <fixed_string Name, expression E>
constexpr field_t<Name, std::remove_cvref_t<E>> get(const E& e) {
  return field_t<Name, std::remove_cvref_t<E>>(e);
}

/// Make any operand an expression: expressions as they are, values as literals.
template <class T>
constexpr auto as_expr(const T& v) {
  if constexpr (expression<T>) return v;
  else return lit(v);
}
template <class T>
using as_expr_t = decltype(as_expr(std::declval<const T&>()));

// ---- operators -------------------------------------------------------------
namespace ops {
#define JOINERY_LOOP_BINOP(tag, sym, body)                                      \
  struct tag {                                                                  \
    static constexpr std::string_view name = sym;                               \
    template <class A, class B>                                                 \
    static constexpr auto apply(const A& a, const B& b) { return body; }        \
  };
JOINERY_LOOP_BINOP(add, "+", a + b)
JOINERY_LOOP_BINOP(sub, "-", a - b)
JOINERY_LOOP_BINOP(mul, "*", a * b)
JOINERY_LOOP_BINOP(div, "/", a / b)
JOINERY_LOOP_BINOP(mod, "%", a % b)
JOINERY_LOOP_BINOP(eq, "==", detail::key_equal_dsl(a, b))
JOINERY_LOOP_BINOP(ne, "!=", !detail::key_equal_dsl(a, b))
JOINERY_LOOP_BINOP(lt, "<", static_cast<bool>(a < b))
JOINERY_LOOP_BINOP(le, "<=", static_cast<bool>(a <= b))
JOINERY_LOOP_BINOP(gt, ">", static_cast<bool>(a > b))
JOINERY_LOOP_BINOP(ge, ">=", static_cast<bool>(a >= b))
JOINERY_LOOP_BINOP(land, "&&", static_cast<bool>(a) && static_cast<bool>(b))
JOINERY_LOOP_BINOP(lor, "||", static_cast<bool>(a) || static_cast<bool>(b))
#undef JOINERY_LOOP_BINOP
struct lnot {
  static constexpr std::string_view name = "!";
  template <class A>
  static constexpr bool apply(const A& a) { return !static_cast<bool>(a); }
};
struct neg {
  static constexpr std::string_view name = "-";
  template <class A>
  static constexpr auto apply(const A& a) { return -a; }
};
}  // namespace ops

/// `l op r` (`==` is a total order's equality on keys: NaN == NaN, -0.0 == 0.0,
/// and an empty optional equals nothing, like a NULL key).
template <class Op, class L, class R>
struct binop_t : expr_base<binop_t<Op, L, R>> {
  using op = Op;
  using left_t = L;
  using right_t = R;
  L l;
  R r;
  constexpr binop_t(L a, R b) : l(std::move(a)), r(std::move(b)) {}
  [[nodiscard]] constexpr bool same(const binop_t& o) const { return l.same(o.l) && r.same(o.r); }
  void render(std::string& out) const {
    out += '(';
    l.render(out);
    out += ' ';
    out += Op::name;
    out += ' ';
    r.render(out);
    out += ')';
  }
};

/// `op e` (`!`, unary `-`).
template <class Op, class E>
struct unop_t : expr_base<unop_t<Op, E>> {
  using op = Op;
  E e;
  constexpr explicit unop_t(E x) : e(std::move(x)) {}
  [[nodiscard]] constexpr bool same(const unop_t& o) const { return e.same(o.e); }
  void render(std::string& out) const {
    out += Op::name;
    e.render(out);
  }
};

/// `lp::tuple(es...)`: evaluates to a `std::tuple` of the values.
template <class... Es>
struct tuple_t : expr_base<tuple_t<Es...>> {
  std::tuple<Es...> elems;
  constexpr explicit tuple_t(Es... es) : elems(std::move(es)...) {}
  [[nodiscard]] constexpr bool same(const tuple_t& o) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (std::get<I>(elems).same(std::get<I>(o.elems)) && ...);
    }(std::index_sequence_for<Es...>{});
  }
  void render(std::string& out) const {
    out += "tuple(";
    std::apply([&](const auto&... e) {
      bool first = true;
      ((out += first ? "" : ", ", first = false, e.render(out)), ...);
    }, elems);
    out += ')';
  }
};

/// `lp::tuple(a, b, ...)`: a tuple of expressions (values become literals).
template <class... Ts>
constexpr auto tuple(const Ts&... ts) {
  return tuple_t<as_expr_t<Ts>...>(as_expr(ts)...);
}

#define JOINERY_LOOP_OPERATOR(sym, tag)                                          \
  template <class L, class R>                                                   \
    requires(expression<L> || expression<R>)                                    \
  constexpr auto operator sym(const L& l, const R& r) {                         \
    return binop_t<ops::tag, as_expr_t<L>, as_expr_t<R>>(as_expr(l), as_expr(r)); \
  }
JOINERY_LOOP_OPERATOR(+, add)
JOINERY_LOOP_OPERATOR(-, sub)
JOINERY_LOOP_OPERATOR(*, mul)
JOINERY_LOOP_OPERATOR(/, div)
JOINERY_LOOP_OPERATOR(%, mod)
JOINERY_LOOP_OPERATOR(==, eq)
JOINERY_LOOP_OPERATOR(!=, ne)
JOINERY_LOOP_OPERATOR(<, lt)
JOINERY_LOOP_OPERATOR(<=, le)
JOINERY_LOOP_OPERATOR(>, gt)
JOINERY_LOOP_OPERATOR(>=, ge)
JOINERY_LOOP_OPERATOR(&&, land)
JOINERY_LOOP_OPERATOR(||, lor)
#undef JOINERY_LOOP_OPERATOR

/// `!e`.
template <expression E>
constexpr auto operator!(const E& e) {
  return unop_t<ops::lnot, E>(e);
}
/// `-e`.
template <expression E>
constexpr auto operator-(const E& e) {
  return unop_t<ops::neg, E>(e);
}

// ---- what an expression reads (decided from its type alone) ---------------
namespace detail {

template <class... A, class... B>
type_list<A..., B...> operator+(type_list<A...>, type_list<B...>);  // for decltype only
template <class... Ls>
using concat_t = decltype((type_list<>{} + ... + Ls{}));

template <class V, class L>
struct remove_var;
template <class V, class... Vs>
struct remove_var<V, type_list<Vs...>> {
  using type = concat_t<std::conditional_t<std::is_same_v<V, Vs>, type_list<>, type_list<Vs>>...>;
};
template <class V, class L>
using remove_var_t = typename remove_var<V, L>::type;

template <class V, class L>
inline constexpr bool has_var = false;
template <class V, class... Vs>
inline constexpr bool has_var<V, type_list<Vs...>> = (std::is_same_v<V, Vs> || ...);

/// True when every variable of A is in B.
template <class A, class B>
inline constexpr bool subset_of = false;
template <class... As, class B>
inline constexpr bool subset_of<type_list<As...>, B> = (has_var<As, B> && ...);

/// True when A and B share a variable.
template <class A, class B>
inline constexpr bool intersects = false;
template <class... As, class B>
inline constexpr bool intersects<type_list<As...>, B> = (has_var<As, B> || ...);

/// What a node reads: `vars` (its free variables, a type_list of var_t) and
/// `captures` (whether it reads a captured collection). `sites` counts the
/// lookup nodes in it (map_get, map_contains, filter_list), numbered in
/// pre-order; lookups.hpp adds the lookup nodes.
template <class N>
struct reads {
  using vars = type_list<>;
  static constexpr bool captures = false;
  static constexpr std::size_t sites = 0;
};
template <fixed_string Name>
struct reads<var_t<Name>> {
  using vars = type_list<var_t<Name>>;
  static constexpr bool captures = false;
  static constexpr std::size_t sites = 0;
};
template <class C>
struct reads<capture_t<C>> {
  using vars = type_list<>;
  static constexpr bool captures = true;
  static constexpr std::size_t sites = 0;
};
template <class E, class P>
struct reads<member_t<E, P>> : reads<E> {};
template <fixed_string Name, class E>
struct reads<field_t<Name, E>> : reads<E> {};
template <class Op, class E>
struct reads<unop_t<Op, E>> : reads<E> {};
template <class Op, class L, class R>
struct reads<binop_t<Op, L, R>> {
  using vars = concat_t<typename reads<L>::vars, typename reads<R>::vars>;
  static constexpr bool captures = reads<L>::captures || reads<R>::captures;
  static constexpr std::size_t sites = reads<L>::sites + reads<R>::sites;
};
template <class... Es>
struct reads<tuple_t<Es...>> {
  using vars = concat_t<typename reads<Es>::vars...>;
  static constexpr bool captures = (false || ... || reads<Es>::captures);
  static constexpr std::size_t sites = (std::size_t{0} + ... + reads<Es>::sites);
};

template <class N>
using free_vars_t = typename reads<std::remove_cvref_t<N>>::vars;
template <class N>
inline constexpr bool reads_capture = reads<std::remove_cvref_t<N>>::captures;
template <class N>
inline constexpr std::size_t site_count = reads<std::remove_cvref_t<N>>::sites;

/// Structural equality of two expressions (same type, same member pointers,
/// literals and captured addresses): the fingerprint of reference/003.
template <class A, class B>
constexpr bool same_expr(const A& a, const B& b) {
  if constexpr (std::is_same_v<A, B> && requires { a.same(b); }) return a.same(b);
  else return false;
}

}  // namespace detail
}  // namespace joinery::loop
