#pragma once
/// @file
/// Rule family E079 (reference/002): a cardinality expectation must be
/// provable by counting keys. On `join_inner` / `join_left` only
/// (`expect_on_semi_or_anti`); the ON condition is split into its top-level
/// `&&` conjuncts, and each conjunct that reads the right (joined) table must
/// be an `==` between a plain right column and either an expression of the
/// left tables (a key pair) or a literal (it restricts the counted rows).
/// Conjuncts that read only the left side are ignored, whatever their shape.
/// * `expect_non_equational`: a conjunct that is not `==` reads the right side;
/// * `expect_right_outside_key`: an `==` operand reads the right side but is
///   not a plain right column (`call(f, right_col) == left_col`);
/// * `expect_same_side`: both operands are right columns;
/// * `expect_no_keys`: no key pair at all;
/// * `expect_one_to_one_needs_plain_pair`: one_to_one without a plain left
///   column == plain right column pair.
/// Paths: `/join/<k>/expect` for the join-level rules, `/join/<k>/on/<c>` for
/// conjunct c (0-based, left to right). `expect_no_keys` and the one_to_one
/// rule are not reported for a join that already has a conjunct finding.
#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <joinery/core/rule.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/check/plan_steps.hpp>
#include <joinery/expr/analysis.hpp>
#include <joinery/expr/column_ref.hpp>
#include <joinery/plan/expect.hpp>
#include <joinery/plan/join.hpp>
#include <joinery/plan/join_keys.hpp>
#include <joinery/plan/scope.hpp>

