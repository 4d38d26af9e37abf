#pragma once
/// @file
/// The data side of cardinality expectations (reference/002): for every join
/// annotated `expect::many_to_one` the right side's duplicate key groups are
/// counted on the arrangement the join builds anyway (NULL keys and rows
/// failing a right-side literal conjunct are not in it), and for
/// `expect::one_to_one` the left side's too (one grouping pass over the left
/// keys). Zero passes and adds an `ok ...` report line; anything else throws
/// `cardinality_error` before the join emits a row.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <joinery/core/key.hpp>
#include <joinery/exec/arrangement.hpp>
#include <joinery/exec/group_by.hpp>
#include <joinery/plan/join.hpp>

namespace joinery {

/// A join's data broke its cardinality expectation. `what()` reads
/// `join cardinality FAILED [<model> <join kind> <table>]: expected many_to_one
/// but <table> has N duplicate key groups (<key>=<value> xK, ...)` (up to five
/// groups, in order of first appearance, then `, ...`).
class cardinality_error : public std::runtime_error {
 public:
  cardinality_error(const std::string& what, std::size_t duplicate_groups)
      : std::runtime_error(what), duplicate_groups_(duplicate_groups) {}
  /// The number of duplicate key groups found.
  [[nodiscard]] std::size_t duplicate_groups() const noexcept { return duplicate_groups_; }

 private:
  std::size_t duplicate_groups_;
};

namespace detail {

/// What a `materialized` remembers about a verified join: the versions of
/// the relations each side was read from when it passed.
struct verified_join {
  std::optional<std::uint64_t> right_version;
  std::optional<std::vector<std::uint64_t>> left_versions;
  std::size_t left_rows = 0;
};

/// What a run records: the work of every arrangement and nested loop, the
/// report lines of annotated joins, and (for `materialized`) what was
/// verified before and what this run verified.
struct exec_context {
  exec::work_counters work{};
  std::uint64_t nested_pairs = 0;
  std::vector<std::string> report;
  const std::vector<verified_join>* previously = nullptr;  // by step index
  std::vector<verified_join> verified;                      // by step index
};

/// A value as a report or message shows it.
template <class V>
std::string format_value(const V& v) {
  if constexpr (is_optional_v<V>) {
    return v ? format_value(*v) : std::string("NULL");
  } else if constexpr (std::is_same_v<V, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_convertible_v<const V&, std::string_view>) {
    return std::string(std::string_view(v));
  } else if constexpr (requires(std::ostream& os) { os << v; }) {
    std::ostringstream os;
    os << v;
    return os.str();
  } else {
    return "?";
  }
}

/// ` (k=v xK, ...)`: up to five duplicate groups of `arr`, described by
/// `describe(first row of the group)`.
template <class Arr, class Describe>
std::string duplicate_groups_text(const Arr& arr, const Describe& describe) {
  const std::vector<std::uint32_t> leaders = exec::group_leaders(arr);
  std::string out = " (";
  std::size_t shown = 0;
  for (std::size_t g = 0; g < arr.group_count(); ++g) {
    const std::size_t size = arr.group_size(static_cast<exec::group_id>(g));
    if (size < 2) continue;
    if (shown == 5) {
      out += ", ...";
      break;
    }
    if (shown != 0) out += ", ";
    out += describe(leaders[g]) + " x" + std::to_string(size);
    ++shown;
  }
  return out + ")";
}

inline std::string join_label(std::string_view model, join_op kind, std::string_view table) {
  std::string s(model);
  s += ' ';
  s += join_op_name(kind);
  s += ' ';
  s += table;
  return s;
}

/// Counts one side's duplicate key groups; throws `cardinality_error` if any.
template <class Arr, class Describe>
void require_unique(const Arr& arr, std::string_view label, std::string_view expectation, std::string_view side,
                    const Describe& describe) {
  const std::size_t dups = arr.duplicate_group_count();
  if (dups == 0) return;
  std::string msg = "join cardinality FAILED [";
  msg += label;
  msg += "]: expected ";
  msg += expectation;
  msg += " but ";
  msg += side;
  msg += " has " + std::to_string(dups) + " duplicate key groups";
  msg += duplicate_groups_text(arr, describe);
  throw cardinality_error(msg, dups);
}

}  // namespace detail
}  // namespace joinery
