// Error: the C++ headers compiled with a language version older than they
// need say so in one line, not with the dozens of errors their templates
// would give (<enzyme/enzyme> under -std=c++14 gave 21).
// RUN: not %clangxx -std=c++14 -fsyntax-only -DENZYME %capsule_cflags %s 2>&1 | FileCheck %s --check-prefix=ENZYME --implicit-check-not=error:
// RUN: not %clangxx -std=c++17 -fsyntax-only %capsule_cflags %s 2>&1 | FileCheck %s --check-prefix=CAPSULE --implicit-check-not=error:
// RUN: %clangxx -std=c++17 -fsyntax-only -DENZYME %capsule_cflags %s
// RUN: %clangxx -std=c++20 -fsyntax-only %capsule_cflags %s
// ENZYME: error: "<enzyme/enzyme> needs C++17: compile with -std=c++17"
// CAPSULE: error: "capsule/capsule.hpp needs C++20 (std::span): compile with -std=c++20"
#ifdef ENZYME
#include <enzyme/enzyme>
#else
#include <capsule/capsule.hpp>
#endif

int main() { return 0; }
