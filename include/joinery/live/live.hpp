#pragma once
/// @file
/// Materialized plans: `materialized`, its `cardinality_report`.
#include <joinery/live/materialized.hpp>
#include <joinery/live/report.hpp>
