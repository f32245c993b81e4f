# pf_api_scan(PREFIX header...) - every function declared at file scope in the given headers.
# Shared by the exported-symbol test (tests/check_exports.cmake) and the C++ link check
# (tests/CMakeLists.txt), so both read the API the same way. Sets, in the caller's scope:
#   PREFIX_ALL       names of every declared function, PF_API or not (sorted, no duplicates)
#   PREFIX_MARKED    those declared with PF_API
#   PREFIX_UNMARKED  "header:line: name" of each declaration without PF_API
#   PREFIX_WHERE     "header:line: name" of every declaration
#
# A header is read whole and never handed to CMake's list splitting as it stands: a list element
# ends at ';' unless a '[' before it is still open, so a header split into lines stopped at the
# first unmatched bracket of a comment ("ranks in [0, size)" in pf_pdb.h) and every declaration
# below it went unread (issue 24, defect 11). The characters lists treat specially (';', '\', '['
# and ']') are replaced first, then the text is split into lines and read as C: comments, string
# and character literals and preprocessor lines (with their continuations) are dropped, and what
# is left is cut into file-scope statements at ';', '{' and '}'. A statement is a function
# declaration when its declarator is `name(`: typedefs, struct members and bodies, function
# pointer objects, macros and `static` (inline, header-only) definitions are not. Both sides of an
# #if are read: a public header declares nothing it does not mean to export.
function(pf_api_scan prefix)
  set(_all "")
  set(_marked "")
  set(_unmarked "")
  set(_where "")
  foreach(_h IN LISTS ARGN)
    if(_h STREQUAL "")
      continue()
    endif()
    get_filename_component(_hn ${_h} NAME)
    file(READ ${_h} _text)
    string(REPLACE "\r" "" _text "${_text}")
    # Backquote is our escape character from here on: one that C code never uses. Those in
    # comments (`name`) become spaces; they are not code.
    string(REPLACE "`" " " _text "${_text}")
    string(REPLACE "\\\n" "`c\n" _text "${_text}")        # line continuation (kept: line numbers)
    string(REGEX REPLACE "\\\\." "`e" _text "${_text}")   # escapes (\" inside a literal, \\)
    string(REPLACE ";" "`s" _text "${_text}")
    string(REPLACE "[" "<" _text "${_text}")  # <4> is as good as [4] for finding names, and
    string(REPLACE "]" ">" _text "${_text}")  # never opens a list group
    string(REPLACE "\n" "\n;" _lines "${_text}")

    set(_lineno 0)
    set(_in_comment 0)
    set(_in_directive 0) # a continuation line of a preprocessor directive
    set(_depth 0)        # braces open at file scope (extern "C" does not count)
    set(_fn_body 0)      # the open brace at depth 1 is a function body
    set(_stmt "")        # the file-scope statement read so far
    set(_stmt_line 0)
    foreach(_line IN LISTS _lines)
      math(EXPR _lineno "${_lineno} + 1")
      string(REPLACE "\n" "" _line "${_line}")
      # 1. the code of this line: comments and literals out
      set(_starts_in_comment ${_in_comment})
      set(_code "")
      set(_rest "${_line}")
      while(NOT _rest STREQUAL "")
        if(_in_comment)
          string(FIND "${_rest}" "*/" _e)
          if(_e EQUAL -1)
            set(_rest "")
          else()
            math(EXPR _e "${_e} + 2")
            string(SUBSTRING "${_rest}" ${_e} -1 _rest)
            set(_in_comment 0)
            string(APPEND _code " ")
          endif()
          continue()
        endif()
        # the first of /* // " ' (a simple character-class match: no recursion in the regex engine)
        set(_pre "")
        if(_rest MATCHES "^([^/\"']*(/[^/*\"'][^/\"']*)*)") # if(): an empty match is no error
          set(_pre "${CMAKE_MATCH_1}")
        endif()
        string(LENGTH "${_pre}" _n)
        string(APPEND _code "${_pre}")
        string(SUBSTRING "${_rest}" ${_n} -1 _rest)
        if(_rest MATCHES "^/\\*")
          string(SUBSTRING "${_rest}" 2 -1 _rest)
          set(_in_comment 1)
        elseif(_rest MATCHES "^//" OR _rest STREQUAL "/")
          set(_rest "")
        elseif(_rest MATCHES "^([\"'])")
          set(_q "${CMAKE_MATCH_1}")
          string(SUBSTRING "${_rest}" 1 -1 _rest)
          string(FIND "${_rest}" "${_q}" _e)
          if(_e EQUAL -1)
            set(_rest "") # unterminated: C allows none; the line ends it
          else()
            math(EXPR _e "${_e} + 1")
            string(SUBSTRING "${_rest}" ${_e} -1 _rest)
          endif()
          string(APPEND _code " ${_q}${_q} ") # extern "C" stays recognisable as extern ""
        elseif(NOT _rest STREQUAL "")
          string(SUBSTRING "${_rest}" 0 1 _c) # a / before a quote: code
          string(APPEND _code "${_c}")
          string(SUBSTRING "${_rest}" 1 -1 _rest)
        endif()
      endwhile()
      # 2. preprocessor lines (and their continuations) are not declarations
      if(_in_directive OR (NOT _starts_in_comment AND _code MATCHES "^[ \t]*#"))
        if(_code MATCHES "`c[ \t]*$")
          set(_in_directive 1)
        else()
          set(_in_directive 0)
        endif()
        continue()
      endif()
      # 3. file-scope statements: cut at ; { }
      while(NOT _code STREQUAL "")
        set(_pre "")
        if(_code MATCHES "^([^{}`]*)")
          set(_pre "${CMAKE_MATCH_1}")
        endif()
        string(LENGTH "${_pre}" _n)
        string(SUBSTRING "${_code}" ${_n} -1 _code)
        if(_depth EQUAL 0)
          if(_stmt MATCHES "^[ \t]*$" AND NOT _pre MATCHES "^[ \t]*$")
            set(_stmt_line ${_lineno})
          endif()
          string(APPEND _stmt " ${_pre}")
        endif()
        if(_code STREQUAL "")
          break()
        endif()
        string(SUBSTRING "${_code}" 0 1 _c)
        if(_c STREQUAL "`")
          string(SUBSTRING "${_code}" 0 2 _c)
          string(SUBSTRING "${_code}" 2 -1 _code)
        else()
          string(SUBSTRING "${_code}" 1 -1 _code)
        endif()
        if(_c STREQUAL "`s")
          if(_depth EQUAL 0)
            _pf_api_statement("${_stmt}" "${_hn}:${_stmt_line}")
            set(_stmt "")
          endif()
        elseif(_c STREQUAL "{")
          if(_depth EQUAL 0 AND _stmt MATCHES "^[ \t]*extern[ \t]*\"\"[ \t]*$")
            set(_stmt "") # extern "C" { ... }: its contents are at file scope
          else()
            if(_depth EQUAL 0)
              set(_fn_body 0)
              if(_stmt MATCHES "\\)[ \t]*$")
                set(_fn_body 1) # a function definition: static inline, or a fault if not
                _pf_api_statement("${_stmt}" "${_hn}:${_stmt_line}")
              endif()
            endif()
            math(EXPR _depth "${_depth} + 1")
          endif()
        elseif(_c STREQUAL "}")
          if(_depth GREATER 0)
            math(EXPR _depth "${_depth} - 1")
            if(_depth EQUAL 0)
              if(_fn_body)
                set(_stmt "")
              else()
                string(APPEND _stmt " {} ") # typedef struct x { ... } x; goes on to its ;
              endif()
            endif()
          else()
            set(_stmt "") # the } of extern "C"
          endif()
        endif()
      endwhile()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES _all)
  list(SORT _all)
  list(REMOVE_DUPLICATES _marked)
  list(SORT _marked)
  set(${prefix}_ALL ${_all} PARENT_SCOPE)
  set(${prefix}_MARKED ${_marked} PARENT_SCOPE)
  set(${prefix}_UNMARKED ${_unmarked} PARENT_SCOPE)
  set(${prefix}_WHERE ${_where} PARENT_SCOPE)
