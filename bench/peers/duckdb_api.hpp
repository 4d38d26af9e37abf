#pragma once
// The few DuckDB C API functions the peer harness calls, declared here and
// resolved with dlopen/dlsym from a libduckdb.so fetched into the build tree
// (scripts/bench-peers); nothing of DuckDB is committed or linked.
#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace joinery::peers {

/// The C API's result struct, allocated by the caller (48 bytes: three 64-bit
/// counts, three pointers); it must be destroyed even when the query failed.
struct duckdb_result {
  std::uint64_t deprecated_column_count;
  std::uint64_t deprecated_row_count;
  std::uint64_t deprecated_rows_changed;
  void* deprecated_columns;
  char* deprecated_error_message;
  void* internal_data;
};
static_assert(sizeof(duckdb_result) == 48);

using duckdb_database = void*;    // struct _duckdb_database { void* internal_ptr; } *
using duckdb_connection = void*;  // likewise
using duckdb_appender = void*;
using duckdb_state = int;         // 0 = DuckDBSuccess

class duckdb_lib {
 public:
  /// Loads the library; `ok()` is false (and `error()` says why) when it is missing.
  explicit duckdb_lib(const std::string& path) {
    handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
      const char* e = dlerror();
      error_ = e ? e : "dlopen failed";
      return;
    }
    try {
      sym(open, "duckdb_open");
      sym(close, "duckdb_close");
      sym(connect, "duckdb_connect");
      sym(disconnect, "duckdb_disconnect");
      sym(query_raw, "duckdb_query");
      sym(destroy_result, "duckdb_destroy_result");
      sym(result_error, "duckdb_result_error");
      sym(row_count, "duckdb_row_count");
      sym(value_int64, "duckdb_value_int64");
      sym(appender_create, "duckdb_appender_create");
      sym(append_int64, "duckdb_append_int64");
      sym(appender_end_row, "duckdb_appender_end_row");
      sym(appender_destroy, "duckdb_appender_destroy");
    } catch (const std::exception& e) {
      error_ = e.what();
      dlclose(handle_);
      handle_ = nullptr;
    }
  }
  duckdb_lib(const duckdb_lib&) = delete;
  duckdb_lib& operator=(const duckdb_lib&) = delete;
  ~duckdb_lib() {
    if (handle_) dlclose(handle_);
  }
  [[nodiscard]] bool ok() const noexcept { return handle_ != nullptr; }
  [[nodiscard]] const std::string& error() const noexcept { return error_; }

  duckdb_state (*open)(const char*, duckdb_database*) = nullptr;
  void (*close)(duckdb_database*) = nullptr;
  duckdb_state (*connect)(duckdb_database, duckdb_connection*) = nullptr;
  void (*disconnect)(duckdb_connection*) = nullptr;
  duckdb_state (*query_raw)(duckdb_connection, const char*, duckdb_result*) = nullptr;
  void (*destroy_result)(duckdb_result*) = nullptr;
  const char* (*result_error)(duckdb_result*) = nullptr;
  std::uint64_t (*row_count)(duckdb_result*) = nullptr;
  std::int64_t (*value_int64)(duckdb_result*, std::uint64_t, std::uint64_t) = nullptr;
  duckdb_state (*appender_create)(duckdb_connection, const char*, const char*, duckdb_appender*) = nullptr;
  duckdb_state (*append_int64)(duckdb_appender, std::int64_t) = nullptr;
  duckdb_state (*appender_end_row)(duckdb_appender) = nullptr;
  duckdb_state (*appender_destroy)(duckdb_appender*) = nullptr;

 private:
  template <class F>
  void sym(F& f, const char* name) {
    void* p = dlsym(handle_, name);
    if (!p) throw std::runtime_error(std::string("libduckdb.so lacks ") + name);
    std::memcpy(&f, &p, sizeof f);  // object pointer -> function pointer, portably
  }
  void* handle_ = nullptr;
  std::string error_;
};

/// One in-memory database + connection.
class duckdb_session {
 public:
  explicit duckdb_session(const duckdb_lib& lib) : lib_(lib) {
    if (lib_.open(nullptr, &db_) != 0) throw std::runtime_error("duckdb_open failed");
    if (lib_.connect(db_, &con_) != 0) throw std::runtime_error("duckdb_connect failed");
  }
  duckdb_session(const duckdb_session&) = delete;
  duckdb_session& operator=(const duckdb_session&) = delete;
  ~duckdb_session() {
    lib_.disconnect(&con_);
    lib_.close(&db_);
  }

  /// Runs `sql`; returns (rows of the result, first int64 cell or 0), throws on error.
  struct answer {
    std::uint64_t rows = 0;
    std::int64_t first = 0;
    std::int64_t second = 0;
  };
  answer query(const std::string& sql) {
    duckdb_result r{};
    const duckdb_state st = lib_.query_raw(con_, sql.c_str(), &r);
    answer a;
    std::string err;
    if (st != 0) {
      const char* e = lib_.result_error(&r);
      err = e ? e : "unknown error";
    } else {
      a.rows = lib_.row_count(&r);
      if (a.rows > 0 && r.deprecated_column_count > 0) a.first = lib_.value_int64(&r, 0, 0);
      if (a.rows > 0 && r.deprecated_column_count > 1) a.second = lib_.value_int64(&r, 1, 0);
    }
    lib_.destroy_result(&r);  // also after an error
    if (st != 0) throw std::runtime_error("duckdb: " + err + " in: " + sql);
    return a;
  }

  /// Appends two int64 columns into an existing table.
  void append(const char* table, const std::int64_t* a, const std::int64_t* b, std::size_t n) {
    duckdb_appender app = nullptr;
    if (lib_.appender_create(con_, nullptr, table, &app) != 0) {
      lib_.appender_destroy(&app);
      throw std::runtime_error("duckdb_appender_create failed");
    }
    for (std::size_t i = 0; i < n; ++i) {
      lib_.append_int64(app, a[i]);
      lib_.append_int64(app, b[i]);
      lib_.appender_end_row(app);
    }
    if (lib_.appender_destroy(&app) != 0) throw std::runtime_error("duckdb appender flush failed");
  }

 private:
  const duckdb_lib& lib_;
  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
};

}  // namespace joinery::peers
