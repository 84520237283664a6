# SPDX-License-Identifier: MIT
# Writes a gzip-compressed man page for a program from its --help and --version with help2man.
# For sutra-cli it adds a COMMANDS section with each subcommand's own --help, found in the
# "Commands:" list of the top-level help, so the page never drifts from the binary.
# cmake -DPROGRAM=... -DHELP2MAN=... -DGZIP=... -DNAME="one line" -DOUTPUT=x.1.gz
#       [-DSUBCOMMANDS=ON] [-DSEE_ALSO=other-program] [-DEXTRA_ENV=VAR=value] -P man_page.cmake
foreach(var PROGRAM HELP2MAN GZIP NAME OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man_page.cmake: ${var} is not set")
  endif()
endforeach()

# The program runs by its name from PATH, as a user runs it, so its usage line names no build path.
get_filename_component(program_dir "${PROGRAM}" DIRECTORY)
get_filename_component(program_name "${PROGRAM}" NAME)
set(env_prefix ${CMAKE_COMMAND} -E env "PATH=${program_dir}:$ENV{PATH}" ${EXTRA_ENV})

# Text for roff's no-fill mode: escape backslashes and protect lines that start with a control
# character.
function(roff_verbatim text out_var)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

get_filename_component(out_dir "${OUTPUT}" DIRECTORY)
set(include_file "${out_dir}/${program_name}.h2m")
set(include_text "")
if(SUBCOMMANDS)
  execute_process(COMMAND ${env_prefix} "${program_name}" --help
                  OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} --help exited with ${rc}")
  endif()
  # The lines after "Commands:" up to the first empty line: "  name   summary".
  string(REGEX MATCH "Commands:\n([^\n]+\n)+" block "${help}")
  string(REGEX MATCHALL "\n  [a-z][a-z0-9-]*" names "${block}")
  if(names STREQUAL "")
    message(FATAL_ERROR "${PROGRAM} --help lists no commands under 'Commands:'")
  endif()
  string(APPEND include_text "[COMMANDS]\n")
  foreach(name IN LISTS names)
    string(STRIP "${name}" name)
    execute_process(COMMAND ${env_prefix} "${program_name}" ${name} --help
                    OUTPUT_VARIABLE command_help RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${PROGRAM} ${name} --help exited with ${rc}")
    endif()
    roff_verbatim("${command_help}" command_help)
    string(APPEND include_text ".SS ${name}\n.nf\n${command_help}.fi\n")
  endforeach()
endif()
if(SEE_ALSO)
  string(REPLACE "-" "\\-" see_also "${SEE_ALSO}")
  string(APPEND include_text "[SEE ALSO]\n.BR ${see_also} (1)\n")
endif()
file(WRITE "${include_file}" "${include_text}")

string(REGEX REPLACE "\\.gz$" "" page "${OUTPUT}")
execute_process(COMMAND ${env_prefix} "${HELP2MAN}" --no-info --section=1 "--name=${NAME}"
                        "--include=${include_file}" "--output=${page}" "${program_name}"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed for ${PROGRAM} (${rc}): ${err}")
endif()
# -n: no name or time stamp in the header, so the same page gives the same bytes.
execute_process(COMMAND "${GZIP}" -9nf "${page}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip failed for ${page}")
endif()
