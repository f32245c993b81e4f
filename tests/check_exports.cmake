# check_exports.cmake - the shared library exports exactly the functions its headers mark PF_API.
#
#   cmake -DLIB=libpathfind.so -DNM=nm -DHEADERS="a.h;b.h" -P check_exports.cmake
#
# Fails when a dynamic symbol is not pf_-prefixed or is internal (pf__), when a PF_API declaration
# has no exported definition (a consumer of the shared library could not link it), when an
# exported pf_ function is declared nowhere with PF_API (a PF_API on a definition only, say), and
# when a public header declares a function without PF_API (hidden: missing from the library).
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
pf_api_names(_declared ${HEADERS})
pf_unmarked_decls(_unmarked ${HEADERS})

list(LENGTH _exported _n_exported)
list(LENGTH _declared _n_declared)
set(_missing ${_declared})
list(REMOVE_ITEM _missing ${_exported})
set(_undeclared ${_exported})
list(REMOVE_ITEM _undeclared ${_declared})
set(_fail "")
if(_bad)
  string(APPEND _fail "exported symbols outside the API: ${_bad}\n")
endif()
if(_missing)
  string(APPEND _fail "PF_API declarations not exported: ${_missing}\n")
endif()
if(_undeclared)
  string(APPEND _fail "exported, but declared without PF_API in no public header: ${_undeclared}\n")
endif()
if(_unmarked)
  list(JOIN _unmarked "\n  " _u)
  string(APPEND _fail "public declarations without PF_API (hidden, so not exported):\n  ${_u}\n")
endif()
if(_n_declared EQUAL 0)
  string(APPEND _fail "no PF_API declaration found in ${HEADERS}\n")
endif()
if(_fail)
  message(FATAL_ERROR "${LIB}:\n${_fail}")
endif()
message(STATUS "${LIB}: ${_n_exported} exported symbols, all declared PF_API, none internal")
