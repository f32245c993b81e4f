# pf_api_names(OUT header...) - names of the functions declared with PF_API in the given headers.
# Shared by the exported-symbol test (tests/check_exports.cmake) and the C++ link check
# (tests/CMakeLists.txt), so both read the API the same way.
function(pf_api_names out)
  set(_names "")
  foreach(_h IN LISTS ARGN)
    if(_h STREQUAL "")
      continue()
    endif()
    file(READ ${_h} _text)
    string(REGEX MATCHALL "PF_API[^;(]*[ *](pf_[a-z0-9_]+)\\(" _decls "${_text}")
    foreach(_d IN LISTS _decls)
      string(REGEX MATCH "(pf_[a-z0-9_]+)\\($" _ "${_d}")
      list(APPEND _names ${CMAKE_MATCH_1})
    endforeach()
  endforeach()
  set(${out} ${_names} PARENT_SCOPE)
endfunction()
