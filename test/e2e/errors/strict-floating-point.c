// Error: strict floating point (-frounding-math, -ffp-model=strict, or
// FENV_ACCESS) makes arithmetic constrained intrinsics, which Capsule has
// no rules for: refused at the operation, naming the intrinsic, rather
// than as "a function without a body" to define in this file.
// RUN: not %clang -O2 -g -frounding-math %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -ffp-model=strict %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

double f(double x, double y) {
  // CHECK: strict-floating-point.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': LLVM intrinsic 'llvm.experimental.constrained.{{[a-z]+}}.f64' receives active data, and Capsule has no derivative rule for it
  return x * y + x / y;
}

double grad(double x, double y) {
  return __capsule_autodiff((void *)f, x, capsule_const, y);
}
