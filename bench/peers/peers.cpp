// Peer harness: joinery against DuckDB (dlopen'ed libduckdb.so) and SQLite
// (libsqlite3, when found at configure time) on the SAME generated data, one
// table per case: system, threads, median ms, M rows/s, and time relative to
// joinery (system / joinery at the same thread count; > 1 means joinery is
// faster). A missing peer is reported and skipped. Run by scripts/bench-peers.
// The medians are of runs taken in rounds (joinery, the hand-written
// baselines and DuckDB once each per round), so that load from other guests
// of a shared machine moves every system of a case alike. DuckDB runs in two
// databases, one per thread count, each loaded with the data: `SET threads`
// is global to a database, and switching it between the rounds' queries
// slowed every system of a case, DuckDB's too (dense shuffled 1e6 x 1e5:
// DuckDB-1t 23 -> 7.5 ms, joinery-1t 12 -> 5.7 ms with a database each).
//
//   bench.peers [--duckdb PATH] [--reps N] [--quick] [--sqlite-all] [--only SUBSTR]
//               [--csv FILE]   (tab-separated: case, system, threads, median ms, M rows/s, CPU ms)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <joinery/exec/arranged_values.hpp>
#include <joinery/exec/arrangement.hpp>
#include <joinery/exec/equi_join.hpp>
#include <joinery/exec/group_by.hpp>
#include <joinery/exec/threads.hpp>
#include <joinery/plan/relational.hpp>

#include "baseline.hpp"
#include "bench_data.hpp"
#include "duckdb_api.hpp"
#if JOINERY_HAVE_SQLITE
#include <sqlite3.h>
#endif

namespace jb = joinery::bench;
namespace ex = joinery::exec;
namespace jy = joinery;
namespace jp = joinery::peers;

