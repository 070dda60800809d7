// Error: f reads doubles through a pointer that came back inside a struct
// returned in registers; its memory's adjoints cannot be tracked, so the
// pass refuses instead of dropping the derivative.
// RUN: not %clang -O1 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

typedef struct {
  double *p;
  long n;
} View;

__attribute__((noinline)) static View view(double *x, long n) {
  View v = {x, n};
  return v;
}

double f(double *x, long n) {
  View v = view(x, n);
  double s = 0;
  for (long i = 0; i < v.n; i++)
    // CHECK: untracked-pointer.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': floating-point data accessed through a pointer whose memory has no tracked adjoints
    s += v.p[i] * v.p[i];
  return s;
}

void __capsule_autodiff_v(void *, ...);
void use(double *x, double *dx, long n) {
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
}
