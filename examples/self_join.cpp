// A relation joined to itself (DESIGN.md §2.3, reference/000): for each row,
// the value of the row its r_priorID names (predecessor lookup), and, with the
// sides named explicitly by jy::syms, the transposed question: the summed
// values of the rows that name it (successors).
#include <cstdint>
#include <cstdio>
#include <vector>

#include <joinery/joinery.hpp>

namespace jy = joinery;

struct row_ax : jy::index_set<"row_ax"> {};
constexpr auto r_id = jy::data<"r_id", std::int64_t>(row_ax{});
constexpr auto r_priorID = jy::data<"r_priorID", std::int64_t>(row_ax{});
constexpr auto value = jy::data<"value", double>(row_ax{});
constexpr auto a = jy::sym<"a">;
constexpr auto b = jy::sym<"b">;

// |C| == 2: r_priorID (left) is read at a, r_id (right) at b.
constexpr auto prior_value = jy::aggregate(
    jy::output_idx(a),
    jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
    jy::join(jy::on(r_priorID, r_id)),
    jy::sum(value(b)));

// syms(b, a) transposes: r_priorID is read at b, r_id at a.
constexpr auto successor_values = jy::aggregate(
    jy::output_idx(a),
    jy::ranges(jy::range(a, row_ax{}), jy::range(b, row_ax{})),
    jy::join(jy::on(r_priorID, r_id), jy::syms(b, a)),
    jy::sum(value(b)));

static_assert(jy::validate(prior_value).empty());
static_assert(jy::validate(successor_values).empty());

template <class Result>
void print(const char* title, const Result& out) {
  std::printf("%-18s{", title);
  const char* sep = "";
  for (double v : out) {
    std::printf("%s%g", sep, v);
    sep = ", ";
  }
  std::printf("}\n");
}

int main() {
  const std::vector<std::int64_t> ids{10, 11, 12, 13, 14};
  const std::vector<std::int64_t> priors{0, 10, 11, 11, 99};
  const std::vector<double> values{1, 2, 3, 4, 5};

  auto out = jy::evaluate(prior_value, jy::extent(row_ax{}, 5), r_id = ids, r_priorID = priors, value = values);
  print("prior_value", out);  // {0, 1, 2, 2, 0}

  auto succ = jy::evaluate(successor_values, jy::extent(row_ax{}, 5), r_id = ids, r_priorID = priors, value = values);
  print("successor_values", succ);  // {2, 7, 0, 0, 0}

  // The visited (a, b) tuples: sorted, a subsequence of the 25-tuple product.
  for (const auto& t : jy::matches(prior_value, jy::extent(row_ax{}, 5), r_id = ids, r_priorID = priors, value = values))
    std::printf("match a=%zu b=%zu\n", t[0], t[1]);

  const bool ok = out.size() == 5 && out[0] == 0 && out[1] == 1 && out[2] == 2 && out[3] == 2 && out[4] == 0 &&
                  succ[0] == 2 && succ[1] == 7;
  return ok ? 0 : 1;
}