namespace {

using i64 = std::int64_t;

struct options {
  std::string duckdb_path;
  int reps = 5;
  bool quick = false;
  bool sqlite_all = false;
  std::string only;
  std::string csv;
};

/// Two int64 columns (k, v).
struct table2 {
  std::vector<i64> k, v;
  [[nodiscard]] std::size_t size() const { return k.size(); }
};

/// A measured answer: (count, sum) or (rows, 0); compared across systems.
struct answer {
  i64 a = 0, b = 0;
  bool operator==(const answer&) const = default;
};

struct measurement {
  std::string system;
  unsigned threads = 1;
  double ms = 0;      // median wall time
  double cpu_ms = 0;  // median CPU time of the process (all its threads)
  answer ans;
};

struct timing {
  double ms = 0, cpu_ms = 0;
  answer ans;
};

double cpu_now_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

volatile i64 keep_answer = 0;  // every answer is stored: no run can be optimised away

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// Median wall and CPU time of `reps` runs after one warm-up run (warm-up
/// skipped when `warm` is false).
template <class F>
timing time_it(int reps, bool warm, F&& f) {
  answer ans;
  if (warm) ans = f();
  std::vector<double> t, c;
  for (int r = 0; r < reps; ++r) {
    const double c0 = cpu_now_ms();
    const auto t0 = std::chrono::steady_clock::now();
    ans = f();
    keep_answer = keep_answer + ans.a + ans.b;
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    c.push_back(cpu_now_ms() - c0);
  }
  return {median(t), median(c), ans};
}

/// One system's runs of a case, timed in rounds with the other systems' runs.
struct contender {
  std::string system;
  unsigned threads = 1;
  std::function<answer()> run;
  std::vector<double> t, c;
  answer ans;
};

/// Times each contender `reps` times, one run each per round after one
/// untimed run each, so a burst of load from the other guests of a shared
/// machine falls on every system of the case, not on one system's runs.
void time_in_rounds(std::vector<contender>& cs, int reps) {
  for (contender& c : cs) c.ans = c.run();
  for (int r = 0; r < reps; ++r)
    for (contender& c : cs) {
      const double c0 = cpu_now_ms();
      const auto t0 = std::chrono::steady_clock::now();
      c.ans = c.run();
      keep_answer = keep_answer + c.ans.a + c.ans.b;
      c.t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      c.c.push_back(cpu_now_ms() - c0);
    }
}

// ---------------------------------------------------------------- data

table2 dim_sparse(std::size_t m) {
  table2 t{jb::dim_keys(m), std::vector<i64>(m)};
  for (std::size_t i = 0; i < m; ++i) t.v[i] = static_cast<i64>(i % 1000);
  return t;
}
table2 fact_sparse(std::size_t n, std::size_t domain, std::uint64_t seed) {
  table2 t{std::vector<i64>(n), std::vector<i64>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    t.k[i] = jb::sparse_key(jb::splitmix64(seed) % domain);
    t.v[i] = static_cast<i64>(i % 7);
  }
  return t;
}
/// Dense keys 0..m-1: in row order (a surrogate key) or in shuffled rows
/// (i -> i * 1000003 mod m, a permutation: 1000003 is prime and does not divide m).
table2 dim_dense(std::size_t m, bool shuffled) {
  table2 t{std::vector<i64>(m), std::vector<i64>(m)};
  for (std::size_t i = 0; i < m; ++i) {
    t.k[i] = static_cast<i64>(shuffled ? (i * 1000003) % m : i);
    t.v[i] = static_cast<i64>(i % 1000);
  }
  return t;
}
table2 fact_dense(std::size_t n, std::size_t m, std::uint64_t seed) {
  table2 t{std::vector<i64>(n), std::vector<i64>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    t.k[i] = static_cast<i64>(jb::splitmix64(seed) % m);
    t.v[i] = static_cast<i64>(i % 7);
  }
  return t;
}

// ---------------------------------------------------------------- joinery

auto key_of(const table2& t) {
  return [&t](std::size_t i) { return std::optional<i64>(t.k[i]); };
}
constexpr auto always = [](std::size_t, std::size_t) { return true; };

/// Count and sum of a semi or anti join: the probe side's v, read in order.
struct cs_sink {
  const table2* val;
  i64 count = 0, sum = 0;
  void operator()(std::size_t i, std::size_t) {
    ++count;
    sum += val->v[i];
  }
};
/// Count and sum of an inner or left join: the build side's v, handed over
/// with each match (0 for a left join's unmatched row).
struct cs_valued_sink {
  i64 count = 0, sum = 0;
  void operator()(std::size_t, std::size_t, i64 v) {
    ++count;
    sum += v;
  }
};

template <ex::join_kind K>
answer jy_count_sum(const table2& f, const table2& d, unsigned threads) {
  ex::arrangement<i64> arr;
  arr.build(d.size(), key_of(d));
  // An inner or left join's sink is handed the build side's v
  // (`with_values`: laid out by key for a direct layout, else read at the
  // match and prefetched). A semi or anti join reads the probe side's v, in order.
  constexpr bool build_side = K == ex::join_kind::inner || K == ex::join_kind::left;
  auto totals = [](const auto& s) -> answer {
    if constexpr (requires { s.base(); }) return {s.base().count, s.base().sum};
    else return {s.count, s.sum};
  };
  auto run = [&](auto sink_for) {
    if (threads <= 1) {
      auto s = sink_for();
      ex::probe<K>(arr, f.size(), key_of(f), always, s);
      return totals(s);
    }
    auto parts = ex::probe_parts<K>(ex::threads(threads), arr, f.size(), key_of(f), always,
                                    [&](std::size_t) { return sink_for(); });
    answer a;
    for (const auto& p : parts) {
      a.a += totals(p).a;
      a.b += totals(p).b;
    }
    return a;
  };
  if constexpr (build_side) {
    const auto values = ex::arrange_values(arr, d.v);
    return run([&] { return ex::with_values(cs_valued_sink{}, values); });
  } else {
    return run([&] { return cs_sink{&f}; });
  }
}

/// The materialization case through the plan front door (what a user
/// writes): fact value and dim value of every match, as a `jy::relation`.
struct pf : jy::table<"f", jy::column<"k", i64>, jy::column<"v", i64>> {};
struct pd : jy::table<"d", jy::column<"k", i64>, jy::column<"v", i64>> {};
constexpr auto materialized_join = jy::from<pf> | jy::join_inner<pd>(jy::col<pf, "k"> == jy::col<pd, "k">) |
                                   jy::select(jy::as<"fv">(jy::col<pf, "v">), jy::as<"dv">(jy::col<pd, "v">));
constexpr std::size_t output_row_bytes = 2 * sizeof(i64);

template <class T>
jy::relation<T> relation_of(const table2& t) {
  jy::relation<T> r;
  r.assign_columns(t.k, t.v);
  return r;
}

answer jy_materialize(const jy::relation<pf>& f, const jy::relation<pd>& d, unsigned threads) {
  const auto out = threads <= 1 ? jy::materialize(materialized_join, f, d)
                                : jy::materialize(materialized_join, jy::threads(threads), f, d);
  const auto& dv = out.template column_at<1>();
  i64 s = 0;
  for (std::size_t i = 0; i < dv.size(); i += 4096) s += dv[i];  // touch: the result is used
  return {static_cast<i64>(out.size()), s >= 0 ? 0 : 1};
}

/// Count and sum per key, folded as the rows are grouped (`exec::fold_groups`).
struct count_sum {
  i64 count = 0, sum = 0;
};
answer jy_group_by(const table2& f, unsigned threads) {
  auto fold = [v = f.v.data()](count_sum& a, std::size_t i) {
    ++a.count;
    a.sum += v[i];
  };
  auto combine = [](count_sum& into, const count_sum& from) {
    into.count += from.count;
    into.sum += from.sum;
  };
  const auto groups = threads <= 1 ? ex::fold_groups<i64>(f.size(), key_of(f), count_sum{}, fold)
                                   : ex::fold_groups<i64>(ex::threads(threads), f.size(), key_of(f), count_sum{},
                                                          fold, combine);
  return {static_cast<i64>(groups.group_count()), 0};
}

answer jy_dup_check(const table2& t, unsigned threads) {
  if (threads <= 1) {
    ex::arrangement<i64> arr;
    arr.build_groups(t.size(), key_of(t));
    return {static_cast<i64>(arr.duplicate_group_count()), 0};
  }
  return {static_cast<i64>(ex::duplicate_group_count<i64>(ex::threads(threads), t.size(), key_of(t))), 0};
}

// ---------------------------------------------------------------- SQLite

#if JOINERY_HAVE_SQLITE
class sqlite_session {
 public:
  sqlite_session() {
    if (sqlite3_open(":memory:", &db_) != SQLITE_OK) throw std::runtime_error("sqlite3_open failed");
  }
  sqlite_session(const sqlite_session&) = delete;
  sqlite_session& operator=(const sqlite_session&) = delete;
  ~sqlite_session() { sqlite3_close(db_); }
  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string e = err ? err : "?";
      sqlite3_free(err);
      throw std::runtime_error("sqlite: " + e);
    }
  }
  void load(const char* name, const table2& t) {
    exec(std::string("DROP TABLE IF EXISTS ") + name + "; CREATE TABLE " + name + "(k INTEGER, v INTEGER)");
    exec("BEGIN");
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db_, (std::string("INSERT INTO ") + name + " VALUES (?, ?)").c_str(), -1, &st, nullptr);
    for (std::size_t i = 0; i < t.size(); ++i) {
      sqlite3_bind_int64(st, 1, t.k[i]);
      sqlite3_bind_int64(st, 2, t.v[i]);
      sqlite3_step(st);
      sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    exec("COMMIT");
  }
  /// Steps through every result row (full materialization to the caller);
  /// returns (first row's first two cells) or, with `rows`, (row count, 0).
  answer query(const std::string& sql, bool rows) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db_));
    answer a;
    i64 n = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (n == 0 && !rows) {
        a.a = sqlite3_column_int64(st, 0);
        a.b = sqlite3_column_count(st) > 1 ? sqlite3_column_int64(st, 1) : 0;
      }
      ++n;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db_));
    if (rows) a = {n, 0};
    return a;
  }

 private:
  sqlite3* db_ = nullptr;
};
#endif

