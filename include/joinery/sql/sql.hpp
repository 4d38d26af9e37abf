#pragma once
/// @file
/// SQL emission: `to_sql(plan, dialect)`, `cardinality_sql(plan)`, the rule
/// `sql_unsupported_call` (`validate_sql`), and the SQL-mapped functions
/// `jy::upper` / `jy::lower`. Reads plans, never runs them (docs/sql.md).
#include <joinery/expr/sql_functions.hpp>
#include <joinery/sql/cardinality_sql.hpp>
#include <joinery/sql/dialect.hpp>
#include <joinery/sql/to_sql.hpp>
#include <joinery/sql/unsupported_call.hpp>