namespace joinery {

/// What one conjunct of an annotated join's condition is, for E079.
enum class expect_conjunct { ignored, key_plain, key_expr, right_literal, non_equational, right_outside_key, same_side };

namespace detail {

template <class E, class T>
struct plain_column_of_impl : std::false_type {};
template <class T, fixed_string N>
struct plain_column_of_impl<column_ref<T, N>, T> : std::true_type {};
/// True when `E` is a plain column reference of table `T`.
template <class E, class T>
inline constexpr bool plain_column_of = plain_column_of_impl<E, T>::value;

template <class C, class T>
constexpr expect_conjunct classify_expect_conjunct() {
  if constexpr (!reads_table_v<C, T>) {
    return expect_conjunct::ignored;
  } else if constexpr (!std::is_same_v<typename binary_parts<C>::op_type, op::eq>) {
    return expect_conjunct::non_equational;
  } else {
    using A = typename binary_parts<C>::lhs;
    using B = typename binary_parts<C>::rhs;
    constexpr bool ra = reads_table_v<A, T>;
    constexpr bool rb = reads_table_v<B, T>;
    if constexpr ((ra && !plain_column_of<A, T>) || (rb && !plain_column_of<B, T>)) {
      return expect_conjunct::right_outside_key;
    } else if constexpr (ra && rb) {
      return expect_conjunct::same_side;
    } else {
      using other = std::conditional_t<ra, B, A>;
      if constexpr (reads_nothing_v<other>) return expect_conjunct::right_literal;
      else if constexpr (is_column_ref_v<other>) return expect_conjunct::key_plain;
      else return expect_conjunct::key_expr;
    }
  }
}

template <class Tuple, class T>
struct expect_classes;
template <class... C, class T>
struct expect_classes<std::tuple<C...>, T> {
  static constexpr std::array<expect_conjunct, sizeof...(C)> value{classify_expect_conjunct<C, T>()...};
};

constexpr rule rule_of(expect_conjunct c) {
  switch (c) {
    case expect_conjunct::non_equational: return rule::expect_non_equational;
    case expect_conjunct::right_outside_key: return rule::expect_right_outside_key;
    default: return rule::expect_same_side;
  }
}
constexpr bool is_error(expect_conjunct c) {
  return c == expect_conjunct::non_equational || c == expect_conjunct::right_outside_key ||
         c == expect_conjunct::same_side;
}

/// One E079 problem of a join: its rule and, for conjunct rules, the conjunct.
struct expect_issue {
  rule r{};
  std::size_t conjunct = npos;  // npos: a join-level rule (path /expect)
};

/// Every E079 problem of join step `S` (whose left side is `Left`), in order.
template <class S>
struct join_expect_check {
  static constexpr std::size_t capacity = 1;
  template <class Out>
  static constexpr void run(const Out&) {}
};
template <join_op K, class T, class C, class E>
  requires(E::annotated)
struct join_expect_check<join_step<K, T, C, E>> {
  using classes = expect_classes<conjuncts_t<C>, T>;
  template <class Out>
  static constexpr void run(const Out& out) {
    if (K == join_op::semi || K == join_op::anti) {
      out(expect_issue{rule::expect_on_semi_or_anti, npos});
      return;
    }
    bool any_error = false, any_key = false, any_plain = false;
    for (std::size_t q = 0; q < classes::value.size(); ++q) {
      const expect_conjunct c = classes::value[q];
      if (is_error(c)) {
        any_error = true;
        out(expect_issue{rule_of(c), q});
      }
      any_key = any_key || c == expect_conjunct::key_plain || c == expect_conjunct::key_expr;
      any_plain = any_plain || c == expect_conjunct::key_plain;
    }
    if (any_error) return;
    if (!any_key) out(expect_issue{rule::expect_no_keys, npos});
    else if (E::check_left && !any_plain) out(expect_issue{rule::expect_one_to_one_needs_plain_pair, npos});
  }
};

template <class P, std::size_t I>
constexpr void expect_findings_of_step(findings& f) {
  using S = plan_step_t<P, I>;
  if constexpr (step_info<S>::kind == step_kind::join) {
    join_expect_check<S>::run([&](expect_issue is) {
      path_string p;
      p.segment("join").index(step_ordinal<P, I>());
      if (is.conjunct == npos) p.segment("expect");
      else p.segment("on").index(is.conjunct);
      f.add(is.r, p);
    });
  }
}

/// The first E079 problem of step `I` (rule, conjunct), or `{}` with conjunct == npos and a
/// sentinel `ok == true`.
struct first_expect_issue {
  bool ok = true;
  expect_issue issue{};
};
template <class P, std::size_t I>
constexpr first_expect_issue first_issue_of_step() {
  first_expect_issue out;
  using S = plan_step_t<P, I>;
  if constexpr (step_info<S>::kind == step_kind::join) {
    join_expect_check<S>::run([&](expect_issue is) {
      if (out.ok) out = {false, is};
    });
  }
  return out;
}

}  // namespace detail

/// E079 findings of plan `p` (see the file comment for rules and paths).
template <relational_plan P>
[[nodiscard]] constexpr findings validate_plan_expect(const P&) {
  findings out;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (detail::expect_findings_of_step<P, I>(out), ...);
  }(std::make_index_sequence<P::step_count>{});
  return out;
}

// ---- diagnostics: the right table and the offending columns are template
// arguments, so the note under the assertion shows them.

/// A column as a diagnostic shows it: its table and its name spelled out.
template <class Table, class Name>
struct column_named {};

