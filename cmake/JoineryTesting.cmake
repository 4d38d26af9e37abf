# Test harness shared by every module's tests.
find_package(Catch2 2 REQUIRED)
include(Catch)

add_library(joinery_catch_main OBJECT ${PROJECT_SOURCE_DIR}/tests/catch_main.cpp)
target_link_libraries(joinery_catch_main PUBLIC Catch2::Catch2 joinery_strict)

# joinery_add_tests(<suite> LABEL <label> SOURCES <files...> [LIBS ...] [NATIVE_CACHE])
# One executable per suite (`test.<suite>`); every Catch2 TEST_CASE becomes a
# CTest test with its dotted name and the given label. The kernel's choices
# that depend on the last-level cache (exec/cache_size.hpp) see 32 MiB, so
# what the tests check of them is the same on every machine; a NATIVE_CACHE
# suite sees the machine's.
function(joinery_add_tests suite)
  cmake_parse_arguments(T "NATIVE_CACHE" "LABEL" "SOURCES;LIBS" ${ARGN})
  set(target test.${suite})
  add_executable(${target} ${T_SOURCES} $<TARGET_OBJECTS:joinery_catch_main>)
  target_link_libraries(${target} PRIVATE Catch2::Catch2 joinery_strict ${T_LIBS})
  if(NOT T_NATIVE_CACHE)
    target_compile_definitions(${target} PRIVATE JOINERY_LAST_LEVEL_CACHE_BYTES=33554432)
  endif()
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
  catch_discover_tests(${target} PROPERTIES LABELS ${T_LABEL})
endfunction()

# joinery_compile_fail(<name> <source> <regex>)
# The case must FAIL to compile, and the FIRST error the compiler reports must
# match <regex> (the rule line is the first thing a user reads).
set(JOINERY_CF_FLAGS -std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic -Werror
    -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/tests/support)
function(joinery_compile_fail name source regex)
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND}
      -DCXX=${CMAKE_CXX_COMPILER}
      "-DFLAGS=${JOINERY_CF_FLAGS}"
      -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/${source}
      "-DREGEX=${regex}"
      -DEXPECT=fail
      -P ${PROJECT_SOURCE_DIR}/cmake/compile_check.cmake)
  set_tests_properties(${name} PROPERTIES LABELS compile_fail)
endfunction()

# joinery_compile_ok(<name> <source>): the harness's sanity twin, must compile.
function(joinery_compile_ok name source)
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND}
      -DCXX=${CMAKE_CXX_COMPILER}
      "-DFLAGS=${JOINERY_CF_FLAGS}"
      -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/${source}
      -DEXPECT=ok
      -P ${PROJECT_SOURCE_DIR}/cmake/compile_check.cmake)
  set_tests_properties(${name} PROPERTIES LABELS compile_fail)
endfunction()
