# pdb_file_cli.cmake - bench_puzzle --pdb-file leaves a file that does not load as it is (issue 24,
# defect 9): it used to build a database and save it over the file, whatever the file was. Runs the
# tool for its argument handling only (no benchmark is timed): the refusal comes before any build.
#
#   cmake -DBENCH=bench_puzzle -DDIR=scratch-dir -P pdb_file_cli.cmake
foreach(_v BENCH DIR)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "pdb_file_cli.cmake: -D${_v}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
# one instance, one move from the goal (Korf's format: id, optimal length, the 16 cells)
file(WRITE ${DIR}/korf1.txt "1 1 1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n")
set(_fail "")

# 1. not a database at all: refused, exit 1, the file byte for byte as it was, no JSON, no temporary
set(_notes ${DIR}/notes.txt)
string(ASCII 1 2 255 _bytes)
file(WRITE ${_notes} "my notes, not a pattern database\n${_bytes} and some bytes\n")
file(SHA256 ${_notes} _before)
execute_process(COMMAND ${BENCH} --heuristic pdb --pdb 5-5-5 --file ${DIR}/korf1.txt --pdb-file ${_notes}
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 600)
file(SHA256 ${_notes} _after)
message(STATUS "garbage --pdb-file: exit ${_rc}; stderr:\n${_err}")
if(NOT _rc EQUAL 1)
  string(APPEND _fail "garbage --pdb-file: exit '${_rc}', want 1\n")
endif()
if(NOT _before STREQUAL _after)
  string(APPEND _fail "garbage --pdb-file: the file was changed\n")
endif()
if(NOT _err MATCHES "notes.txt: not a pathfind pattern database" OR NOT _err MATCHES "left as it is"
   OR NOT _err MATCHES "--pdb-rebuild")
  string(APPEND _fail "garbage --pdb-file: the message does not say what and why: ${_err}\n")
endif()
if(NOT _out STREQUAL "")
  string(APPEND _fail "garbage --pdb-file: output on stdout: ${_out}\n")
endif()
file(GLOB _left ${DIR}/*)
list(LENGTH _left _n)
if(NOT _n EQUAL 2)
  string(APPEND _fail "garbage --pdb-file: files left in ${DIR}: ${_left}\n")
endif()

# 2. --pdb-rebuild needs a file to replace: a usage error
execute_process(COMMAND ${BENCH} --heuristic pdb --pdb 5-5-5 --file ${DIR}/korf1.txt --pdb-rebuild
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 60)
if(NOT _rc EQUAL 2)
  string(APPEND _fail "--pdb-rebuild without --pdb-file: exit '${_rc}', want 2\n")
endif()

if(_fail)
  message(FATAL_ERROR "${_fail}")
endif()
