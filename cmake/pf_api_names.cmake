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

# pf_unmarked_decls(OUT header...) - "header: line" of every top-level function declaration that
# lacks PF_API. Hidden visibility leaves such a function out of the shared library without a word,
# so the exported-symbol test refuses them.
function(pf_unmarked_decls out)
  set(_found "")
  foreach(_h IN LISTS ARGN)
    if(_h STREQUAL "")
      continue()
    endif()
    file(STRINGS ${_h} _lines)
    foreach(_l IN LISTS _lines)
      if(_l MATCHES "^[a-z][a-z0-9_ ]*[ *]+pf_[a-z0-9_]+\\(" AND
         NOT _l MATCHES "^(static|typedef|return|struct|enum|union) ")
        get_filename_component(_n ${_h} NAME)
        list(APPEND _found "${_n}: ${_l}")
      endif()
    endforeach()
  endforeach()
  set(${out} ${_found} PARENT_SCOPE)
endfunction()
