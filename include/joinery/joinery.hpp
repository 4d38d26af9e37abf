#pragma once
/// @file
/// The umbrella header: everything a user of joinery needs.
#include <joinery/core/fixed_string.hpp>
#include <joinery/core/key.hpp>
#include <joinery/core/rule.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/exec/arrangement.hpp>
#include <joinery/exec/equi_join.hpp>
#include <joinery/expr/column_ref.hpp>
#include <joinery/schema/alias.hpp>
#include <joinery/schema/column.hpp>
#include <joinery/schema/relation.hpp>
#include <joinery/schema/table.hpp>
