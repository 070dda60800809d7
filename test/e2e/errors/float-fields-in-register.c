// Error: a struct of an int and a float passed or returned by value travels
// in one 64-bit integer register on x86-64; at -O0 it is loaded from the
// struct's memory as an i64, so the float's derivative would be lost on the
// way: the call and the return are refused, in plain and checkpointed
// gradients (where the callee, which has a loop, receives its argument
// through its record). At -O2 clang builds the integer from the float's
// bits, which is refused as a reinterpretation.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: env CAPSULE_CHECKPOINT_ALL=1 CAPSULE_ATOMIC_LOOPS=0 not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=O2
#include <capsule/capsule.h>

struct P {
  int n;
  float w;
};

__attribute__((noinline)) static struct P make(int n, double w) {
  struct P p = {n, (float)w};
  // CHECK-DAG: float-fields-in-register.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'make{{[^']*}}': struct with floating-point fields passed by value in an integer register (such as {int, float}); its derivative would be lost (pass it by pointer)
  return p;
}

__attribute__((noinline)) static double sum(struct P p, double y) {
  double s = 0;
  for (int i = 0; i < p.n; i++)
    s += p.w * y;
  return s;
}

double f(const double *x, int n) {
  struct P p = {n, (float)x[0]};
  // CHECK-DAG: float-fields-in-register.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f{{[^']*}}': struct with floating-point fields passed by value in an integer register
  return sum(p, x[1]) + make(n, x[1]).w;
}
// O2: error: capsule: cannot differentiate function {{.*}}floating-point value reinterpreted as bits

void __capsule_autodiff_v(void *, ...);
void grad(const double *x, double *dx, int n) {
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
}
