// cxx-eigen.cpp built for AVX-512 (-mavx512f -mavx512dq -mfma, what
// -march=native gives on processors that have it): 64-byte alignment made
// on integers, AVX-512's max and min in maxCoeff and minCoeff, cwiseAbs's
// sign mask on integer loads that the optimizer merges across the
// reductions (phis of integers read back as doubles), and the solves (a
// stack slot of a scalar and a pointer loaded as one vector).
// Gradients and tangents against finite differences; run only where the
// processor has AVX-512 (lit.cfg.py).
// REQUIRES: avx512f
// RUN: %clangxx -O2 -mavx512f -mavx512dq -mfma -g %capsule_cflags -I/usr/include/eigen3 %s -o %t2 %capsule_ldflags && %t2
#include "cxx-eigen.cpp"
