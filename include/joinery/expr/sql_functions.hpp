#pragma once
/// @file
/// The library's named SQL-mapped functions: `jy::upper`, `jy::lower`. Each is
/// an ordinary function object usable in `jy::call(jy::upper, col)` (joinery
/// runs it on `std::string`) that also carries the name of the SQL function
/// with the same meaning, so `jy::to_sql` can print the call. A user function
/// has no SQL name: printing it is `joinery[sql_unsupported_call]`.
///
/// Both fold ASCII letters only, as SQLite's built-in `upper()`/`lower()` do;
/// bytes outside A-Z/a-z (UTF-8 included) pass through unchanged. A NULL
/// argument (an empty `std::optional`) gives NULL, as in SQL.
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace joinery {

/// A function object `to_sql` can print: it names its SQL counterpart as
/// `static constexpr std::string_view sql_name`.
template <class F>
concept sql_mapped_function = requires {
  { std::remove_cvref_t<F>::sql_name } -> std::convertible_to<std::string_view>;
};

namespace detail {

/// An ASCII case mapping as a SQL-mapped function object.
template <char From, char To>
struct ascii_case_fn {
  /// The mapped string (bytes outside From..From+25 unchanged).
  [[nodiscard]] std::string operator()(std::string_view s) const {
    std::string out(s);
    for (char& c : out)
      if (c >= From && c <= static_cast<char>(From + 25)) c = static_cast<char>(c - From + To);
    return out;
  }
  /// NULL stays NULL.
  template <class S>
    requires std::convertible_to<const S&, std::string_view>
  [[nodiscard]] std::optional<std::string> operator()(const std::optional<S>& s) const {
    if (!s) return std::nullopt;
    return (*this)(std::string_view(*s));
  }
};

}  // namespace detail

/// `upper(s)`: ASCII upper case; SQL `upper(s)`.
/// Example: `jy::call(jy::upper, jy::col<users, "email">) == jy::col<accounts, "email">`.
struct upper_fn : detail::ascii_case_fn<'a', 'A'> {
  static constexpr std::string_view sql_name = "upper";
};
/// `lower(s)`: ASCII lower case; SQL `lower(s)`.
struct lower_fn : detail::ascii_case_fn<'A', 'a'> {
  static constexpr std::string_view sql_name = "lower";
};

/// The function object of `upper`: see `upper_fn`.
inline constexpr upper_fn upper{};
/// The function object of `lower`: see `lower_fn`.
inline constexpr lower_fn lower{};

}  // namespace joinery
