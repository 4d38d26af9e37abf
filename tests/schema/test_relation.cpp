#include <catch2/catch.hpp>
#include <new>
#include <ranges>
#include <vector>
#include <test_schemas.hpp>

TEST_CASE("joinery.schema.relation.construct_insert_read") {
  jy::relation<orders> o{{1, 10, 9.5}, {2, std::nullopt, 3.0}};
  o.insert({3, 10, 1.0});
  REQUIRE(o.size() == 3);
  auto amount = o.column<"amount">();
  STATIC_REQUIRE(std::is_same_v<decltype(amount), std::span<const double>>);
  CHECK(std::vector<double>(amount.begin(), amount.end()) == std::vector<double>{9.5, 3.0, 1.0});
  auto cust = o.column<"customer_id">();
  CHECK(cust[0] == 10);
  CHECK(!cust[1].has_value());
  std::vector<std::int64_t> ids;
  for (auto row : o) ids.push_back(jy::get<"order_id">(row));
  CHECK(ids == std::vector<std::int64_t>{1, 2, 3});
  CHECK(jy::get<"amount">(o[2]) == 1.0);
  CHECK(o.row(1) == std::tuple<std::int64_t, std::optional<std::int64_t>, double>{2, std::nullopt, 3.0});
}

TEST_CASE("joinery.schema.relation.is_a_random_access_range") {
  jy::relation<customers> c{{1, "DE"}, {2, "FR"}};
  STATIC_REQUIRE(std::ranges::random_access_range<jy::relation<customers>>);
  STATIC_REQUIRE(std::ranges::sized_range<jy::relation<customers>>);
  CHECK(jy::get<"country">(*(c.begin() + 1)) == "FR");
  CHECK(c.end() - c.begin() == 2);
  CHECK(std::ranges::distance(c) == 2);
}

TEST_CASE("joinery.schema.relation.empty") {
  jy::relation<customers> c;
  CHECK(c.empty());
  CHECK(c.size() == 0);
  CHECK(c.begin() == c.end());
  CHECK(c.column<"country">().empty());
}

TEST_CASE("joinery.schema.relation.version_changes_on_every_mutation") {
  jy::relation<customers> c{{1, "DE"}};
  const auto v0 = c.version();
  c.insert({2, "FR"});
  const auto v1 = c.version();
  CHECK(v1 != v0);
  c.insert({{3, "IT"}, {4, "ES"}});
  const auto v2 = c.version();
  CHECK(v2 != v1);
  c.clear();
  CHECK(c.version() != v2);
  CHECK(c.empty());
  // Two relations never share a version, even with equal contents.
  jy::relation<customers> a{{1, "DE"}}, b{{1, "DE"}};
  CHECK(a.version() != b.version());
  CHECK(a == b);
  auto copy = a;
  CHECK(copy == a);
  CHECK(copy.version() != a.version());
  const auto before_read = a.version();
  (void)a.column<"country">();
  CHECK(a.version() == before_read);  // reads are not mutations
}

namespace {
// A value whose copies and moves throw once armed, so the throw happens
// inside insert (after other columns already grew), not while the row
// literal is being built.
bool fragile_armed = false;
struct fragile {
  int v = 0;
  fragile(int x) : v(x) {}  // NOLINT: implicit for row literals
  fragile(const fragile& o) : v(o.v) { check(o); }
  fragile(fragile&& o) : v(o.v) { check(o); }
  fragile& operator=(const fragile&) = default;
  fragile& operator=(fragile&&) = default;
  ~fragile() = default;
  friend bool operator==(const fragile&, const fragile&) = default;
  static void check(const fragile& o) {
    if (fragile_armed && o.v < 0) throw std::runtime_error("copy of negative fragile");
  }
};
struct fragile_table : jy::table<"fragile_table", jy::column<"id", std::int64_t>, jy::column<"f", fragile>> {};
}  // namespace

TEST_CASE("joinery.schema.relation.insert_is_strongly_exception_safe") {
  jy::relation<fragile_table> r{{1, fragile{1}}};
  const auto before = r;
  const auto v = r.version();
  jy::relation<fragile_table>::row_type bad{2, fragile{-1}};
  fragile_armed = true;
  CHECK_THROWS_WITH(r.insert(bad), "copy of negative fragile");
  CHECK_THROWS_WITH(r.insert(std::move(bad)), "copy of negative fragile");
  fragile_armed = false;
  CHECK(r == before);
  CHECK(r.size() == 1);
  CHECK(r.column<"id">().size() == 1);  // the id column grew, then was rolled back
  CHECK(r.version() == v);
  jy::relation<fragile_table>::row_type good{3, fragile{3}}, bad2{4, fragile{-4}};
  fragile_armed = true;
  CHECK_THROWS(r.insert({good, bad2}));
  fragile_armed = false;
  CHECK(r == before);  // a failed batch leaves nothing behind
}
