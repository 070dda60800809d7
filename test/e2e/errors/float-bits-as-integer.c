// Error: the fast inverse square root's trick (a double's bits read as an
// integer and computed with) loses the derivative through the bits. At -O2
// it is a bitcast; at -O0 a load through a cast pointer. Both are refused,
// naming the function and the line. So is, at -O0, a double memcpy'd into
// an integer whose bits are then changed (an absolute value by clearing the
// sign bit, which -O2 turns into fabs: mem-float-bit-operations.c).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=O0
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=O2
// RUN: env CAPSULE_CHECKPOINT_ALL=1 not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=O0
#include <capsule/capsule.h>
#include <stdint.h>
#include <string.h>

double rsqrt(double x) {
  double y = x;
  // O2: float-bits-as-integer.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'rsqrt': floating-point value reinterpreted as bits
  int64_t i = *(int64_t *)&y;
  // O0-DAG: float-bits-as-integer.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'rsqrt': floating-point data read as integer bits
  i = 0x5fe6eb50c7b537a9 - (i >> 1);
  y = *(double *)&i;
  return y * (1.5 - 0.5 * x * y * y);
}

double grad(double x) { return __capsule_autodiff((void *)rsqrt, x); }

double magnitude(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  // O0-DAG: float-bits-as-integer.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'magnitude': floating-point data read as integer bits
  u &= 0x7fffffffffffffffULL;
  double a;
  memcpy(&a, &u, sizeof a);
  return a * x;
}

double grad_magnitude(double x) {
  return __capsule_autodiff((void *)magnitude, x);
}
