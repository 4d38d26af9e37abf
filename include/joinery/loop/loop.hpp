#pragma once
/// @file
/// The loop DSL (DESIGN.md §2.4): joins that loops already contain, recognised
/// at compile time and answered from the one kernel's index.
/// `namespace lp = jy::loop;`
#include <joinery/loop/expr.hpp>
#include <joinery/loop/explain.hpp>
#include <joinery/loop/group.hpp>
#include <joinery/loop/key.hpp>
#include <joinery/loop/lookups.hpp>
#include <joinery/loop/recognise.hpp>
#include <joinery/loop/refusal.hpp>
#include <joinery/loop/run.hpp>
