#pragma once
/// @file
/// Plan expressions: column references, literals, operators, calls, names.
#include <joinery/expr/analysis.hpp>
#include <joinery/expr/as.hpp>
#include <joinery/expr/call.hpp>
#include <joinery/expr/column_ref.hpp>
#include <joinery/expr/count.hpp>
#include <joinery/expr/eval.hpp>
#include <joinery/expr/expression.hpp>
#include <joinery/expr/operators.hpp>