endfunction()

# One file-scope statement: the function it declares or defines, if any, appended to the lists of
# pf_api_scan (_all, _where, _marked, _unmarked) in the caller's scope.
function(_pf_api_statement _s _at)
  string(REGEX REPLACE "[ \t]+" " " _st "${_s}")
  string(STRIP "${_st}" _st)
  # attributes and other all-capitals macros with arguments (PF_DEPRECATED("...")) say nothing
  # about the name; __attribute__((...)) nests one level
  string(REGEX REPLACE "__attribute__ ?\\(\\(([^()]|\\([^()]*\\))*\\)\\)" " " _st "${_st}")
  string(REGEX REPLACE "(^|[^A-Za-z0-9_])[A-Z_][A-Z0-9_]* ?\\([^()]*\\)" "\\1 " _st "${_st}")
  if(_st MATCHES "^(typedef|static|_Static_assert|static_assert)([^A-Za-z0-9_]|$)")
    return()
  endif()
  if(NOT _st MATCHES "([A-Za-z_][A-Za-z0-9_]*) ?\\( ?([^ ])")
    return() # an object, or nothing
  endif()
  set(_fname "${CMAKE_MATCH_1}")
  if(CMAKE_MATCH_2 STREQUAL "*")
    # `void (*pf_hook)(int)` declares a pointer object; `int (*pf_get(void))(int)` a function
    # that returns a function pointer
    if(NOT _st MATCHES "^[^(]*\\( ?\\* ?([A-Za-z_][A-Za-z0-9_]*) ?\\(")
      return()
    endif()
    set(_fname "${CMAKE_MATCH_1}")
  endif()
  list(APPEND _all ${_fname})
  list(APPEND _where "${_at}: ${_fname}")
  if(_st MATCHES "(^|[^A-Za-z0-9_])PF_API([^A-Za-z0-9_]|$)")
    list(APPEND _marked ${_fname})
  else()
    list(APPEND _unmarked "${_at}: ${_fname}")
  endif()
  foreach(_v _all _where _marked _unmarked)
    set(${_v} "${${_v}}" PARENT_SCOPE)
  endforeach()
endfunction()

# pf_api_names(OUT header...) - names of the functions declared with PF_API in the given headers.
function(pf_api_names out)
  pf_api_scan(_s ${ARGN})
  set(${out} ${_s_MARKED} PARENT_SCOPE)
endfunction()

# pf_unmarked_decls(OUT header...) - "header:line: name" of every function declaration that lacks
# PF_API. Hidden visibility leaves such a function out of the shared library without a word, so
# the exported-symbol test refuses them.
function(pf_unmarked_decls out)
  pf_api_scan(_s ${ARGN})
  set(${out} ${_s_UNMARKED} PARENT_SCOPE)
endfunction()
