#pragma once
/// @file
/// Rule codes and the constexpr findings list that `validate()` returns.
/// A rule is decided in one place (check/) and reported two ways: as a
/// finding `{rule, path}` here, and as a `static_assert` whose message starts
/// `joinery[<rule>]:` at every entry point that executes or prints a plan.
#include <cstddef>
#include <string_view>

namespace joinery {

enum class rule {
  // schema
  unknown_column,
  duplicate_column,
  missing_source,
  // reference/000: join side resolution in the aggregate IR
  join_side_ambiguous,
  join_syms_unknown_symbol,
  join_index_set_ambiguous,
  join_syms_axis_mismatch,
  join_key_unresolved,
  // reference/002, family E079: cardinality expectation shape
  expect_on_semi_or_anti,
  expect_non_equational,
  expect_right_outside_key,
  expect_same_side,
  expect_no_keys,
  expect_one_to_one_needs_plain_pair,
  // sql/
  sql_unsupported_call,
};

[[nodiscard]] constexpr std::string_view rule_name(rule r) noexcept {
  switch (r) {
    case rule::unknown_column: return "unknown_column";
    case rule::duplicate_column: return "duplicate_column";
    case rule::missing_source: return "missing_source";
    case rule::join_side_ambiguous: return "join_side_ambiguous";
    case rule::join_syms_unknown_symbol: return "join_syms_unknown_symbol";
    case rule::join_index_set_ambiguous: return "join_index_set_ambiguous";
    case rule::join_syms_axis_mismatch: return "join_syms_axis_mismatch";
    case rule::join_key_unresolved: return "join_key_unresolved";
    case rule::expect_on_semi_or_anti: return "expect_on_semi_or_anti";
    case rule::expect_non_equational: return "expect_non_equational";
    case rule::expect_right_outside_key: return "expect_right_outside_key";
    case rule::expect_same_side: return "expect_same_side";
    case rule::expect_no_keys: return "expect_no_keys";
    case rule::expect_one_to_one_needs_plain_pair: return "expect_one_to_one_needs_plain_pair";
    case rule::sql_unsupported_call: return "sql_unsupported_call";
  }
  return "?";
}

/// A JSON-pointer-like location inside a node, e.g. `/join/0/on/0/1`.
class path_string {
 public:
  static constexpr std::size_t capacity = 62;

  constexpr path_string() = default;
  constexpr path_string(std::string_view s) { append(s); }  // NOLINT: implicit by design
  template <std::size_t N>
  constexpr path_string(const char (&s)[N]) {  // NOLINT: implicit by design
    append(std::string_view(s, N - 1));
  }

  constexpr path_string& append(std::string_view s) {
    for (char c : s)
      if (len_ < capacity) buf_[len_++] = c;
    return *this;
  }
  /// Appends `/<i>`.
  constexpr path_string& index(std::size_t i) {
    char digits[20]{};
    std::size_t n = 0;
    do {
      digits[n++] = static_cast<char>('0' + i % 10);
      i /= 10;
    } while (i != 0);
    append("/");
    while (n != 0) append(std::string_view(&digits[--n], 1));
    return *this;
  }
  /// Appends `/<segment>`.
  constexpr path_string& segment(std::string_view s) { return append("/").append(s); }

  [[nodiscard]] constexpr std::string_view view() const noexcept { return {buf_, len_}; }
  constexpr operator std::string_view() const noexcept { return view(); }  // NOLINT
  friend constexpr bool operator==(const path_string& a, std::string_view b) noexcept { return a.view() == b; }

 private:
  char buf_[capacity]{};
  std::size_t len_ = 0;
};

struct finding {
  joinery::rule rule{};
  path_string path{};
  friend constexpr bool operator==(const finding& a, const finding& b) noexcept {
    return a.rule == b.rule && a.path.view() == b.path.view();
  }
};

/// The constexpr list `validate()` returns: `empty()`, `size()`, `[i]`.
class findings {
 public:
  static constexpr std::size_t capacity = 24;

  constexpr void add(joinery::rule r, path_string p) {
    if (size_ < capacity) items_[size_++] = finding{r, p};
    else overflowed_ = true;
  }
  constexpr void append(const findings& other) {
    for (const auto& f : other) add(f.rule, f.path);
  }
  [[nodiscard]] constexpr bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] constexpr std::size_t size() const noexcept { return size_; }
  [[nodiscard]] constexpr const finding& operator[](std::size_t i) const noexcept { return items_[i]; }
  [[nodiscard]] constexpr const finding* begin() const noexcept { return items_; }
  [[nodiscard]] constexpr const finding* end() const noexcept { return items_ + size_; }
  /// True when more findings were produced than fit (the list keeps the first ones).
  [[nodiscard]] constexpr bool truncated() const noexcept { return overflowed_; }
  [[nodiscard]] constexpr bool contains(joinery::rule r) const noexcept {
    for (const auto& f : *this)
      if (f.rule == r) return true;
    return false;
  }

 private:
  finding items_[capacity]{};
  std::size_t size_ = 0;
  bool overflowed_ = false;
};

}  // namespace joinery
