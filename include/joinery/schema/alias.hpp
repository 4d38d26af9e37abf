#pragma once
/// @file
/// `alias<T, "name">`: the same table under another name, for self-joins. It
/// reads the relation of its base table, so `run(p, rel)` binds both.
#include <joinery/core/fixed_string.hpp>
#include <joinery/schema/table.hpp>

namespace joinery {

template <table_type T, fixed_string Name>
struct alias : T {
  static constexpr auto name = Name;  // hides the base table's name
  using base_table = base_table_t<T>;
};

}  // namespace joinery
