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
