// Property: 1,000 random cases (15 node shapes x random data) against a naive evaluator
// that enumerates the FULL product in canonical order and tests every pair as
// a filter. Results and the order of `matches` must be equal. Data has NULL
// keys, duplicates, NaN, -0.0, keys outside an extent and empty index sets.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include <joinery/aggregate/evaluate.hpp>
#include <joinery/aggregate/node.hpp>
#include <joinery/check/aggregate_validate.hpp>
#include <joinery/core/key.hpp>

namespace jy = joinery;

namespace {

struct X : jy::index_set<"X"> {};
struct Y : jy::index_set<"Y"> {};
constexpr auto kx1 = jy::data<"kx1", std::optional<std::int64_t>>(X{});
constexpr auto kx2 = jy::data<"kx2", std::int64_t>(X{});
constexpr auto kd = jy::data<"kd", double>(X{});
constexpr auto ky = jy::data<"ky", std::int64_t>(Y{});
constexpr auto vx = jy::data<"vx", double>(X{});
constexpr auto vy = jy::data<"vy", double>(Y{});
constexpr auto fx = jy::data<"fx", bool>(X{});
constexpr auto wxy = jy::data<"wxy", double>(X{}, Y{});
constexpr auto a = jy::sym<"a">;
constexpr auto b = jy::sym<"b">;
constexpr auto c = jy::sym<"c">;
constexpr auto B = jy::sym<"B">;

struct dataset {
  std::size_t nx = 0, ny = 0;
  std::vector<std::optional<std::int64_t>> kx1;
  std::vector<std::int64_t> kx2, ky;
  std::vector<double> kd, vx, vy, wxy;
  std::vector<bool> fx;
};

dataset make_dataset(std::mt19937_64& rng) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  dataset d;
  d.nx = static_cast<std::size_t>(pick(0, 7));
  d.ny = static_cast<std::size_t>(pick(0, 5));
  const double specials[] = {std::nan(""), -0.0, 0.0, 1.0, 2.5};
  for (std::size_t r = 0; r < d.nx; ++r) {
    d.kx1.push_back(pick(0, 6) == 0 ? std::nullopt : std::optional<std::int64_t>(pick(0, 3)));
    d.kx2.push_back(pick(-1, 3));
    d.kd.push_back(specials[pick(0, 4)]);
    d.vx.push_back(static_cast<double>(pick(-3, 9)));
    d.fx.push_back(pick(0, 1) == 1);
  }
  for (std::size_t r = 0; r < d.ny; ++r) {
    d.ky.push_back(pick(-1, 4));
    d.vy.push_back(static_cast<double>(pick(-3, 9)));
  }
  for (std::size_t r = 0; r < d.nx * d.ny; ++r) d.wxy.push_back(static_cast<double>(pick(0, 5)));
  return d;
}

bool eq(const std::optional<std::int64_t>& l, std::int64_t r) { return l && *l == r; }

/// The naive evaluator: the full product of `ext` (canonical order), `cond`
/// as a filter, `val` folded with semiring S into the first `n_out` positions.
template <class T, class S, std::size_t N, class Cond, class Val>
std::pair<std::vector<T>, std::vector<std::array<std::size_t, N>>> naive(std::array<std::size_t, N> ext, std::size_t n_out,
                                                                          Cond cond, Val val) {
  std::size_t cells = 1;
  for (std::size_t k = 0; k < n_out; ++k) cells *= ext[k];
  std::vector<T> out(cells, S::template zero<T>());
  std::vector<std::array<std::size_t, N>> tuples;
  std::size_t total = 1;
  for (auto e : ext) total *= e;
  for (std::size_t flat = 0; flat < total; ++flat) {
    std::array<std::size_t, N> t{};
    std::size_t rest = flat;
    for (std::size_t k = N; k-- > 0;) {
      t[k] = rest % ext[k];
      rest /= ext[k];
    }
    if (!cond(t)) continue;
    tuples.push_back(t);
    std::size_t at = 0;
    for (std::size_t k = 0; k < n_out; ++k) at = at * ext[k] + t[k];
    out[at] = S::template plus<T>(out[at], static_cast<T>(val(t)));
  }
  return {out, tuples};
}

template <class Node, class Naive>
void check(const Node& node, const dataset& d, const Naive& expected) {
  STATIC_REQUIRE(jy::validate(Node{}).empty());
  auto run = [&](auto entry) {
    return entry(node, jy::extent(X{}, d.nx), jy::extent(Y{}, d.ny), kx1 = d.kx1, kx2 = d.kx2, kd = d.kd, ky = d.ky,
                 vx = d.vx, vy = d.vy, fx = d.fx, wxy = d.wxy);
  };
  auto out = run([](const auto&... x) { return jy::evaluate(x...); });
  auto got = std::vector<typename decltype(out)::value_type>(out.begin(), out.end());
  REQUIRE(got == expected.first);
  REQUIRE(run([](const auto&... x) { return jy::matches(x...); }) == expected.second);
}

