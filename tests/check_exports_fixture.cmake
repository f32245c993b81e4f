# check_exports_fixture.cmake - the export check can fail. Run on the real shared library with the
# public headers plus a deliberately broken header (tests/data/exports/pf_broken.h: an unmatched
# bracket in a comment, unmarked declarations after it, a declaration split over lines, things that
# look like declarations and are not), check_exports.cmake must fail and name every planted fault,
# and nothing that is not a function declaration. A check that cannot fail is a defect (issue 24,
# defect 11: the old check stopped reading pf_pdb.h at "[0, size)" and passed with 13 functions
# missing from the library).
#
#   cmake -DCHECK=check_exports.cmake -DLIB=libpathfind.so -DNM=nm -DHEADERS="a.h;b.h"
#         -DFIXTURE=pf_broken.h -P check_exports_fixture.cmake
foreach(_v CHECK LIB NM HEADERS FIXTURE)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "check_exports_fixture.cmake: -D${_v}=... is required")
  endif()
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} -DLIB=${LIB} -DNM=${NM} "-DHEADERS=${HEADERS};${FIXTURE}"
                        -P ${CHECK}
                OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
string(APPEND _out "${_err}")
get_filename_component(_fx ${FIXTURE} NAME)
set(_fail "")
if(_rc EQUAL 0)
  string(APPEND _fail "the check PASSED on the broken fixture header\n")
endif()
# every function the fixture declares, each a fault: declared without PF_API (and so hidden), or
# declared with it and absent from the library
foreach(_name pf_fixture_marked_missing pf_fixture_unmarked pf_fixture_split pf_fixture_last)
  if(NOT _out MATCHES "${_fx}:[0-9]+: [^\n]*${_name}[^a-z0-9_]")
    string(APPEND _fail "the check did not name ${_name} (with ${_fx}:LINE)\n")
  endif()
endforeach()
# the unmarked ones after the bracket are reported as unmarked, not only as missing
foreach(_name pf_fixture_unmarked pf_fixture_last)
  if(NOT _out MATCHES "without PF_API[^\n]*\n([^\n]*\n)*[^\n]*${_fx}:[0-9]+: [^\n]*${_name}[^a-z0-9_]")
    string(APPEND _fail "the check did not report ${_name} as declared without PF_API\n")
  endif()
endforeach()
# things that are not function declarations: a macro and its continuation line, a function type, a
# struct member, a static inline definition, a declaration inside a comment
foreach(_name pf_fixture_not_a_function pf_fixture_continued pf_fixture_fn pf_fixture_inline
              pf_fixture_in_comment)
  if(_out MATCHES "[^a-z0-9_]${_name}[^a-z0-9_]")
    string(APPEND _fail "the check named ${_name}, which is not a declared function\n")
  endif()
endforeach()
if(_fail)
  message(FATAL_ERROR "${_fail}--- output of the check (exit ${_rc}):\n${_out}")
endif()
message(STATUS "the export check fails on ${_fx} and names its four faults (exit ${_rc})")
