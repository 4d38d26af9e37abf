#pragma once
/// @file
/// Environments an expression is evaluated in while a plan runs: a row of
/// the match set (every bound table at its position, a left join's missing
/// row reading as NULL), a candidate pair of a join (that row plus a row of
/// the joined table), and one row of a single table (a join's build side).
/// Sources are the relations passed to `run`, found by table type; an alias
/// reads its base table's relation.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <tuple>
#include <type_traits>

#include <joinery/core/key.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/exec/match_set.hpp>
#include <joinery/plan/scope.hpp>
#include <joinery/schema/relation.hpp>
#include <joinery/schema/table.hpp>

namespace joinery::detail {

/// The relations an entry point received, looked up by (base) table type.
template <class... Ts>
struct source_set {
  std::tuple<const relation<Ts>*...> rels;

  template <class T>
  [[nodiscard]] const auto& get() const noexcept {
    constexpr std::size_t i = index_of_type<base_table_t<T>, base_table_t<Ts>...>;
    return *std::get<i>(rels);
  }
};

/// Sources by type only: result types are computed from `typed_env`, whose
/// reads are instantiated for their types and never run.
struct declared_sources {
  template <class T>
  const relation<base_table_t<T>>& get() const {
    static const relation<base_table_t<T>> none;
    return none;
  }
};

/// Column `Name` of `T` at position `p` of `rel`; when `Nullable`, an
/// `std::optional` that is empty for `exec::no_row`.
template <class T, fixed_string Name, bool Nullable, class Rel>
constexpr decltype(auto) read_column(const Rel& rel, std::size_t p) {
  constexpr std::size_t c = column_index<T>(Name.view());
  const auto& v = rel.template column_at<c>();
  if constexpr (!Nullable) {
    return v[p];
  } else {
    using stored = typename std::remove_cvref_t<decltype(v)>::value_type;
    using R = std::optional<unwrap_optional_t<stored>>;
    if constexpr (std::is_arithmetic_v<stored>) {
      // Branch-free: a left join's missing rows are often half the rows, in
      // no pattern a predictor can learn; read a valid slot and mask it.
      // (The index is masked arithmetically: written as `has ? p : 0`,
      // compilers turn the load back into a branch.)
      const bool has = p != exec::no_row;
      const std::size_t at = p & (std::size_t{0} - static_cast<std::size_t>(has));
      const stored x = v.empty() ? stored{} : v[at];
      return has ? R(x) : R();
    } else {
      if (p == exec::no_row) return R();
      return R(v[p]);
    }
  }
}

template <class T, class Bindings>
struct binding_of;
template <class T, class... B>
struct binding_of<T, type_list<B...>> {
  static constexpr std::size_t index = index_of_type<T, typename B::table...>;
  using type = nth_type<index, B...>;
};

/// A row `r` of match set `ms` whose columns are the bound tables `Bindings`.
template <class Bindings, class Src>
struct ms_env {
  static constexpr std::size_t width = Bindings::size;
  const Src* src;
  const exec::match_set<width>* ms;
  std::size_t r;

  template <class T, fixed_string Name>
  [[nodiscard]] decltype(auto) read() const {
    using b = binding_of<T, Bindings>;
    return read_column<T, Name, b::type::nullable>(src->template get<T>(), ms->at(b::index, r));
  }
};

/// A candidate pair of a join: the left row (`Left`, an `ms_env`) and row `j`
/// of the joined table `T`.
template <class Left, class T, class Rel>
struct pair_env {
  Left left;
  const Rel* rel;
  std::size_t j;

  template <class U, fixed_string Name>
  [[nodiscard]] decltype(auto) read() const {
    if constexpr (std::is_same_v<U, T>) {
      return read_column<T, Name, false>(*rel, j);
    } else {
      return left.template read<U, Name>();
    }
  }
};

/// Row `j` of table `T` alone (a join's build side).
template <class T, class Rel>
struct table_env {
  const Rel* rel;
  std::size_t j;

  template <class U, fixed_string Name>
  [[nodiscard]] decltype(auto) read() const {
    static_assert(std::is_same_v<U, T>);
    return read_column<T, Name, false>(*rel, j);
  }
};

/// The environment type a plan's final rows are evaluated in (for result types).
template <class Bindings>
using typed_env = ms_env<Bindings, declared_sources>;

}  // namespace joinery::detail
