# cmake -DNM=<llvm-nm> -DARCHIVE=<libcapsule_rt.a> -DOUTPUT=<file.inc> -P RuntimeSymbols.cmake
#
# Writes the C names the runtime defines for programs (capsule_* and
# __capsule_*), one string literal per line, for the plugin: a reference to
# any other name of Capsule's is an API Capsule does not implement, and the
# pass says so at compile time instead of leaving it to the linker. The
# output is rewritten only when the list changes.
cmake_minimum_required(VERSION 3.20)
execute_process(
  COMMAND ${NM} --defined-only --extern-only --format=just-symbols ${ARCHIVE}
  OUTPUT_VARIABLE symbols
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "llvm-nm failed on ${ARCHIVE}")
endif()
string(REPLACE "\n" ";" symbols "${symbols}")
list(FILTER symbols INCLUDE REGEX "^(__)?capsule_")
list(SORT symbols)
list(REMOVE_DUPLICATES symbols)
set(lines "")
foreach(symbol IN LISTS symbols)
  string(APPEND lines "\"${symbol}\",\n")
endforeach()
file(WRITE ${OUTPUT}.new "${lines}")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
