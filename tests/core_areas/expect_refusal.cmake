# SPDX-License-Identifier: MIT
# cmake -DEXPECTED=<regex> -P expect_refusal.cmake -- <command> [args...]
# Passes where the command fails and what it prints matches EXPECTED: a check that refuses what it
# should, for the reason it should (a check that stops refusing, or fails for another reason,
# fails the test).
set(command "")
set(after_separator OFF)
foreach(i RANGE 1 ${CMAKE_ARGC})
  if(after_separator AND DEFINED CMAKE_ARGV${i})
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(after_separator ON)
  endif()
endforeach()
if(NOT command OR NOT DEFINED EXPECTED)
  message(FATAL_ERROR "usage: cmake -DEXPECTED=<regex> -P expect_refusal.cmake -- <command>...")
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(result EQUAL 0)
  message(FATAL_ERROR "the check passed; it should have refused: ${command}")
endif()
string(REGEX REPLACE "[ \t\r\n]+" " " flat "${out}")
if(NOT flat MATCHES "${EXPECTED}")
  message(FATAL_ERROR "the check failed (${result}) without saying \"${EXPECTED}\"")
endif()
message("refused as expected (exit ${result})")
