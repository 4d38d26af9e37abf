// `run` streams eligible plans chunk by chunk (plan/execute.hpp); `materialize`
// takes the whole-match-set path, which test_plan_property.cpp checks against
// a naive nested loop. Here the two paths must agree row for row, in order,
// across chunk boundaries (inputs of 3,000-11,000 rows; chunks are 2,048),
// including iterators copied mid-stream, rows kept after the iterator moved
// on, a row read twice, random access, size and to_relation.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <joinery/plan/relational.hpp>

namespace jy = joinery;

namespace {
struct sl : jy::table<"sl", jy::column<"id", std::int64_t>, jy::column<"k", std::optional<std::int64_t>>,
                      jy::column<"d", double>> {};
struct sr : jy::table<"sr", jy::column<"rid", std::int64_t>, jy::column<"k", std::int32_t>,
                      jy::column<"d", std::optional<double>>> {};
struct ss : jy::table<"ss", jy::column<"sid", std::int64_t>, jy::column<"rk", std::int64_t>> {};

constexpr auto l_id = jy::col<sl, "id">;
constexpr auto l_k = jy::col<sl, "k">;
constexpr auto l_d = jy::col<sl, "d">;
constexpr auto r_id = jy::col<sr, "rid">;
constexpr auto r_k = jy::col<sr, "k">;
constexpr auto r_d = jy::col<sr, "d">;
constexpr auto s_id = jy::col<ss, "sid">;
constexpr auto s_rk = jy::col<ss, "rk">;

template <class P, class... Rel>
void require_stream_equals_materialize(const std::string& name, const P& p, const Rel&... rels) {
  INFO("plan " << name);
  const auto m = jy::materialize(p, rels...);

  // 1. one forward pass
  std::size_t i = 0;
  for (auto row : jy::run(p, rels...)) {
    REQUIRE(i < m.size());
    const auto expected = m.row(i);
    REQUIRE(jy::get<"a">(row) == std::get<0>(expected));
    REQUIRE(jy::get<"b">(row) == std::get<1>(expected));
    ++i;
  }
  REQUIRE(i == m.size());

  // 2. copies mid-stream, rows kept after the iterator moved on
  auto v = jy::run(p, rels...);
  std::vector<std::pair<std::size_t, typename decltype(v)::row>> kept;
  std::size_t j = 0;
  for (auto it = v.begin(); it != v.end(); ++it, ++j) {
    if (j % 997 == 0) {
      auto copy = it;
      ++copy;  // advancing a copy must not disturb the original
      kept.emplace_back(j, *it);
      REQUIRE(jy::get<"b">(*it) == std::get<1>(m.row(j)));  // read again
    }
  }
  REQUIRE(j == m.size());
  for (const auto& [pos, row] : kept) REQUIRE(jy::get<"a">(row) == std::get<0>(m.row(pos)));

  // 3. random access and size
  REQUIRE(v.size() == m.size());
  REQUIRE(v.end() - v.begin() == static_cast<std::ptrdiff_t>(m.size()));
  for (std::size_t k = 0; k < m.size(); k += 1013) REQUIRE(jy::get<"b">(v[k]) == std::get<1>(m.row(k)));
  // Backwards from a fresh view's end (an iterator that never read a row).
  if (m.size() != 0) {
    const auto fresh = jy::run(p, rels...);
    auto e = fresh.end();
    REQUIRE(jy::get<"b">(*(e - 1)) == std::get<1>(m.row(m.size() - 1)));
    --e;
    REQUIRE(jy::get<"a">(*e) == std::get<0>(m.row(m.size() - 1)));
    if (m.size() > 1) REQUIRE(jy::get<"a">(e[-1]) == std::get<0>(m.row(m.size() - 2)));
  }

  // 4. the whole view as a relation
  auto w = jy::run(p, rels...);
  REQUIRE(w.empty() == (m.size() == 0));
  REQUIRE(w.to_relation() == m);
}
}  // namespace

