# cmake -DINPUT=<file.bc> -DOUTPUT=<file.inc> -P EmbedBitcode.cmake
#
# Writes the bytes of a bitcode file as a C initializer list, for the plugin
# to carry the library bodies it links into programs
# (lib/Support/LibraryBodies.h). The output is rewritten only when it
# changes.
cmake_minimum_required(VERSION 3.20)
file(READ ${INPUT} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(([^,]*,){16})" "\\1\n" bytes "${bytes}")
file(WRITE ${OUTPUT}.new "${bytes}\n")
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
