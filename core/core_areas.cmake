# SPDX-License-Identifier: MIT
# Core's areas as libraries of their own, and the rule that keeps them in layers: an area links
# only the areas it declares, and the declared areas must not depend on each other in a cycle.
# CMake links cyclic static libraries without a word, so the cycle is refused here, at configure;
# scripts/check_core_includes.py holds each area's #include lines to the same declarations.

# sutra_core_area(<name> [DEPENDS <area>...] [PUBLIC <lib>...] [PRIVATE <lib>...])
# Makes the static library sutra_<name> for the folder <name>/ beside the caller (its
# CMakeLists.txt adds the sources with target_sources), linking the areas it depends on publicly:
# their headers are part of its own.
function(sutra_core_area name)
  cmake_parse_arguments(PARSE_ARGV 1 AREA "" "" "DEPENDS;PUBLIC;PRIVATE")
  if(AREA_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "sutra_core_area(${name}): unknown arguments ${AREA_UNPARSED_ARGUMENTS}")
  endif()
  get_property(declared GLOBAL PROPERTY SUTRA_CORE_AREAS)
  if(name IN_LIST declared)
    message(FATAL_ERROR "sutra_core_area(${name}): the area is declared twice")
  endif()
  if(NOT declared)
    # Checked once every area is declared, so that an area may name one declared after it and a
    # cycle is reported as a cycle.
    cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL sutra_check_core_areas)
  endif()
  set_property(GLOBAL APPEND PROPERTY SUTRA_CORE_AREAS ${name})
  set_property(GLOBAL PROPERTY SUTRA_CORE_AREA_DEPENDS_${name} ${AREA_DEPENDS})
  set_property(GLOBAL PROPERTY SUTRA_CORE_AREA_DIR_${name} ${CMAKE_CURRENT_SOURCE_DIR}/${name})

  add_library(sutra_${name} STATIC)
  target_include_directories(sutra_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  list(TRANSFORM AREA_DEPENDS PREPEND sutra_ OUTPUT_VARIABLE area_libraries)
  target_link_libraries(sutra_${name} PUBLIC ${area_libraries} ${AREA_PUBLIC}
                                      PRIVATE ${AREA_PRIVATE})
  if(TARGET sutra_warnings)
    target_link_libraries(sutra_${name} PRIVATE sutra_warnings)
  endif()
  set_target_properties(sutra_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

# Visits the areas `area` depends on, depth first; `path` is the chain of areas that led to it,
# itself included. Areas whose dependencies are all visited are kept in SUTRA_CORE_AREAS_CHECKED.
function(_sutra_visit_core_area area path)
  get_property(depends GLOBAL PROPERTY SUTRA_CORE_AREA_DEPENDS_${area})
  get_property(declared GLOBAL PROPERTY SUTRA_CORE_AREAS)
  foreach(dependency IN LISTS depends)
    if(NOT dependency IN_LIST declared)
      message(FATAL_ERROR
        "core area ${area} depends on ${dependency}, which is not a declared area "
        "(declared: ${declared})")
    endif()
    list(FIND path ${dependency} at)
    if(NOT at EQUAL -1)
      list(SUBLIST path ${at} -1 cycle)
      list(APPEND cycle ${dependency})
      list(JOIN cycle " -> " cycle)
      message(FATAL_ERROR
        "core areas depend on each other in a cycle: ${cycle} (each depends on the next). "
        "Move what they share into an area below them.")
    endif()
    get_property(checked GLOBAL PROPERTY SUTRA_CORE_AREAS_CHECKED)
    if(NOT dependency IN_LIST checked)
      _sutra_visit_core_area(${dependency} "${path};${dependency}")
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY SUTRA_CORE_AREAS_CHECKED ${area})
endfunction()

# Fails configure on a cycle among the declared areas, naming it; then writes the declarations,
# one area a line (its name, its folder and the areas it depends on, separated by tabs), to
# core_areas.txt in the build tree for
# scripts/check_core_includes.py.
function(sutra_check_core_areas)
  get_property(declared GLOBAL PROPERTY SUTRA_CORE_AREAS)
  set(listing "")
  foreach(area IN LISTS declared)
    get_property(checked GLOBAL PROPERTY SUTRA_CORE_AREAS_CHECKED)
    if(NOT area IN_LIST checked)
      _sutra_visit_core_area(${area} ${area})
    endif()
    get_property(depends GLOBAL PROPERTY SUTRA_CORE_AREA_DEPENDS_${area})
    get_property(dir GLOBAL PROPERTY SUTRA_CORE_AREA_DIR_${area})
    list(JOIN depends " " depends)
    string(APPEND listing "${area}\t${dir}\t${depends}\n")
  endforeach()
  file(WRITE ${CMAKE_BINARY_DIR}/core_areas.txt "${listing}")
endfunction()
