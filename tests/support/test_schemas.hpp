#pragma once
// The schemas of DESIGN.md §2.1, shared by the tests.
#include <cstdint>
#include <optional>
#include <string>
#include <joinery/schema/alias.hpp>
#include <joinery/schema/relation.hpp>
#include <joinery/schema/table.hpp>

namespace jy = joinery;

struct orders : jy::table<"orders",
                          jy::column<"order_id", std::int64_t>,
                          jy::column<"customer_id", std::optional<std::int64_t>>,
                          jy::column<"amount", double>> {};
struct customers : jy::table<"customers",
                             jy::column<"customer_id", std::int64_t>,
                             jy::column<"country", std::string>> {};
