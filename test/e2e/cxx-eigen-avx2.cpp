// cxx-eigen.cpp built for AVX2 and FMA (-mavx2 -mfma, what -march=native
// gives on current x86-64 processors): fixed-size and blocked products,
// reductions (cwiseAbs masks the sign bits of integer loads that the
// optimizer merges across the reductions in phis, read back as doubles:
// Support/FloatBitOperations.h), the solves (Eigen's triangular solve keeps
// a scalar and a pointer side by side in a stack slot, which the optimizer
// loads as one <4 x double> and takes apart again: Support/SlotLaneLoads.h),
// and dynamic matrices, whose 32-byte alignment Eigen makes itself by
// rounding a malloc'd address as an integer (the pointer is the block's
// address moved by an offset: Support/IntegerAddresses.h; at -O0 its helper
// takes the alignment as a parameter, a constant at every call), and the
// blocked product kernel, whose multiply-add Eigen writes in inline
// assembly (vfmadd231pd). Gradients and tangents against finite
// differences. At -O3 the solves are left out: the inverse copies a
// permutation's indices with a memcpy whose element type nothing tells
// (docs/limitations.md). AVX-512: cxx-eigen-avx512.cpp.
// REQUIRES: avx2-fma
// RUN: %clangxx -O0 -mavx2 -mfma -g %capsule_cflags -I/usr/include/eigen3 %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -mavx2 -mfma -g %capsule_cflags -I/usr/include/eigen3 %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -O3 -mavx2 -mfma -g -DWITHOUT_SOLVES %capsule_cflags -I/usr/include/eigen3 %s -o %t3 %capsule_ldflags && %t3
#include "cxx-eigen.cpp"