using jy::semiring::any;
using jy::semiring::count;
using jy::semiring::max_plus;
using jy::semiring::min_plus;
using jy::semiring::sum;
using A2 = std::array<std::size_t, 2>;
using A3 = std::array<std::size_t, 3>;

void run_case(std::size_t shape, const dataset& d) {
  const std::size_t nx = d.nx, ny = d.ny;
  switch (shape) {
    case 0: {  // |C| = 2, output first: kx1 at a, kx2 at b
      constexpr auto n = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, X{}), jy::range(b, X{})),
                                       jy::join(jy::on(kx1, kx2)), jy::sum(vx(b)));
      check(n, d, naive<double, sum>(A2{nx, nx}, 1, [&](auto t) { return eq(d.kx1[t[0]], d.kx2[t[1]]); },
                                     [&](auto t) { return d.vx[t[1]]; }));
      break;
    }
    case 1: {  // output b: canonical (b, a), kx1 at b
      constexpr auto n = jy::aggregate(jy::output_idx(b), jy::ranges(jy::range(a, X{}), jy::range(b, X{})),
                                       jy::join(jy::on(kx1, kx2)), jy::min_plus(vx(a)));
      check(n, d, naive<double, min_plus>(A2{nx, nx}, 1, [&](auto t) { return eq(d.kx1[t[0]], d.kx2[t[1]]); },
                                          [&](auto t) { return d.vx[t[1]]; }));
      break;
    }
    case 2: {  // contracted by code point (B, a); composite key with double component
      constexpr auto n = jy::aggregate(jy::output_idx(), jy::ranges(jy::range(a, X{}), jy::range(B, X{})),
                                       jy::join(jy::on(kx2, kx2), jy::on(kd, kd)), jy::count());
      check(n, d, naive<std::int64_t, count>(
                      A2{nx, nx}, 0,
                      [&](auto t) { return d.kx2[t[0]] == d.kx2[t[1]] && jy::key_equal(d.kd[t[0]], d.kd[t[1]]); },
                      [](auto) { return 1; }));
      break;
    }
    case 3: {  // two gates from a: to c (over Y) and to b
      constexpr auto n = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, X{}), jy::range(b, X{}), jy::range(c, Y{})),
                                       jy::join(jy::on(kx2, ky)), jy::join(jy::on(kx1, kx2)), jy::sum(vx(b), vy(c)));
      check(n, d, naive<double, sum>(
                      A3{nx, nx, ny}, 1,
                      [&](auto t) { return d.kx2[t[0]] == d.ky[t[2]] && eq(d.kx1[t[0]], d.kx2[t[1]]); },
                      [&](auto t) { return d.vx[t[1]] * d.vy[t[2]]; }));
      break;
    }
    case 4: {  // canonical (a, c, b): b is driven by a composite key over two clauses
      constexpr auto n = jy::aggregate(jy::output_idx(a, c), jy::ranges(jy::range(a, X{}), jy::range(b, X{}), jy::range(c, X{})),
                                       jy::join(jy::on(kx1, kx2), jy::syms(a, b)), jy::join(jy::on(kx2, kx2), jy::syms(c, b)),
                                       jy::max_plus(vx(c)));
      check(n, d, naive<double, max_plus>(
                      A3{nx, nx, nx}, 2,
                      [&](auto t) { return eq(d.kx1[t[0]], d.kx2[t[2]]) && d.kx2[t[1]] == d.kx2[t[2]]; },
                      [&](auto t) { return d.vx[t[1]]; }));
      break;
    }
    case 5: {  // index-set key (position of c) and a predicate on a
      constexpr auto n = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, X{}), jy::range(c, Y{})),
                                       jy::join(jy::on(kx2, Y{})), jy::join(jy::on(kx1, kx2)), jy::sum(wxy(a, c)));
      check(n, d, naive<double, sum>(
                      A2{nx, ny}, 1,
                      [&](auto t) {
                        return d.kx2[t[0]] == static_cast<std::int64_t>(t[1]) && eq(d.kx1[t[0]], d.kx2[t[0]]);
                      },
                      [&](auto t) { return d.wxy[t[0] * ny + t[1]]; }));
      break;
    }
    case 6: {  // symbol key
      constexpr auto n = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, X{}), jy::range(b, X{})),
                                       jy::join(jy::on(kx1, b)), jy::count());
      check(n, d, naive<std::int64_t, count>(A2{nx, nx}, 1,
                                             [&](auto t) { return eq(d.kx1[t[0]], static_cast<std::int64_t>(t[1])); },
                                             [](auto) { return 1; }));
      break;
    }
    case 7: {  // syms transposes
      constexpr auto n = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, X{}), jy::range(b, X{})),
                                       jy::join(jy::on(kx1, kx2), jy::syms(b, a)), jy::sum(vx(b)));
      check(n, d, naive<double, sum>(A2{nx, nx}, 1, [&](auto t) { return eq(d.kx1[t[1]], d.kx2[t[0]]); },
                                     [&](auto t) { return d.vx[t[1]]; }));
      break;
    }
    case 8: {  // canonical (c, a, b): ky at c, kx2 (right, |C| = 2) at C[1] = b; a free
      constexpr auto n = jy::aggregate(jy::output_idx(c, a), jy::ranges(jy::range(a, X{}), jy::range(b, X{}), jy::range(c, Y{})),
                                       jy::join(jy::on(ky, kx2)), jy::count());
      check(n, d, naive<std::int64_t, count>(A3{ny, nx, nx}, 2, [&](auto t) { return d.ky[t[0]] == d.kx2[t[2]]; },
                                             [](auto) { return 1; }));
      break;
    }
    case 9: {  // no join: the full product
      constexpr auto n = jy::aggregate(jy::output_idx(), jy::ranges(jy::range(a, X{}), jy::range(b, X{})),
                                       jy::sum(vx(a), vx(b)));
      check(n, d, naive<double, sum>(A2{nx, nx}, 0, [](auto) { return true; },
                                     [&](auto t) { return d.vx[t[0]] * d.vx[t[1]]; }));
      break;
    }
    case 11: {  // an index-set key drawn twice, resolved by syms: position of b == kx2[a]
      constexpr auto n = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, X{}), jy::range(b, X{})),
                                       jy::join(jy::on(X{}, kx2), jy::syms(b, a)), jy::sum(vx(b)));
      check(n, d, naive<double, sum>(A2{nx, nx}, 1,
                                     [&](auto t) { return static_cast<std::int64_t>(t[1]) == d.kx2[t[0]]; },
                                     [&](auto t) { return d.vx[t[1]]; }));
      break;
    }
    case 12: {  // output (b, a) then c; a symbol key on c's own axis is a predicate on c
      constexpr auto n = jy::aggregate(jy::output_idx(b, a), jy::ranges(jy::range(a, X{}), jy::range(b, X{}), jy::range(c, Y{})),
                                       jy::join(jy::on(kx1, kx2)), jy::join(jy::on(ky, c)), jy::count());
      check(n, d, naive<std::int64_t, count>(
                      A3{nx, nx, ny}, 2,
                      [&](auto t) { return eq(d.kx1[t[0]], d.kx2[t[1]]) && d.ky[t[2]] == static_cast<std::int64_t>(t[2]); },
                      [](auto) { return 1; }));
      break;
    }
    case 13: {  // canonical (B, a, c): a and c are both driven from B
      constexpr auto n = jy::aggregate(jy::output_idx(), jy::ranges(jy::range(a, X{}), jy::range(B, X{}), jy::range(c, Y{})),
                                       jy::join(jy::on(kx2, ky)), jy::join(jy::on(kx1, kx1), jy::syms(a, B)),
                                       jy::sum(vx(a), vy(c)));
      check(n, d, naive<double, sum>(
                      A3{nx, nx, ny}, 0,
                      [&](auto t) { return d.kx2[t[0]] == d.ky[t[2]] && d.kx1[t[1]] && eq(d.kx1[t[0]], *d.kx1[t[1]]); },
                      [&](auto t) { return d.vx[t[1]] * d.vy[t[2]]; }));
      break;
    }
    case 14: {  // output over Y, X driven from it; a 2-D factor under min_plus
      constexpr auto n = jy::aggregate(jy::output_idx(c), jy::ranges(jy::range(c, Y{}), jy::range(a, X{})),
                                       jy::join(jy::on(ky, kx2)), jy::min_plus(wxy(a, c), vy(c)));
      check(n, d, naive<double, min_plus>(A2{ny, nx}, 1, [&](auto t) { return d.ky[t[0]] == d.kx2[t[1]]; },
                                          [&](auto t) { return d.wxy[t[1] * ny + t[0]] + d.vy[t[0]]; }));
      break;
    }
    default: {  // any, keyed on doubles (NaN == NaN, -0.0 == 0.0)
      constexpr auto n = jy::aggregate(jy::output_idx(a), jy::ranges(jy::range(a, X{}), jy::range(b, X{})),
                                       jy::join(jy::on(kd, kd)), jy::any(fx(b)));
      check(n, d, naive<bool, any>(A2{nx, nx}, 1, [&](auto t) { return jy::key_equal(d.kd[t[0]], d.kd[t[1]]); },
                                   [&](auto t) { return static_cast<bool>(d.fx[t[1]]); }));
      break;
    }
  }
}

}  // namespace

TEST_CASE("joinery.aggregate.property.walk_equals_full_product") {
  constexpr std::size_t shapes = 15;
  std::mt19937_64 rng(20261130);
  for (std::size_t i = 0; i < 1000; ++i) {
    const dataset d = make_dataset(rng);
    INFO("case " << i << " shape " << i % shapes << " nx " << d.nx << " ny " << d.ny);
    run_case(i % shapes, d);
  }
}
