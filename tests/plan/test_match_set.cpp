// The match set and group_rows helpers the plan runtime lowers onto.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <vector>

#include <joinery/exec/group_by.hpp>
#include <joinery/exec/match_set.hpp>

TEST_CASE("joinery.exec.match_set.identity_and_gather") {
  auto m = joinery::exec::match_set<2>::all_rows(4);
  m.pos[1] = {7, 6, joinery::exec::no_row, 4};
  CHECK(m.at(0, 3) == 3);
  CHECK(m.at(1, 2) == joinery::exec::no_row);
  const auto g = m.gather(joinery::exec::position_column{3, 1});
  CHECK(g.rows == 2);
  CHECK(!g.identity);
  CHECK(std::vector<std::uint32_t>(g.pos[0].begin(), g.pos[0].end()) == std::vector<std::uint32_t>{3, 1});
  CHECK(std::vector<std::uint32_t>(g.pos[1].begin(), g.pos[1].end()) == std::vector<std::uint32_t>{4, 6});
}

TEST_CASE("joinery.exec.match_set.position_writer_grows") {
  joinery::exec::position_writer w;
  for (std::uint32_t i = 0; i < 5000; ++i) w.put(i * 3);
  CHECK(w.size() == 5000);
  const auto col = w.take();
  REQUIRE(col.size() == 5000);
  CHECK(col[4999] == 14997);
  CHECK(col[0] == 0);
}

TEST_CASE("joinery.exec.group_by.first_appearance_and_leaders") {
  const std::vector<int> keys{5, 3, 5, 9, 3, 5};
  const auto arr = joinery::exec::group_rows<std::int64_t>(
      keys.size(), [&](std::size_t i) { return std::optional<std::int64_t>(keys[i]); });
  CHECK(arr.group_count() == 3);
  CHECK(joinery::exec::group_leaders(arr) == std::vector<std::uint32_t>{0, 1, 3});
  CHECK(arr.group_of_row(4) == 1);
  CHECK(arr.group_size(0) == 3);
}

TEST_CASE("joinery.exec.match_set.concat_keeps_order_and_identity") {
  namespace ex = joinery::exec;
  auto col = [](const ex::position_column& c) { return std::vector<std::uint32_t>(c.begin(), c.end()); };
  // Contiguous identity parts (an empty one between): column 0 stays the identity.
  std::vector<ex::match_set<2>> parts(3);
  parts[0] = ex::match_set<2>::all_rows(2, 0);
  parts[0].pos[1] = {9, 8};
  parts[1].identity = true;  // empty
  parts[2] = ex::match_set<2>::all_rows(3, 2);
  parts[2].pos[1] = {7, ex::no_row, 5};
  const auto a = ex::concat(parts);
  CHECK(a.rows == 5);
  CHECK(a.identity);
  CHECK(a.base == 0);
  CHECK(a.at(0, 4) == 4);
  CHECK(col(a.pos[1]) == std::vector<std::uint32_t>{9, 8, 7, ex::no_row, 5});
  // A gap (rows 2..3 dropped by an inner join): column 0 is stored.
  std::vector<ex::match_set<2>> gap(2);
  gap[0] = ex::match_set<2>::all_rows(2, 0);
  gap[0].pos[1] = {1, 2};
  gap[1] = ex::match_set<2>::all_rows(1, 4);
  gap[1].pos[1] = {3};
  const auto b = ex::concat(gap);
  CHECK(!b.identity);
  CHECK(col(b.pos[0]) == std::vector<std::uint32_t>{0, 1, 4});
  CHECK(col(b.pos[1]) == std::vector<std::uint32_t>{1, 2, 3});
}

TEST_CASE("joinery.exec.match_set.concat_on_threads") {
  namespace ex = joinery::exec;
  auto col = [](const ex::position_column& c) { return std::vector<std::uint32_t>(c.begin(), c.end()); };
  // Five parts copied by two or three threads (grain 1): the same columns as
  // on one thread; an identity part gets its column 0 written out when the
  // result's is stored; every part's columns are released.
  auto make = [] {
    std::vector<ex::match_set<2>> parts(5);
    parts[0] = ex::match_set<2>::all_rows(3, 0);
    parts[0].pos[1] = {4, ex::no_row, 6};
    parts[1].pos[0] = {5, 7};  // rows 3 and 4 dropped, 6 repeated below
    parts[1].pos[1] = {1, 2};
    parts[1].rows = 2;
    parts[2].identity = true;  // empty
    parts[3] = ex::match_set<2>::all_rows(2, 8);
    parts[3].pos[1] = {9, 9};
    parts[4].pos[0] = {10, 10, 11};
    parts[4].pos[1] = {0, 3, ex::no_row};
    parts[4].rows = 3;
    return parts;
  };
  const std::vector<std::uint32_t> rows0{0, 1, 2, 5, 7, 8, 9, 10, 10, 11};
  const std::vector<std::uint32_t> rows1{4, ex::no_row, 6, 1, 2, 9, 9, 0, 3, ex::no_row};
  for (const unsigned t : {1U, 2U, 3U}) {
    CAPTURE(t);
    auto parts = make();
    const auto m = ex::concat(parts, ex::threads(t, 1));
    CHECK(m.rows == 10);
    CHECK(!m.identity);
    CHECK(col(m.pos[0]) == rows0);
    CHECK(col(m.pos[1]) == rows1);
    for (const auto& p : parts) {
      CHECK(p.pos[0].empty());
      CHECK(p.pos[1].empty());
    }
  }
  // Contiguous identity parts on two threads: column 0 stays the identity, not stored.
  std::vector<ex::match_set<2>> ids(2);
  ids[0] = ex::match_set<2>::all_rows(2, 4);
  ids[0].pos[1] = {1, 2};
  ids[1] = ex::match_set<2>::all_rows(2, 6);
  ids[1].pos[1] = {3, 4};
  const auto m = ex::concat(ids, ex::threads(2, 1));
  CHECK(m.identity);
  CHECK(m.base == 4);
  CHECK(m.pos[0].empty());
  CHECK(col(m.pos[1]) == std::vector<std::uint32_t>{1, 2, 3, 4});
}