// ---------------------------------------------------------------- harness

struct peers_state {
  options opt;
  std::unique_ptr<jp::duckdb_lib> duck;
  // DuckDB at 1 and at 2 threads: a database each (see the file comment).
  std::unique_ptr<jp::duckdb_session> duck_db[2];
#if JOINERY_HAVE_SQLITE
  std::unique_ptr<sqlite_session> lite;
#endif
  std::ofstream csv;
  // What is loaded into the peers: (name of data set) per table.
  std::string loaded_f, loaded_d;
};

void load_peers(peers_state& ps, const std::string& fname, const table2& f, const std::string& dname,
                const table2* d, bool sqlite_wanted) {
  if (ps.loaded_f + "|" + ps.loaded_d != fname + "|" + dname) {
    for (const auto& db : ps.duck_db) {
      if (!db) continue;
      db->query("DROP TABLE IF EXISTS f");
      db->query("DROP TABLE IF EXISTS d");
      db->query("CREATE TABLE f(k BIGINT, v BIGINT)");
      db->query("CREATE TABLE d(k BIGINT, v BIGINT)");
      db->append("f", f.k.data(), f.v.data(), f.size());
      if (d) db->append("d", d->k.data(), d->v.data(), d->size());
    }
  }
#if JOINERY_HAVE_SQLITE
  if (ps.lite && sqlite_wanted && ps.loaded_f + "|" + ps.loaded_d != fname + "|" + dname) {
    ps.lite->load("f", f);
    ps.lite->load("d", d ? *d : table2{});
  }
#else
  (void)sqlite_wanted;
#endif
  ps.loaded_f = fname;
  ps.loaded_d = dname;
}

