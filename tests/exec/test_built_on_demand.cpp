// detail::built_on_demand, the once-only part of an arrangement (the key
// filter, the keys in buckets) and of a pipelined plan (its full match set):
// built by the first of many threads asking, never before it is wanted,
// copied with its value only when it has one.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include <joinery/exec/built_on_demand.hpp>

using joinery::exec::detail::built_on_demand;

TEST_CASE("joinery.exec.built_on_demand.not_built_until_wanted_and_asked") {
  built_on_demand<std::vector<int>> v;
  int builds = 0;
  auto make = [&] {
    ++builds;
    return std::vector<int>{1, 2, 3};
  };
  CHECK_FALSE(v.wanted());
  CHECK(v.build_once(make) == nullptr);  // not wanted: no build
  CHECK(builds == 0);
  v.want();
  CHECK(v.wanted());
  CHECK_FALSE(v.built());
  CHECK(v.get() == nullptr);
  const std::vector<int>* built = v.build_once(make);
  REQUIRE(built != nullptr);
  CHECK(*built == std::vector<int>{1, 2, 3});
  CHECK(v.build_once(make) == built);  // once
  CHECK(builds == 1);
  CHECK(v.get() == built);
  v.reset();
  CHECK_FALSE(v.wanted());
  CHECK(v.get() == nullptr);
}

TEST_CASE("joinery.exec.built_on_demand.a_copy_has_the_value_only_if_built") {
  int builds = 0;
  auto make = [&] {
    ++builds;
    return std::vector<int>{builds};
  };
  built_on_demand<std::vector<int>> v;
  v.want();
  const auto unbuilt = v;
  CHECK(unbuilt.wanted());
  CHECK_FALSE(unbuilt.built());
  REQUIRE(v.build_once(make) != nullptr);
  const auto copy = v;
  REQUIRE(copy.built());
  CHECK(copy.get() != v.get());  // its own value
  CHECK(*copy.get() == std::vector<int>{1});
  CHECK(*unbuilt.build_once(make) == std::vector<int>{2});  // built by itself
  built_on_demand<std::vector<int>> none;
  const auto none_copy = none;
  CHECK_FALSE(none_copy.wanted());
  none = copy;  // copy-assigned: the value too
  REQUIRE(none.built());
  CHECK(*none.get() == std::vector<int>{1});
  CHECK(builds == 2);
}

TEST_CASE("joinery.exec.built_on_demand.built_once_by_concurrent_askers") {
  for (int round = 0; round < 20; ++round) {
    built_on_demand<std::vector<int>> v;
    v.want();
    std::atomic<int> builds{0};
    std::atomic<bool> go{false};
    std::vector<const std::vector<int>*> seen(4, nullptr);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < seen.size(); ++t) {
      threads.emplace_back([&, t] {
        while (!go.load()) std::this_thread::yield();
        seen[t] = v.build_once([&] {
          builds.fetch_add(1);
          return std::vector<int>(1000, 7);
        });
        // Whoever returns sees the whole value, built or waited for.
        if (seen[t]->size() != 1000 || (*seen[t])[999] != 7) seen[t] = nullptr;
      });
    }
    go.store(true);
    for (auto& th : threads) th.join();
    CHECK(builds.load() == 1);
    for (const auto* s : seen) CHECK(s == v.get());
  }
}
