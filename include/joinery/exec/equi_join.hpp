#pragma once
/// @file
/// The probe loop of the one equi-join kernel: probe rows in input order, each
/// one's matches in build input order, a left join's unmatched row once, in
/// place. Join kinds differ only in what they emit.
#include <cstddef>
#include <optional>
#include <span>

#include <joinery/exec/arrangement.hpp>

namespace joinery::exec {

enum class join_kind { inner, left, semi, anti };

/// Marks "no build row" in a match (a left join's unmatched probe row, or a
/// semi/anti join's kept probe row).
inline constexpr std::size_t unmatched = static_cast<std::size_t>(-1);

/// Probes `build` with rows [0, n_probe) of the other side.
/// * `key_at(i)`: `std::optional<Key>` of probe row i (empty: a NULL key, no match);
/// * `accept(i, j)`: the residual condition on a candidate pair (true when none);
/// * `emit(i, j)`: receives the match set in canonical order; j is `unmatched`
///   for a left join's unmatched row and for semi/anti output rows.
template <join_kind Kind, class Key, class Hash, class KeyAt, class Accept, class Emit>
void probe(const arrangement<Key, Hash>& build, std::size_t n_probe, KeyAt&& key_at, Accept&& accept,
           Emit&& emit) {
  for (std::size_t i = 0; i < n_probe; ++i) {
    std::optional<Key> k = key_at(i);
    std::span<const row_pos> candidates;
    if (k) candidates = build.matches(*k);
    bool any = false;
    for (row_pos j : candidates) {
      if (!accept(i, static_cast<std::size_t>(j))) continue;
      any = true;
      if constexpr (Kind == join_kind::inner || Kind == join_kind::left) {
        emit(i, static_cast<std::size_t>(j));
      } else {
        break;  // semi/anti only need to know one match exists
      }
    }
    if constexpr (Kind == join_kind::left) {
      if (!any) emit(i, unmatched);
    } else if constexpr (Kind == join_kind::semi) {
      if (any) emit(i, unmatched);
    } else if constexpr (Kind == join_kind::anti) {
      if (!any) emit(i, unmatched);
    }
  }
}

/// A join whose condition has no equality key at all: the nested loop the user
/// wrote, in the same canonical order. The only quadratic path.
template <join_kind Kind, class Accept, class Emit>
void nested_loop(std::size_t n_probe, std::size_t n_build, Accept&& accept, Emit&& emit) {
  for (std::size_t i = 0; i < n_probe; ++i) {
    bool any = false;
    for (std::size_t j = 0; j < n_build; ++j) {
      if (!accept(i, j)) continue;
      any = true;
      if constexpr (Kind == join_kind::inner || Kind == join_kind::left) emit(i, j);
      else break;
    }
    if constexpr (Kind == join_kind::left) {
      if (!any) emit(i, unmatched);
    } else if constexpr (Kind == join_kind::semi) {
      if (any) emit(i, unmatched);
    } else if constexpr (Kind == join_kind::anti) {
      if (!any) emit(i, unmatched);
    }
  }
}

}  // namespace joinery::exec
