# Compiles SOURCE with CXX and FLAGS (-fsyntax-only).
# EXPECT=ok:   the compile must succeed.
# EXPECT=fail: the compile must fail AND the first "error" line must match REGEX.
execute_process(COMMAND ${CXX} ${FLAGS} ${SOURCE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(EXPECT STREQUAL "ok")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "expected ${SOURCE} to compile, but it failed:\n${all}")
  endif()
  message(STATUS "compiled as expected: ${SOURCE}")
  return()
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "expected ${SOURCE} to fail to compile, but it compiled")
endif()
string(REGEX MATCH "[^\n]*error:[^\n]*" first_error "${all}")
if(NOT first_error MATCHES "${REGEX}")
  message(FATAL_ERROR "the first error does not match '${REGEX}'.\nfirst error: ${first_error}\n\nfull output:\n${all}")
endif()
message(STATUS "failed as expected; first error: ${first_error}")
