# check_port.cmake - every compiler-specific construct of the library lives in
# core/internal/port_internal.h: a port to another compiler then touches that file alone. Fails
# when a source of core/ or batch/ names a builtin, an attribute, a compiler's predefined macro or
# GCC's atomics anywhere else. pf_export.h, the public export macro, is the one exception: public
# headers cannot include internal ones.
#
#   cmake -DROOT=<source dir> -P check_port.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED ROOT)
  message(FATAL_ERROR "check_port.cmake: -DROOT=... is required")
endif()
file(GLOB_RECURSE _files ${ROOT}/core/*.c ${ROOT}/core/*.h ${ROOT}/batch/*.c ${ROOT}/batch/*.h)
list(FILTER _files EXCLUDE REGEX "/port_internal\\.h$|/pf_export\\.h$")
set(_bad "")
foreach(_f IN LISTS _files)
  file(STRINGS ${_f} _lines REGEX "(^|[^A-Za-z0-9_])(__builtin_|__attribute__|__declspec|__atomic_|__GNUC__|__clang__|_MSC_VER|__forceinline|__restrict|__has_builtin)")
  foreach(_l IN LISTS _lines)
    file(RELATIVE_PATH _r ${ROOT} ${_f})
    string(APPEND _bad "  ${_r}: ${_l}\n")
  endforeach()
endforeach()
list(LENGTH _files _n)
if(_n LESS 50)
  message(FATAL_ERROR "check_port.cmake: found only ${_n} sources under ${ROOT}: wrong ROOT?")
endif()
if(_bad)
  message(FATAL_ERROR "compiler-specific code outside core/internal/port_internal.h:\n${_bad}")
endif()
message(STATUS "check_port: ${_n} sources of core/ and batch/ use port_internal.h for every compiler-specific construct")
