# Writes provenance.hpp at build time (not only at configure time), so the git revision a binary
# reports is the one it was built from even when no one re-ran cmake after a commit. The header
# is replaced only when its content changes: an unchanged tree recompiles nothing.
# Variables: SOURCE_DIR IN OUT PROJECT_VERSION CMAKE_CXX_COMPILER_ID CMAKE_CXX_COMPILER_VERSION
#            _flags CMAKE_BUILD_TYPE _native benchmark_VERSION
set(RIDGELINE_GIT_REVISION "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE _rev
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND _rev)
    set(RIDGELINE_GIT_REVISION "${_rev}")
  endif()
endif()
configure_file(${IN} ${OUT}.new @ONLY)
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.new ${OUT})
file(REMOVE ${OUT}.new)