/// Runs one case and prints its table.
struct case_spec {
  case_spec(std::string n, std::size_t rows, std::function<answer(unsigned)> jy)
      : name(std::move(n)), rows_in(rows), joinery(std::move(jy)) {}
  std::string name;
  std::size_t rows_in;                           // |L| + |R| (the M rows/s numerator)
  std::function<answer(unsigned)> joinery;       // by thread count
  bool joinery_2t = true;
  std::vector<std::pair<std::string, std::function<answer()>>> baselines;  // hand-written, 1 thread
  std::string sql;                               // for DuckDB and SQLite
  std::string sqlite_sql;                        // SQLite's spelling, when it must differ
  bool sql_rows = false;                         // answer = result row count
  bool sqlite_ok = true;
};

void run_case(peers_state& ps, const case_spec& c) {
  if (!ps.opt.only.empty() && c.name.find(ps.opt.only) == std::string::npos) return;
  const int reps = ps.opt.reps;
  std::vector<contender> cs;
  for (unsigned t : {1U, 2U}) {
    if (t == 2 && !c.joinery_2t) continue;
    cs.push_back({"joinery", t, [&c, t] { return c.joinery(t); }, {}, {}, {}});
  }
  for (const auto& [name, fn] : c.baselines) cs.push_back({name, 1, fn, {}, {}, {}});
  std::string notes;
  if (ps.duck_db[0]) {
    for (unsigned t : {1U, 2U}) {
      cs.push_back({"DuckDB", t,
                    [db = ps.duck_db[t - 1].get(), &c] {
                      auto q = db->query(c.sql);
                      return c.sql_rows ? answer{static_cast<i64>(q.rows), 0} : answer{q.first, q.second};
                    },
                    {}, {}, {}});
    }
  } else {
    notes += " DuckDB skipped (not loaded).";
  }
  time_in_rounds(cs, reps);
  std::vector<measurement> ms;
  for (const contender& k : cs) ms.push_back({k.system, k.threads, median(k.t), median(k.c), k.ans});
#if JOINERY_HAVE_SQLITE
  if (ps.lite && (c.sqlite_ok || ps.opt.sqlite_all)) {
    const auto r = time_it(std::min(reps, 3), false,
                           [&] { return ps.lite->query(c.sqlite_sql.empty() ? c.sql : c.sqlite_sql, c.sql_rows); });
    ms.push_back({"SQLite", 1, r.ms, r.cpu_ms, r.ans});
  } else {
    notes += ps.lite ? " SQLite skipped at this size (use --sqlite-all)." : "";
  }
#else
  notes += " SQLite skipped (libsqlite3 not found at configure time).";
#endif
  std::printf("\n### %s\n\n", c.name.c_str());
  std::printf("| system | threads | median ms | M rows/s | x joinery | CPU ms | answer |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---|\n");
  auto joinery_ms = [&](unsigned t) {
    for (const auto& m : ms)
      if (m.system == "joinery" && m.threads == t) return m.ms;
    return ms.front().ms;  // joinery 1 thread
  };
  const answer ref = ms.front().ans;
  for (const auto& m : ms) {
    const double rate = static_cast<double>(c.rows_in) / (m.ms * 1e3);
    std::printf(m.ms < 10 ? "| %s | %u | %.2f | %.1f | %.2f | %.1f | %lld, %lld%s |\n"
                          : "| %s | %u | %.0f | %.1f | %.2f | %.0f | %lld, %lld%s |\n",
                m.system.c_str(), m.threads, m.ms, rate, m.ms / joinery_ms(m.threads), m.cpu_ms,
                static_cast<long long>(m.ans.a), static_cast<long long>(m.ans.b),
                m.ans == ref || c.sql_rows == false ? "" : " MISMATCH");
    if (!(m.ans.a == ref.a) && !c.name.starts_with("inner materialize"))
      std::printf("<!-- WARNING: %s answer differs from joinery -->\n", m.system.c_str());
    if (ps.csv)
      ps.csv << c.name << '\t' << m.system << '\t' << m.threads << '\t' << m.ms << '\t' << rate << '\t' << m.cpu_ms
             << '\n';
  }
  if (!notes.empty()) std::printf("\n%s\n", notes.c_str());
  std::fflush(stdout);
}

