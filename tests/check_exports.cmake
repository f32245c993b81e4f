# check_exports.cmake - the shared library exports every function the public headers declare,
# and nothing else.
#
#   cmake -DLIB=libpathfind.so -DNM=nm -DHEADERS="a.h;b.h" -P check_exports.cmake
#
# The headers are read whole by pf_api_scan (cmake/pf_api_names.cmake), which finds every function
# declaration, with PF_API or without. Fails when a dynamic symbol is not pf_-prefixed or is
# internal (pf__), when a declared function has no exported definition (a consumer of the shared
# library could not link it), when an exported pf_ function is declared with PF_API in no public
# header (a PF_API on a definition only, say), and when a public header declares a function without
# PF_API (hidden: missing from the library). tests/check_exports_fixture.cmake shows that it fails.
cmake_minimum_required(VERSION 3.25) # policies of a -P script: if(IN_LIST), list() with empty elements
foreach(_v LIB NM HEADERS)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "check_exports.cmake: -D${_v}=... is required")
  endif()
endforeach()

execute_process(COMMAND ${NM} -D --defined-only ${LIB}
                OUTPUT_VARIABLE _nm RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D ${LIB} failed (${_rc}): ${_err}")
endif()
string(REPLACE "\n" ";" _lines "${_nm}")
set(_exported "")
set(_bad "")
foreach(_l IN LISTS _lines)
  # "ADDRESS TYPE NAME[@VERSION]" (defined symbols only)
  if(_l MATCHES "^[0-9a-fA-F]+ ([A-Za-z]) ([^@ ]+)")
    set(_name ${CMAKE_MATCH_2})
    if(_name MATCHES "^\\.gomp_critical_user_")
      # clang's OpenMP lock for a critical section or reduction: one per program by design (every
      # critical section of a name shares it), and a name no C code can spell
      continue()
    endif()
    if(_name MATCHES "^pf__" OR NOT _name MATCHES "^pf_")
      list(APPEND _bad ${_name})
    else()
      list(APPEND _exported ${_name})
    endif()
  endif()
endforeach()

include(${CMAKE_CURRENT_LIST_DIR}/../cmake/pf_api_names.cmake)
pf_api_scan(_api ${HEADERS})
list(LENGTH HEADERS _n_headers)
list(LENGTH _api_ALL _n_declared)
list(LENGTH _api_MARKED _n_marked)
list(LENGTH _exported _n_exported)
set(_fail "")
if(_bad)
  string(APPEND _fail "exported symbols outside the API: ${_bad}\n")
endif()
# every declaration, marked or not, must reach the library
set(_missing "")
foreach(_w IN LISTS _api_WHERE)
  string(REGEX REPLACE "^.*: " "" _name "${_w}")
  if(NOT _name IN_LIST _exported)
    list(APPEND _missing "${_w}")
  endif()
endforeach()
if(_missing)
  list(JOIN _missing "\n  " _m)
  string(APPEND _fail "declared in a public header, not exported by the library:\n  ${_m}\n")
endif()
set(_undeclared ${_exported})
if(_api_MARKED)
  list(REMOVE_ITEM _undeclared ${_api_MARKED})
endif()
if(_undeclared)
  string(APPEND _fail "exported, but declared with PF_API in no public header: ${_undeclared}\n")
endif()
if(_n_declared EQUAL 0)
  string(APPEND _fail "no function declaration found in ${HEADERS}\n")
endif()
if(_api_UNMARKED)
  list(JOIN _api_UNMARKED "\n  " _u)
  string(APPEND _fail "public declarations without PF_API (hidden, so not exported):\n  ${_u}\n")
endif()
if(_fail)
  message(FATAL_ERROR "${LIB}: ${_n_declared} functions declared in ${_n_headers} headers "
                      "(${_n_marked} with PF_API), ${_n_exported} exported\n${_fail}")
endif()
message(STATUS "${LIB}: ${_n_declared} functions declared in ${_n_headers} public headers, all with "
               "PF_API; ${_n_exported} exported symbols, each one of them, none internal")
