#pragma once
// Helpers for the plan tests: a relation's rows as tuples, for exact comparisons.
#include <cstddef>
#include <vector>

#include <joinery/schema/relation.hpp>

namespace jy = joinery;

template <class T>
std::vector<typename jy::relation<T>::row_type> rows_of(const jy::relation<T>& r) {
  std::vector<typename jy::relation<T>::row_type> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(r.row(i));
  return out;
}