/// kB of a /proc/self/status field (VmRSS, VmHWM), 0 where unavailable.
long status_kb(const char* field) {
  std::ifstream st("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(st, line))
    if (line.rfind(key, 0) == 0) return std::atol(line.c_str() + key.size());
  return 0;
}

/// Peak memory of a materialized join: the rise of the peak RSS over the RSS
/// before the run (peak reset through /proc/self/clear_refs), against the
/// output's own size plus the arrangement's.
void peak_memory(peers_state& ps) {
  if (!ps.opt.only.empty() && std::string("peak memory").find(ps.opt.only) == std::string::npos) return;
  std::printf("\n### peak memory of a materialized inner join (1 thread)\n\n");
  std::printf("| case | output MiB | arrangement MiB | peak rise MiB | peak / (output + arrangement) |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  const std::size_t K = ps.opt.quick ? 100 : 1;
  // Sizes where the output is well above the allocator's and the kernel's
  // RSS accounting granularity (at 1e6 output rows VmHWM showed no rise here).
  for (auto [n, m] : {std::pair<std::size_t, std::size_t>{10'000'000, 100'000}, {10'000'000, 1'000'000}}) {
    n /= K;
    m /= K;
    // Each case in a fresh child process, so memory freed by earlier cases
    // (kept by the allocator) cannot hide this case's rise.
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) {
      std::printf("| %zu x %zu | fork failed | | | |\n", n, m);
      continue;
    }
    if (pid == 0) {
      mallopt(M_MMAP_THRESHOLD, 1 << 17);  // large blocks straight from and back to the OS
      mallopt(M_TRIM_THRESHOLD, 1 << 17);
      const table2 d = dim_sparse(m), f = fact_sparse(n, m, 42);
      const auto rf = relation_of<pf>(f);
      const auto rd = relation_of<pd>(d);
      std::size_t arr_bytes = 0;
      {
        ex::arrangement<i64> arr;
        arr.build(d.size(), key_of(d));
        arr_bytes = arr.memory_bytes();
      }
      // Its freed blocks would otherwise be kept, resident, for the join to reuse.
      ex::release_retained_memory();
      std::ofstream("/proc/self/clear_refs") << "5";  // reset the peak (VmHWM) to the current RSS
      const long before = status_kb("VmRSS");
      const answer a = jy_materialize(rf, rd, 1);
      const long peak = status_kb("VmHWM");
      const double out_mib = static_cast<double>(a.a) * output_row_bytes / (1 << 20);
      const double arr_mib = static_cast<double>(arr_bytes) / (1 << 20);
      const double rise = static_cast<double>(peak - before) / 1024;
      std::printf("| %zu x %zu | %.1f | %.1f | %.1f | %.2f |\n", n, m, out_mib, arr_mib, rise,
                  rise / (out_mib + arr_mib));
      std::fflush(stdout);
      _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
  }
}

void memory_probes(peers_state& ps) {
  if (!ps.opt.only.empty() && std::string("memory probes").find(ps.opt.only) == std::string::npos) return;
  std::printf("\n### memory probes (same binary)\n\n| probe | median ms | M items/s |\n|---|---:|---:|\n");
  const std::size_t n = ps.opt.quick ? 1'000'000 : 10'000'000;
  const auto col = jb::fact_keys(n, 1000);
  const double ms_seq = time_it(ps.opt.reps, true, [&] { return answer{jb::sequential_read(col), 0}; }).ms;
  std::printf("| sequential read, %zu int64 | %.2f | %.0f |\n", n, ms_seq, static_cast<double>(n) / (ms_seq * 1e3));
  if (ps.csv)
    ps.csv << "memory probes\tsequential read\t1\t" << ms_seq << '\t' << static_cast<double>(n) / (ms_seq * 1e3) << '\n';
  for (std::size_t mib : {1, 16, 64}) {
    const auto table = jb::gather_table(mib << 20);
    const double m = time_it(ps.opt.reps, true, [&] { return answer{jb::random_gather(table, n), 0}; }).ms;
    std::printf("| random gather, %zu x 8 B into %zu MiB | %.2f | %.0f |\n", n, mib, m,
                static_cast<double>(n) / (m * 1e3));
    if (ps.csv)
      ps.csv << "memory probes\tgather " << mib << " MiB\t1\t" << m << '\t' << static_cast<double>(n) / (m * 1e3) << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  peers_state ps;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench.peers: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--duckdb") ps.opt.duckdb_path = next();
    else if (a == "--reps") ps.opt.reps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--quick") ps.opt.quick = true;
    else if (a == "--sqlite-all") ps.opt.sqlite_all = true;
    else if (a == "--only") ps.opt.only = next();
    else if (a == "--csv") ps.opt.csv = next();
    else {
      std::fprintf(stderr, "usage: bench.peers [--duckdb PATH] [--reps N] [--quick] [--sqlite-all] [--only S] [--csv F]\n");
      return 2;
    }
  }
  if (ps.opt.duckdb_path.empty()) {
    if (const char* env = std::getenv("JOINERY_DUCKDB_LIB")) ps.opt.duckdb_path = env;
#ifdef JOINERY_DUCKDB_DEFAULT
    else ps.opt.duckdb_path = JOINERY_DUCKDB_DEFAULT;
#endif
  }
  if (!ps.opt.csv.empty()) ps.csv.open(ps.opt.csv);

  std::printf("# joinery peer benchmark\n\n");
  if (ps.opt.duckdb_path.empty()) {
    std::printf("DuckDB: skipped (no library path; run scripts/bench-peers to fetch it).\n");
  } else {
    ps.duck = std::make_unique<jp::duckdb_lib>(ps.opt.duckdb_path);
    if (ps.duck->ok()) {
      for (unsigned t : {1U, 2U}) {
        ps.duck_db[t - 1] = std::make_unique<jp::duckdb_session>(*ps.duck);
        ps.duck_db[t - 1]->query("SET threads=" + std::to_string(t));
      }
      std::printf("DuckDB: %s\n", ps.opt.duckdb_path.c_str());
    } else {
      std::printf("DuckDB: skipped (%s).\n", ps.duck->error().c_str());
    }
  }
#if JOINERY_HAVE_SQLITE
  ps.lite = std::make_unique<sqlite_session>();
  std::printf("SQLite: %s (1 thread; cases above %s input rows skipped unless --sqlite-all)\n", sqlite3_libversion(),
              "2.2e6");
#else
  std::printf("SQLite: skipped (libsqlite3 not found at configure time).\n");
#endif
  std::printf("Median of %d runs after one warm-up, the systems of a case run in turn, once each per round "
              "(SQLite: of min(reps, 3) after the rounds, no warm-up). "
              "M rows/s = (|L| + |R|) / time. x joinery = time / joinery's time at the same thread count. "
              "CPU ms = CPU time of the process (all threads; robust to a shared machine for 1-thread rows).\n",
              ps.opt.reps);

  const std::size_t K = ps.opt.quick ? 100 : 1;  // --quick divides every size by 100
  auto sz = [&](std::size_t n) { return n / K; };
  const std::size_t sqlite_limit = 2'200'000 / K;
  const std::string q_cs = "SELECT count(*), CAST(sum(d.v) AS BIGINT) FROM f JOIN d ON f.k = d.k";
  const std::string q_mat = "SELECT f.v, d.v FROM f JOIN d ON f.k = d.k";

  struct size_pair {
    std::size_t n, m;
  };
  const size_pair sizes[] = {{1'000'000, 100'000}, {1'000'000, 1'000'000}, {10'000'000, 100'000},
                             {10'000'000, 1'000'000}};
  auto label = [&](size_pair s) {
    auto e = [](std::size_t x) {
      int p = 0;
      while (x >= 10 && x % 10 == 0) x /= 10, ++p;
      return (x == 1 ? "1e" : std::to_string(x) + "e") + std::to_string(p);
    };
    return e(sz(s.n)) + " x " + e(sz(s.m));
  };

  for (auto s : sizes) {
    const std::size_t n = sz(s.n), m = sz(s.m);
    const table2 d = dim_sparse(m), f = fact_sparse(n, m, 42);
    load_peers(ps, "fact" + label(s), f, "dim" + label(s), &d, n + m <= sqlite_limit || ps.opt.sqlite_all);
    case_spec cs{"inner count+sum, sparse keys, " + label(s), n + m,
                 [&](unsigned t) { return jy_count_sum<ex::join_kind::inner>(f, d, t); }};
    cs.baselines = {{"flat (hand-written)", [&] { auto r = jb::flat_join(d.k, d.v, f.k); return answer{r.count, r.sum}; }},
                    {"flat + prefetch (hand-written)",
                     [&] { auto r = jb::flat_join_prefetch(d.k, d.v, f.k); return answer{r.count, r.sum}; }}};
    cs.sql = q_cs;
    cs.sqlite_ok = n + m <= sqlite_limit;
    run_case(ps, cs);
    const auto rf = relation_of<pf>(f);
    const auto rd = relation_of<pd>(d);
    case_spec cm{"inner materialize, sparse keys, " + label(s), n + m,
                 [&](unsigned t) { return jy_materialize(rf, rd, t); }};
    cm.sql = q_mat;
    cm.sql_rows = true;
    cm.sqlite_ok = n + m <= sqlite_limit;
    run_case(ps, cm);
  }

  for (auto s : {size_pair{1'000'000, 100'000}, size_pair{10'000'000, 1'000'000}}) {
    const std::size_t n = sz(s.n), m = sz(s.m);
    const table2 d = dim_sparse(m), f = fact_sparse(n, 2 * m, 7);  // half the keys have no partner
    load_peers(ps, "half" + label(s), f, "dim" + label(s), &d, n + m <= sqlite_limit || ps.opt.sqlite_all);
    case_spec l{"left count+sum, 50% unmatched, " + label(s), n + m,
                [&](unsigned t) { return jy_count_sum<ex::join_kind::left>(f, d, t); }};
    l.sql = "SELECT count(*), CAST(sum(d.v) AS BIGINT) FROM f LEFT JOIN d ON f.k = d.k";
    l.sqlite_ok = n + m <= sqlite_limit;
    run_case(ps, l);
    case_spec se{"semi count+sum, 50% unmatched, " + label(s), n + m,
                 [&](unsigned t) { return jy_count_sum<ex::join_kind::semi>(f, d, t); }};
    se.sql = "SELECT count(*), CAST(sum(f.v) AS BIGINT) FROM f WHERE EXISTS (SELECT 1 FROM d WHERE d.k = f.k)";
    // SQLite runs a correlated EXISTS as a nested loop; IN (no NULLs here: the same rows) gets an index.
    se.sqlite_sql = "SELECT count(*), CAST(sum(f.v) AS BIGINT) FROM f WHERE f.k IN (SELECT k FROM d)";
    se.sqlite_ok = n + m <= sqlite_limit;
    run_case(ps, se);
    case_spec an{"anti count+sum, 50% unmatched, " + label(s), n + m,
                 [&](unsigned t) { return jy_count_sum<ex::join_kind::anti>(f, d, t); }};
    an.sql = "SELECT count(*), CAST(sum(f.v) AS BIGINT) FROM f WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.k = f.k)";
    an.sqlite_sql = "SELECT count(*), CAST(sum(f.v) AS BIGINT) FROM f WHERE f.k NOT IN (SELECT k FROM d)";
    an.sqlite_ok = n + m <= sqlite_limit;
    run_case(ps, an);
  }

  for (bool shuffled : {false, true})
  for (auto s : {size_pair{1'000'000, 100'000}, size_pair{10'000'000, 1'000'000}}) {
    const std::size_t n = sz(s.n), m = sz(s.m);
    const table2 d = dim_dense(m, shuffled), f = fact_dense(n, m, 42);
    load_peers(ps, "dense" + label(s), f, std::string(shuffled ? "sdim" : "ddim") + label(s), &d,
               n + m <= sqlite_limit || ps.opt.sqlite_all);
    case_spec cs{std::string("inner count+sum, DENSE keys ") + (shuffled ? "(shuffled rows), " : "(row order), ") +
                     label(s),
                 n + m,
                 [&](unsigned t) { return jy_count_sum<ex::join_kind::inner>(f, d, t); }};
    cs.baselines = {{"flat + prefetch (hand-written)",
                     [&] { auto r = jb::flat_join_prefetch(d.k, d.v, f.k); return answer{r.count, r.sum}; }}};
    cs.sql = q_cs;
    cs.sqlite_ok = n + m <= sqlite_limit;
    run_case(ps, cs);
  }

  for (std::size_t groups : {std::size_t{100'000}, std::size_t{1'000'000}}) {
    const std::size_t n = sz(10'000'000), g = sz(groups);
    const table2 f = fact_sparse(n, g, 99);
    load_peers(ps, "grp" + std::to_string(g), f, "none", nullptr, ps.opt.sqlite_all);
    case_spec gb{"group-by count+sum, " + std::to_string(n) + " rows, " + std::to_string(g) + " groups", n,
                 [&](unsigned t) { return jy_group_by(f, t); }};
    gb.sql = "SELECT k, count(*), CAST(sum(v) AS BIGINT) FROM f GROUP BY k";
    gb.sql_rows = true;
    gb.sqlite_ok = n <= sqlite_limit;
    run_case(ps, gb);
  }

  for (std::size_t rows : {std::size_t{1'000'000}, std::size_t{10'000'000}}) {
    const std::size_t n = sz(rows);
    const table2 t = dim_sparse(n);  // a key that should be unique: the check finds no duplicate group
    load_peers(ps, "uniq" + std::to_string(n), t, "none", nullptr, n <= sqlite_limit || ps.opt.sqlite_all);
    case_spec dc{"duplicate-key-group check, " + std::to_string(n) + " rows", n,
                 [&](unsigned th) { return jy_dup_check(t, th); }};
    dc.sql = "SELECT count(*) FROM (SELECT k FROM f GROUP BY k HAVING count(*) > 1)";
    dc.sqlite_ok = n <= sqlite_limit;
    run_case(ps, dc);
  }

  memory_probes(ps);
  peak_memory(ps);
  return 0;
}
