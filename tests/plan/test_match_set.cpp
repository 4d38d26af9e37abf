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
