// Error: a pointer rebuilt from an integer (an alignment trick) is passed to
// a helper, and returned from another: it has no shadow, and would reach
// them with a null one (a crash, or at -O0 a gradient of 0). Refused at
// compile time instead.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdint.h>

__attribute__((noinline)) static void sq(double *m, const double *x) {
  m[0] = x[0] * x[0];
}

__attribute__((noinline)) static double *align16(double *p) {
  // CHECK-DAG: unknown-pointer-handed.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'align16': pointer of unknown origin
  return (double *)(((uintptr_t)p + 15) & ~(uintptr_t)15);
}

double f(const double *x) {
  double buf[8];
  double *m = (double *)(((uintptr_t)buf + 15) & ~(uintptr_t)15);
  // CHECK-DAG: unknown-pointer-handed.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': pointer of unknown origin
  sq(m, x);
  double *n = align16(buf);
  n[1] = x[0];
  return 3.0 * m[0] + n[1];
}

void __capsule_autodiff_v(void *, ...);
void use(const double *x, double *dx) {
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
}
