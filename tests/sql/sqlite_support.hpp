#pragma once
// SQLite as the oracle of the differential tests: a connection that loads
// jy::relations (each with the `_pos` column to_sql's ORDER BY reads) and
// runs a statement into rows of cells, and joinery results as the same cells.
//
// NaN: SQLite cannot store a NaN (sqlite3_bind_double turns it into NULL), so
// a NaN is stored as the text 'NaN' (to_sql's sqlite dialect prints a NaN
// literal the same way). Text equals text, never a number, so NaN = NaN and
// NaN <> 1.5 hold as in joinery, and GROUP BY puts the NaNs in one group.
// -0.0: SQLite's REAL compares -0.0 = 0.0 (as joinery) but may drop the sign
// when storing, so cells compare doubles numerically (-0.0 equals 0.0).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <sqlite3.h>

#include <joinery/core/key.hpp>
#include <joinery/schema/relation.hpp>

namespace sqltest {

namespace jy = joinery;

/// One value: NULL, an integer, a double or a text. (A plain struct, not a
/// std::variant: GCC 12 -O3 warns falsely on copies of variant<string>.)
struct cell {
  enum kind_t { null, integer, real, text } kind = null;
  std::int64_t i = 0;
  double d = 0;
  std::string s;

  static cell of_int(std::int64_t v) { return {integer, v, 0, {}}; }
  static cell of_real(double v) { return {real, 0, v, {}}; }
  static cell of_text(std::string v) { return {text, 0, 0, std::move(v)}; }
};
using row = std::vector<cell>;

template <class V>
cell to_cell(const V& v) {
  if constexpr (jy::is_optional_v<V>) {
    if (!v) return cell{};
    return to_cell(*v);
  } else if constexpr (std::is_integral_v<V>) {
    return cell::of_int(static_cast<std::int64_t>(v));
  } else if constexpr (std::is_floating_point_v<V>) {
    return cell::of_real(static_cast<double>(v));
  } else {
    return cell::of_text(std::string(v));
  }
}

/// `expected` (joinery's) equals `actual` (SQLite's): numbers by value (NaN
/// equals NaN, -0.0 equals 0.0), the text 'NaN' as a NaN double.
inline bool same_cell(const cell& expected, const cell& actual) {
  switch (expected.kind) {
    case cell::null: return actual.kind == cell::null;
    case cell::real:
      if (actual.kind == cell::real)
        return expected.d == actual.d || (std::isnan(expected.d) && std::isnan(actual.d));
      if (actual.kind == cell::integer) return expected.d == static_cast<double>(actual.i);
      return actual.kind == cell::text && actual.s == "NaN" && std::isnan(expected.d);
    case cell::integer:
      if (actual.kind == cell::integer) return expected.i == actual.i;
      return actual.kind == cell::real && static_cast<double>(expected.i) == actual.d;
    case cell::text: return actual.kind == cell::text && expected.s == actual.s;
  }
  return false;
}

inline std::string show(const cell& c) {
  std::ostringstream s;
  switch (c.kind) {
    case cell::null: s << "NULL"; break;
    case cell::integer: s << c.i; break;
    case cell::real:
      if (c.d == 0 && std::signbit(c.d)) s << "-0.0";
      else s << c.d << (c.d == std::floor(c.d) && std::isfinite(c.d) ? ".0" : "");
      break;
    case cell::text: s << '\'' << c.s << '\''; break;
  }
  return s.str();
}

inline std::string show(const std::vector<row>& rows) {
  std::string out;
  for (const auto& r : rows) {
    out += "  (";
    for (std::size_t i = 0; i < r.size(); ++i) out += (i ? ", " : "") + show(r[i]);
    out += ")\n";
  }
  return out.empty() ? "  (no rows)\n" : out;
}

/// Rows equal cell by cell, in order.
inline bool same_rows(const std::vector<row>& expected, const std::vector<row>& actual) {
  if (expected.size() != actual.size()) return false;
  for (std::size_t r = 0; r < expected.size(); ++r) {
    if (expected[r].size() != actual[r].size()) return false;
    for (std::size_t c = 0; c < expected[r].size(); ++c)
      if (!same_cell(expected[r][c], actual[r][c])) return false;
  }
  return true;
}

/// A relation's rows as cells.
template <class T>
std::vector<row> rows_of(const jy::relation<T>& rel) {
  std::vector<row> out;
  out.reserve(rel.size());
  for (std::size_t i = 0; i < rel.size(); ++i)
    out.push_back(std::apply([](const auto&... v) { return row{to_cell(v)...}; }, rel.row(i)));
  return out;
}

template <class V>
constexpr std::string_view sql_type() {
  using U = jy::unwrap_optional_t<V>;
  if constexpr (std::is_integral_v<U>) return "INTEGER";
  else if constexpr (std::is_floating_point_v<U>) return "REAL";
  else return "TEXT";
}

/// An in-memory SQLite database.
class database {
 public:
  database() {
    if (sqlite3_open(":memory:", &db_) != SQLITE_OK) throw std::runtime_error("sqlite3_open failed");
  }
  database(const database&) = delete;
  database& operator=(const database&) = delete;
  ~database() {
    for (auto& [name, st] : inserts_) sqlite3_finalize(st);
    sqlite3_close(db_);
  }

  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "?";
      sqlite3_free(err);
      throw std::runtime_error("sqlite: " + msg + "\nin: " + sql);
    }
  }

  /// `CREATE TABLE "<T>" ("_pos" INTEGER, <columns>)`.
  template <class T>
  void create() {
    std::string sql = "CREATE TABLE \"" + std::string(T::name.view()) + "\" (\"_pos\" INTEGER";
    [&]<class... C>(jy::type_list<C...>) {
      ((sql += ", \"" + std::string(C::name.view()) + "\" " + std::string(sql_type<typename C::type>())), ...);
    }(typename T::columns{});
    exec(sql + ")");
    std::string ins = "INSERT INTO \"" + std::string(T::name.view()) + "\" VALUES (?";
    for (std::size_t i = 0; i < T::column_count; ++i) ins += ", ?";
    sqlite3_stmt* st = nullptr;
    check(sqlite3_prepare_v2(db_, (ins + ")").c_str(), -1, &st, nullptr), ins);
    inserts_[std::string(T::name.view())] = st;
  }

  /// Replaces table T's rows by `rel`'s, `_pos` = position.
  template <class T>
  void load(const jy::relation<T>& rel) {
    exec("DELETE FROM \"" + std::string(T::name.view()) + "\"");
    sqlite3_stmt* st = inserts_.at(std::string(T::name.view()));
    for (std::size_t i = 0; i < rel.size(); ++i) {
      sqlite3_reset(st);
      sqlite3_bind_int64(st, 1, static_cast<sqlite3_int64>(i));
      [&]<std::size_t... c>(std::index_sequence<c...>) {
        (bind(st, static_cast<int>(c) + 2, rel.template column_at<c>()[i]), ...);
      }(std::make_index_sequence<T::column_count>{});
      if (sqlite3_step(st) != SQLITE_DONE) throw std::runtime_error(sqlite3_errmsg(db_));
    }
  }

  /// The rows `sql` returns, each column as a cell.
  std::vector<row> query(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    check(sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr), sql);
    std::vector<row> out;
    int rc = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      const int n = sqlite3_column_count(st);
      row r;
      r.reserve(static_cast<std::size_t>(n));
      for (int c = 0; c < n; ++c) {
        switch (sqlite3_column_type(st, c)) {
          case SQLITE_INTEGER: r.push_back(cell::of_int(sqlite3_column_int64(st, c))); break;
          case SQLITE_FLOAT: r.push_back(cell::of_real(sqlite3_column_double(st, c))); break;
          case SQLITE_TEXT:
            r.push_back(cell::of_text(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, c)),
                                                  static_cast<std::size_t>(sqlite3_column_bytes(st, c)))));
            break;
          default: r.push_back(cell{}); break;
        }
      }
      out.push_back(std::move(r));
    }
    const std::string err = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db_);
    sqlite3_finalize(st);
    if (!err.empty()) throw std::runtime_error("sqlite: " + err + "\nin: " + sql);
    return out;
  }

  /// The single integer a `SELECT COUNT(*) ...` returns.
  std::int64_t count(const std::string& sql) {
    const auto rows = query(sql);
    if (rows.size() != 1 || rows[0].size() != 1 || rows[0][0].kind != cell::integer)
      throw std::runtime_error("not a count: " + sql);
    return rows[0][0].i;
  }

 private:
  void check(int rc, const std::string& sql) {
    if (rc != SQLITE_OK) throw std::runtime_error("sqlite: " + std::string(sqlite3_errmsg(db_)) + "\nin: " + sql);
  }

  template <class V>
  static void bind(sqlite3_stmt* st, int i, const V& v) {
    if constexpr (jy::is_optional_v<V>) {
      if (!v) sqlite3_bind_null(st, i);
      else bind(st, i, *v);
    } else if constexpr (std::is_integral_v<V>) {
      sqlite3_bind_int64(st, i, static_cast<sqlite3_int64>(v));
    } else if constexpr (std::is_floating_point_v<V>) {
      if (std::isnan(v)) sqlite3_bind_text(st, i, "NaN", 3, SQLITE_STATIC);  // see the file comment
      else sqlite3_bind_double(st, i, static_cast<double>(v));
    } else {
      const std::string_view s(v);
      sqlite3_bind_text(st, i, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    }
  }

  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*> inserts_;
};

}  // namespace sqltest
