#pragma once
/// @file
/// `validate(x)`: the constexpr findings list of any plan or aggregate-IR
/// node. Each front door's rules live in `check/<front door>_*.hpp`, each a
/// constrained `validate` overload; this header gathers them.
#include <joinery/check/aggregate_validate.hpp>
#include <joinery/check/plan_validate.hpp>
