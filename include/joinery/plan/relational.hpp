#pragma once
/// @file
/// Relational plans: nodes, composition, and the entry points `run` and
/// `materialize` (DESIGN.md §2.2).
#include <joinery/expr/expr.hpp>
#include <joinery/plan/compose.hpp>
#include <joinery/plan/expect.hpp>
#include <joinery/plan/group_by.hpp>
#include <joinery/plan/join.hpp>
#include <joinery/plan/plan.hpp>
#include <joinery/plan/result.hpp>
#include <joinery/plan/cardinality.hpp>
#include <joinery/plan/run.hpp>
#include <joinery/plan/select.hpp>
#include <joinery/plan/where.hpp>