/// Instantiated when a semi or anti join to `Table` carries an expectation.
template <class Table>
struct expect_on_semi_or_anti_for {
  static_assert(detail::always_false<Table>::value,
                "joinery[expect_on_semi_or_anti]: a semi or anti join never multiplies rows, so it takes no "
                "cardinality expectation (the joined table is the argument of expect_on_semi_or_anti_for<Table> "
                "below); remove the jy::expect::... argument, or use join_inner/join_left");
};
/// Instantiated when a conjunct of an annotated join to `Table` that is not `==` reads it.
template <class Table, class... Columns>
struct expect_non_equational_in {
  static_assert(detail::always_false<Table>::value,
                "joinery[expect_non_equational]: a join annotated with jy::expect compares the right table only "
                "with == (a conjunct with >, <, !=, ||, ! or a call reads it; its columns are the arguments of "
                "expect_non_equational_in<Table, Columns...> below); write the condition as an AND of "
                "left == right keys, or drop the expectation");
};
/// Instantiated when an `==` operand reads the right table `Table` but is not a plain column of it.
template <class Table, class... Columns>
struct expect_right_outside_key_in {
  static_assert(detail::always_false<Table>::value,
                "joinery[expect_right_outside_key]: a join annotated with jy::expect may read the right table only "
                "as a plain column in an == key (see expect_right_outside_key_in<Table, Columns...> below); "
                "compute the right side's key upstream as a column, or drop the expectation");
};
/// Instantiated when both operands of an `==` are columns of the right table `Table`.
template <class Table, class... Columns>
struct expect_same_side_in {
  static_assert(detail::always_false<Table>::value,
                "joinery[expect_same_side]: an == in an annotated join compares two columns of the right table "
                "(see expect_same_side_in<Table, Columns...> below), which is not a key; filter the right table "
                "upstream, or compare a left expression with a right column");
};
/// Instantiated when an annotated join to `Table` has no left == right key pair.
template <class Table>
struct expect_no_keys_for {
  static_assert(detail::always_false<Table>::value,
                "joinery[expect_no_keys]: a join annotated with jy::expect needs at least one left == right key "
                "pair to count duplicates by (the joined table is the argument of expect_no_keys_for<Table> "
                "below); add one, or drop the expectation");
};
/// Instantiated when a one_to_one join to `Table` has no plain left column == plain right column pair.
template <class Table>
struct expect_one_to_one_needs_plain_pair_for {
  static_assert(detail::always_false<Table>::value,
                "joinery[expect_one_to_one_needs_plain_pair]: expect::one_to_one needs at least one pair of a "
                "plain left column == a plain right column (keys computed on the left prove many_to_one only; "
                "see expect_one_to_one_needs_plain_pair_for<Table> below); add such a pair or expect "
                "many_to_one");
};

namespace detail {

template <class Refs>
struct diag_columns;
template <class... R>
struct diag_columns<type_list<R...>> {
  template <template <class, class...> class D, class T>
  using apply = D<T, column_named<typename R::table, spelled<R::name>>...>;
};

/// The diagnostic of step `I`'s first E079 problem.
template <class P, std::size_t I>
constexpr bool report_expect_issue() {
  constexpr first_expect_issue f = first_issue_of_step<P, I>();
  if constexpr (f.ok) {
    return true;
  } else {
    using S = plan_step_t<P, I>;
    using T = typename S::table;
    if constexpr (f.issue.r == rule::expect_on_semi_or_anti) {
      (void)expect_on_semi_or_anti_for<T>{};
    } else if constexpr (f.issue.r == rule::expect_no_keys) {
      (void)expect_no_keys_for<T>{};
    } else if constexpr (f.issue.r == rule::expect_one_to_one_needs_plain_pair) {
      (void)expect_one_to_one_needs_plain_pair_for<T>{};
    } else {
      using C = std::tuple_element_t<f.issue.conjunct, conjuncts_t<typename S::condition>>;
      using cols = diag_columns<expr_columns_t<C>>;
      if constexpr (f.issue.r == rule::expect_non_equational) {
        (void)typename cols::template apply<expect_non_equational_in, T>{};
      } else if constexpr (f.issue.r == rule::expect_right_outside_key) {
        (void)typename cols::template apply<expect_right_outside_key_in, T>{};
      } else {
        (void)typename cols::template apply<expect_same_side_in, T>{};
      }
    }
    return false;
  }
}

/// `true`, or the first E079 rule's `joinery[...]` error.
template <class P>
constexpr bool check_plan_expect() {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    bool ok = true;
    ((ok = ok && report_expect_issue<P, I>()), ...);
    return ok;
  }(std::make_index_sequence<P::step_count>{});
}

}  // namespace detail
}  // namespace joinery
