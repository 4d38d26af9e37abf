#pragma once
/// @file
/// `cardinality_report`: one line per annotated join of the last good
/// refresh of a `materialized`, e.g.
/// `ok enriched join_left customers: many_to_one (3 right rows, 0 duplicate key groups)`.
/// Usable as a list of lines (`size()`, `[i]`, iteration) and as one string
/// (lines joined by '\n').
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace joinery {

/// The `ok ...` lines of the last good refresh, in join order.
class cardinality_report {
 public:
  cardinality_report() = default;
  explicit cardinality_report(std::vector<std::string> lines) noexcept : lines_(std::move(lines)) {}

  [[nodiscard]] std::size_t size() const noexcept { return lines_.size(); }
  [[nodiscard]] bool empty() const noexcept { return lines_.empty(); }
  [[nodiscard]] const std::string& operator[](std::size_t i) const noexcept { return lines_[i]; }
  [[nodiscard]] auto begin() const noexcept { return lines_.begin(); }
  [[nodiscard]] auto end() const noexcept { return lines_.end(); }
  [[nodiscard]] const std::string& front() const noexcept { return lines_.front(); }
  [[nodiscard]] const std::string& back() const noexcept { return lines_.back(); }
  [[nodiscard]] const std::vector<std::string>& lines() const noexcept { return lines_; }

  static constexpr std::size_t npos = std::string::npos;
  /// Position of `text` in `str()`, or `npos`.
  [[nodiscard]] std::size_t find(std::string_view text) const { return str().find(text); }
  /// True when some line contains `text`.
  [[nodiscard]] bool contains(std::string_view text) const { return find(text) != npos; }

  /// All lines joined by '\n' (no trailing newline).
  [[nodiscard]] std::string str() const {
    std::string out;
    for (const auto& l : lines_) {
      if (!out.empty()) out += '\n';
      out += l;
    }
    return out;
  }
  operator std::string() const { return str(); }  // NOLINT: a report reads as its text

  friend bool operator==(const cardinality_report& r, std::string_view text) { return r.str() == text; }
  friend bool operator==(const cardinality_report& r, const std::vector<std::string>& lines) {
    return r.lines_ == lines;
  }
  friend std::ostream& operator<<(std::ostream& os, const cardinality_report& r) { return os << r.str(); }

 private:
  std::vector<std::string> lines_;
};

}  // namespace joinery
