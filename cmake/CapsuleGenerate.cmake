# capsule_generate(<template> <output> [file(GENERATE) options...])
#
# Writes <output> from <template>: first @VARIABLES@ (configure_file), then
# generator expressions such as $<TARGET_FILE:CapsulePlugin> (file(GENERATE)),
# so generated scripts and configs name the targets' real output files.
include_guard(GLOBAL)

function(capsule_generate template output)
  # The intermediate file is named after the output's place in the build
  # tree, so two outputs with the same name do not share one.
  file(RELATIVE_PATH relative ${CMAKE_BINARY_DIR} ${output})
  set(configured ${CMAKE_BINARY_DIR}/generate/${relative}.configured)
  configure_file(${template} ${configured} @ONLY)
  file(GENERATE OUTPUT ${output} INPUT ${configured} ${ARGN})
endfunction()
