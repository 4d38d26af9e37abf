#pragma once
/// @file
/// `loop::refusal`: why a lookup site of the loop DSL was not recognised as a
/// join (reference/003 "Refusal"). A refused site still runs, as the nested
/// loop it is, with the same results.
#include <string_view>

namespace joinery::loop {

/// The reason a lookup site is not answered from an index. `none` means every
/// lookup site of the query was recognised.
enum class refusal {
  none,                      ///< recognised: every lookup site is a join
  no_lookup,                 ///< no map_get / map_contains / filter_list inside a loop
  key_reads_no_element,      ///< the probe key reads no loop element (only literals)
  key_reads_collection,      ///< the probe key (or the predicate) reads a captured collection
  collection_reads_element,  ///< the looked-up collection depends on a loop element
  predicate_not_equality,    ///< the filter predicate is not one `==`
  collection_not_captured,   ///< the collection is an expression, not a captured container
  key_reads_filtered_row,    ///< the probe side of the `==` reads the filtered element
  index_key_reads_no_row,    ///< neither side of the `==` reads only the filtered element
  key_mixes_rows,            ///< one side of the `==` reads both the filtered and the loop element
};

/// The enumerator's name, e.g. `"key_reads_collection"`.
constexpr std::string_view to_string(refusal r) noexcept {
  switch (r) {
    case refusal::none: return "none";
    case refusal::no_lookup: return "no_lookup";
    case refusal::key_reads_no_element: return "key_reads_no_element";
    case refusal::key_reads_collection: return "key_reads_collection";
    case refusal::collection_reads_element: return "collection_reads_element";
    case refusal::predicate_not_equality: return "predicate_not_equality";
    case refusal::collection_not_captured: return "collection_not_captured";
    case refusal::key_reads_filtered_row: return "key_reads_filtered_row";
    case refusal::index_key_reads_no_row: return "index_key_reads_no_row";
    case refusal::key_mixes_rows: return "key_mixes_rows";
  }
  return "unknown";
}

/// One sentence saying what the refusal means and what to write instead.
constexpr std::string_view describe(refusal r) noexcept {
  switch (r) {
    case refusal::none: return "recognised";
    case refusal::no_lookup: return "the loop body looks nothing up in another collection";
    case refusal::key_reads_no_element:
      return "the key reads no loop element, so it is a constant filter rather than a join";
    case refusal::key_reads_collection:
      return "the key reads a captured collection, so it is not a function of the element alone";
    case refusal::collection_reads_element:
      return "the collection looked up in depends on the loop element, so no index can be built once";
    case refusal::predicate_not_equality:
      return "the filter predicate is not a single `==` between a key of the filtered element and a key of the loop element";
    case refusal::collection_not_captured:
      return "the collection is computed by an expression; capture a container instead";
    case refusal::key_reads_filtered_row:
      return "both sides of the `==` read the filtered element, so no side is a probe key";
    case refusal::index_key_reads_no_row:
      return "no side of the `==` reads only the filtered element, so there is nothing to index the collection by";
    case refusal::key_mixes_rows:
      return "one side of the `==` reads both the filtered element and the loop element";
  }
  return "unknown";
}

}  // namespace joinery::loop
