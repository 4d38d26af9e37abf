#pragma once
/// @file
/// `fixed_string<N>`: a string usable as a template argument, so names of
/// tables, columns, symbols and models are part of types (and so appear in
/// compiler notes when a rule fires).
#include <algorithm>
#include <cstddef>
#include <string_view>
#include <utility>

namespace joinery {

template <std::size_t N>
struct fixed_string {
  char value[N]{};  // includes the terminating NUL

  constexpr fixed_string(const char (&s)[N]) noexcept { std::copy_n(s, N, value); }  // NOLINT: implicit by design

  [[nodiscard]] constexpr std::string_view view() const noexcept { return {value, N - 1}; }
  [[nodiscard]] static constexpr std::size_t size() noexcept { return N - 1; }
  constexpr operator std::string_view() const noexcept { return view(); }  // NOLINT

  template <std::size_t M>
  friend constexpr bool operator==(const fixed_string& a, const fixed_string<M>& b) noexcept {
    return a.view() == b.view();
  }
};

template <std::size_t N>
fixed_string(const char (&)[N]) -> fixed_string<N>;

/// A name spelled out as characters. Diagnostics carry names as `spelled<S>`
/// so that both GCC and Clang print them legibly in the instantiation note
/// (Clang prints a `fixed_string` argument as a list of character codes).
template <char... C>
struct name_chars {};

namespace detail {
template <fixed_string S, std::size_t... I>
name_chars<S.value[I]...> spell(std::index_sequence<I...>);
}  // namespace detail

template <fixed_string S>
using spelled = decltype(detail::spell<S>(std::make_index_sequence<S.size()>{}));

}  // namespace joinery