TEST_CASE("joinery.plan.property.streamed_run_equals_materialize") {
  std::mt19937_64 g(20261130);
  for (int round = 0; round < 24; ++round) {
    jy::relation<sl> l;
    jy::relation<sr> r;
    jy::relation<ss> s;
    const std::size_t nl = round % 5 == 0 ? g() % 10 : 3000 + g() % 8000;
    const std::size_t nr = g() % 300;
    const std::size_t ns = g() % 200;
    for (std::size_t i = 0; i < nl; ++i) {
      std::optional<std::int64_t> k;
      if (g() % 7) k = static_cast<std::int64_t>(g() % 250);  // NULL keys too
      l.insert({static_cast<std::int64_t>(i), k, static_cast<double>(g() % 5)});
    }
    for (std::size_t j = 0; j < nr; ++j) {
      std::optional<double> d;
      if (g() % 5) d = static_cast<double>(g() % 9);
      r.insert({static_cast<std::int64_t>(j), static_cast<std::int32_t>(g() % 300), d});  // duplicate keys
    }
    for (std::size_t j = 0; j < ns; ++j)
      s.insert({static_cast<std::int64_t>(j), static_cast<std::int64_t>(g() % 300)});

    using jy::as;
    require_stream_equals_materialize(
        "inner", jy::from<sl> | jy::join_inner<sr>(l_k == r_k) | jy::select(as<"a">(l_id), as<"b">(r_id)), l, r);
    require_stream_equals_materialize(
        "left", jy::from<sl> | jy::join_left<sr>(l_k == r_k) | jy::select(as<"a">(l_id), as<"b">(r_d)), l, r);
    require_stream_equals_materialize(
        "left_residual",
        jy::from<sl> | jy::join_left<sr>(l_k == r_k && l_d < r_d && r_k > 5) | jy::select(as<"a">(l_id), as<"b">(r_id)),
        l, r);
    require_stream_equals_materialize(
        "semi", jy::from<sl> | jy::join_semi<sr>(l_k == r_k) | jy::select(as<"a">(l_id), as<"b">(l_d)), l, r);
    require_stream_equals_materialize(
        "anti", jy::from<sl> | jy::join_anti<sr>(l_k == r_k) | jy::select(as<"a">(l_id), as<"b">(l_d)), l, r);
    require_stream_equals_materialize(
        "where_then_join",
        jy::from<sl> | jy::where(l_d > 1.0) | jy::join_inner<sr>(l_k == r_k) | jy::select(as<"a">(l_id), as<"b">(r_id)),
        l, r);
    require_stream_equals_materialize(
        "chain", jy::from<sl> | jy::join_left<sr>(l_k == r_k) | jy::join_inner<ss>(r_id == s_rk) |
                     jy::where(s_id > 3) | jy::select(as<"a">(l_id), as<"b">(s_id)),
        l, r, s);
    require_stream_equals_materialize(
        "chain_anti", jy::from<sl> | jy::join_inner<sr>(l_k == r_k) | jy::join_anti<ss>(r_id == s_rk) |
                          jy::select(as<"a">(l_id), as<"b">(r_id)),
        l, r, s);
    require_stream_equals_materialize(
        "many_to_one", jy::from<sl> | jy::join_inner<ss>(l_k == s_id, jy::expect::many_to_one) |
                           jy::select(as<"a">(l_id), as<"b">(s_rk)),
        l, s);
    // Distinct build keys (ss.sid): one position per probe row (join_at_most_one).
    require_stream_equals_materialize(
        "left_distinct", jy::from<sl> | jy::join_left<ss>(l_k == s_id) | jy::select(as<"a">(l_id), as<"b">(s_rk)), l,
        s);
    require_stream_equals_materialize(
        "left_distinct_filters",
        jy::from<sl> | jy::join_left<ss>(l_k == s_id && l_d > 1.0 && s_rk > 100) |
            jy::select(as<"a">(l_id), as<"b">(s_rk)),
        l, s);
    require_stream_equals_materialize(
        "inner_then_left_distinct", jy::from<sl> | jy::join_inner<sr>(l_k == r_k) | jy::join_left<ss>(r_id == s_id) |
                                        jy::select(as<"a">(l_id), as<"b">(s_rk)),
        l, r, s);
    require_stream_equals_materialize(
        "where_only", jy::from<sl> | jy::where(l_d < 3.0) | jy::select(as<"a">(l_id), as<"b">(l_d)), l);
  }
}

TEST_CASE("joinery.plan.property.streamed_run_large_distinct_build") {
  // A distinct, sparse build side large enough that its hash table resolves
  // half-missing probes without guessing (exec/arrangement.hpp) and that a
  // streamed chunk prefetches the projected column (over 1 MiB): the rows
  // are still exactly the reference's, in order.
  std::mt19937_64 g(7);
  constexpr std::size_t ns = 140'000, nl = 9'000;
  jy::relation<ss> s;
  std::unordered_map<std::int64_t, std::int64_t> rk_of;
  for (std::size_t j = 0; j < ns; ++j) {
    const auto sid = static_cast<std::int64_t>(j) * 1000003 + 7;
    const auto rk = static_cast<std::int64_t>(g() % 100000);
    s.insert({sid, rk});
    rk_of.emplace(sid, rk);
  }
  jy::relation<sl> l;
  for (std::size_t i = 0; i < nl; ++i) {
    std::optional<std::int64_t> k;
    if (g() % 11) k = static_cast<std::int64_t>(g() % ns) * 1000003 + 7 + (g() % 2 ? 0 : 1);  // half miss
    l.insert({static_cast<std::int64_t>(i), k, 0.0});
  }
  using jy::as;
  const auto left = jy::from<sl> | jy::join_left<ss>(l_k == s_id) | jy::select(as<"a">(l_id), as<"b">(s_rk));
  std::size_t i = 0, matched = 0;
  for (auto row : jy::run(left, l, s)) {
    REQUIRE(jy::get<"a">(row) == static_cast<std::int64_t>(i));
    const auto k = std::get<1>(l.row(i));
    const auto it = k ? rk_of.find(*k) : rk_of.end();
    const std::optional<std::int64_t> want = it == rk_of.end() ? std::nullopt : std::optional(it->second);
    REQUIRE(jy::get<"b">(row) == want);
    matched += want.has_value();
    ++i;
  }
  REQUIRE(i == nl);
  CHECK(matched > nl / 3);
  CHECK(matched < 2 * nl / 3);
  require_stream_equals_materialize("left_large", left, l, s);
  require_stream_equals_materialize(
      "inner_large", jy::from<sl> | jy::join_inner<ss>(l_k == s_id) | jy::select(as<"a">(l_id), as<"b">(s_rk)), l, s);
  require_stream_equals_materialize(
      "semi_large", jy::from<sl> | jy::join_semi<ss>(l_k == s_id) | jy::select(as<"a">(l_id), as<"b">(l_d)), l, s);
  require_stream_equals_materialize(
      "anti_large", jy::from<sl> | jy::join_anti<ss>(l_k == s_id) | jy::select(as<"a">(l_id), as<"b">(l_d)), l, s);
}
