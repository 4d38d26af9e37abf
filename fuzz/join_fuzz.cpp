// libFuzzer target: bytes -> two relations, a join kind and a key shape;
// joinery's result must equal the naive nested loop's, row for row and in
// order (DESIGN.md §3: probe rows in input order, matches in build order, a
// left join's unmatched row in place; NULL never matches; NaN == NaN; -0.0 ==
// 0.0). Any difference aborts. Built by scripts/fuzz with
// clang -fsanitize=fuzzer,address,undefined; the seeds are in fuzz/corpus/.
//
// Input layout: byte 0 = join kind (bits 0-1) and key shape (bits 2-3: int
// key, double key, composite int+double key, int key + residual), byte 1 =
// left rows, byte 2 = right rows (each mod 48), then 2 bytes a row (key,
// double), left rows first. Missing bytes read as 0.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include <joinery/plan/relational.hpp>
#include <joinery/sql/sql.hpp>

namespace jy = joinery;

namespace {

struct lt : jy::table<"lt", jy::column<"id", std::int64_t>, jy::column<"k", std::optional<std::int64_t>>,
                      jy::column<"d", double>> {};
struct rt : jy::table<"rt", jy::column<"id", std::int64_t>, jy::column<"k", std::int32_t>,
                      jy::column<"d", std::optional<double>>> {};
constexpr auto l_id = jy::col<lt, "id">;
constexpr auto l_k = jy::col<lt, "k">;
constexpr auto l_d = jy::col<lt, "d">;
constexpr auto r_id = jy::col<rt, "id">;
constexpr auto r_k = jy::col<rt, "k">;
constexpr auto r_d = jy::col<rt, "d">;

struct reader {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t at = 0;
  std::uint8_t next() { return at < size ? data[at++] : 0; }
};

double to_double(std::uint8_t b) {
  constexpr double pool[] = {0.0, -0.0, 1.5, -2.0, std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity(), 1.5, 3.25};
  return pool[b % 8];
}

/// Key equality of the contract: NaN equals NaN, -0.0 equals 0.0.
bool same_double(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

using out_row = std::tuple<std::int64_t, std::optional<std::int64_t>>;

[[noreturn]] void mismatch(const char* what, std::size_t i) {
  std::fprintf(stderr, "joinery disagrees with the nested loop: %s (row %zu)\n", what, i);
  std::abort();
}

/// The naive nested loop over pairs, `match(i, j)` deciding each.
template <class Match>
std::vector<out_row> reference(jy::join_op kind, const jy::relation<lt>& l, const jy::relation<rt>& r, Match match) {
  std::vector<out_row> out;
  for (std::size_t i = 0; i < l.size(); ++i) {
    bool any = false;
    for (std::size_t j = 0; j < r.size(); ++j) {
      if (!match(i, j)) continue;
      any = true;
      if (kind == jy::join_op::inner || kind == jy::join_op::left)
        out.emplace_back(l.column<"id">()[i], r.column<"id">()[j]);
    }
    if ((kind == jy::join_op::left && !any) || (kind == jy::join_op::semi && any) || (kind == jy::join_op::anti && !any))
      out.emplace_back(l.column<"id">()[i], std::nullopt);
  }
  return out;
}

template <jy::join_op Kind, class Cond>
std::vector<out_row> through_joinery(const Cond& cond, const jy::relation<lt>& l, const jy::relation<rt>& r) {
  std::vector<out_row> out;
  if constexpr (Kind == jy::join_op::inner || Kind == jy::join_op::left) {
    const auto p = jy::from<lt> | jy::join_step<Kind, rt, Cond>{{}, cond} |
                   jy::select(jy::as<"l">(l_id), jy::as<"r">(r_id));
    for (auto row : jy::run(p, l, r)) out.emplace_back(jy::get<"l">(row), jy::get<"r">(row));
    // the statement must print too (nothing to compare it with here)
    if (jy::to_sql(p, jy::dialect::duckdb).empty()) mismatch("empty SQL", 0);
  } else {
    const auto p = jy::from<lt> | jy::join_step<Kind, rt, Cond>{{}, cond} | jy::select(jy::as<"l">(l_id));
    const auto rel = jy::materialize(p, l, r);
    for (std::size_t i = 0; i < rel.size(); ++i) out.emplace_back(rel.template column<"l">()[i], std::nullopt);
  }
  return out;
}

template <jy::join_op Kind>
void check(int shape, const jy::relation<lt>& l, const jy::relation<rt>& r) {
  const auto lk = l.column<"k">();
  const auto ld = l.column<"d">();
  const auto rk = r.column<"k">();
  const auto rd = r.column<"d">();
  auto int_key = [&](std::size_t i, std::size_t j) { return lk[i].has_value() && *lk[i] == rk[j]; };
  auto dbl_key = [&](std::size_t i, std::size_t j) { return rd[j].has_value() && same_double(ld[i], *rd[j]); };
  std::vector<out_row> got, want;
  switch (shape) {
    case 0:
      got = through_joinery<Kind>(l_k == r_k, l, r);
      want = reference(Kind, l, r, int_key);
      break;
    case 1:
      got = through_joinery<Kind>(r_d == l_d, l, r);
      want = reference(Kind, l, r, dbl_key);
      break;
    case 2:
      got = through_joinery<Kind>(l_k == r_k && l_d == r_d, l, r);
      want = reference(Kind, l, r, [&](std::size_t i, std::size_t j) { return int_key(i, j) && dbl_key(i, j); });
      break;
    default:
      // a residual: IEEE `<` on doubles (NaN compares false), NULL never holds
      got = through_joinery<Kind>(l_k == r_k && l_d < r_d, l, r);
      want = reference(Kind, l, r, [&](std::size_t i, std::size_t j) {
        return int_key(i, j) && rd[j].has_value() && ld[i] < *rd[j];
      });
      break;
  }
  if (got.size() != want.size()) mismatch("row count", got.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) mismatch("row", i);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  reader in{data, size};
  const std::uint8_t head = in.next();
  const std::size_t nl = in.next() % 48;
  const std::size_t nr = in.next() % 48;
  jy::relation<lt> l;
  jy::relation<rt> r;
  for (std::size_t i = 0; i < nl; ++i) {
    const std::uint8_t k = in.next();
    std::optional<std::int64_t> key;
    if (k % 8 != 7) key = k % 8;  // small domain: duplicates; 7: NULL
    l.insert({static_cast<std::int64_t>(i), key, to_double(in.next())});
  }
  for (std::size_t j = 0; j < nr; ++j) {
    const std::uint8_t k = in.next();
    std::optional<double> d;
    const std::uint8_t db = in.next();
    if (db % 9 != 8) d = to_double(db);  // 8: NULL
    r.insert({static_cast<std::int64_t>(1000 + j), static_cast<std::int32_t>(k % 8), d});
  }
  const int shape = (head >> 2) % 4;
  switch (head % 4) {
    case 0: check<jy::join_op::inner>(shape, l, r); break;
    case 1: check<jy::join_op::left>(shape, l, r); break;
    case 2: check<jy::join_op::semi>(shape, l, r); break;
    default: check<jy::join_op::anti>(shape, l, r); break;
  }
  return 0;
}
