# Warnings-as-errors and sanitizers for the project's own targets only; never
# pushed onto users through the INTERFACE target.
add_library(joinery_strict INTERFACE)
target_compile_options(joinery_strict INTERFACE -Wall -Wextra -Wpedantic -Werror)
target_link_libraries(joinery_strict INTERFACE joinery::joinery)
if(JOINERY_SANITIZE)
  target_compile_options(joinery_strict INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(joinery_strict INTERFACE -fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

# joinery_add_program(<target> <source> [LIBS ...]): a strict executable.
function(joinery_add_program target source)
  cmake_parse_arguments(P "" "" "LIBS" ${ARGN})
  add_executable(${target} ${source})
  target_link_libraries(${target} PRIVATE joinery_strict ${P_LIBS})
endfunction()
