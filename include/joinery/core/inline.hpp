#pragma once
/// @file
/// `JOINERY_DETAIL_ALWAYS_INLINE`: the one spelling of "inline this" for the
/// kernel's hot paths (probe loops, the emit callbacks, a view's `++`),
/// where a call would keep a loop's values in memory. Usable on lambdas,
/// after the parameter list. `JOINERY_DETAIL_NOINLINE`: its opposite, for
/// a loop that must keep its own function so that the compiler's inlining
/// budget of the caller goes to another one. No effect on results.
#if defined(__GNUC__) || defined(__clang__)
#define JOINERY_DETAIL_ALWAYS_INLINE __attribute__((always_inline))
#define JOINERY_DETAIL_NOINLINE __attribute__((noinline))
#else
#define JOINERY_DETAIL_ALWAYS_INLINE
#define JOINERY_DETAIL_NOINLINE
#endif
