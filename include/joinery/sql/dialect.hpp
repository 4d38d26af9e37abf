#pragma once
/// @file
/// `dialect`: the SQL engine `to_sql` writes for. The dialects differ only in
/// spelling (booleans, integer division, NaN and infinity literals); the
/// statement's shape and meaning are the same.
#include <string_view>

namespace joinery {

/// The SQL engines `to_sql` and `cardinality_sql` can write for.
enum class dialect {
  sqlite,  ///< SQLite >= 3.25 (window functions); NaN is stored as the text 'NaN' (docs/sql.md)
  duckdb,  ///< DuckDB (NaN = NaN natively; `//` is integer division)
};

/// `sqlite` / `duckdb`.
[[nodiscard]] constexpr std::string_view dialect_name(dialect d) noexcept {
  return d == dialect::sqlite ? "sqlite" : "duckdb";
}

}  // namespace joinery
