// Error: doubles copied or swapped byte by byte (a hand-written generic
// swap through unsigned char pointers, as generic sort code has). Bytes
// carry no part of an adjoint, so the reverse sweep kept each adjoint in
// place: the gradient came back swapped (1 2 for 2 1), at every -O level,
// without a word. Now refused at the byte store, when the layout of either
// side puts floating-point data there, or both point into floating-point
// memory (optimized code keeps `x` and `(unsigned char *)x` in one value:
// the debug type that says what it points to is the double's, not the
// char's). Not refused: characters
// copied beside doubles in a struct, and bytes of memory that holds no
// floating-point data; they run, checked against central differences.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O1 -g -DCOPY %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -DCOPY %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: %clang -O0 -g -DBESIDE %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g -DBESIDE %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// CHECK: error: capsule: cannot differentiate function '{{.*}}': floating-point data copied byte by byte between memories that have adjoints
#include <capsule/capsule.h>
#include <stddef.h>

#include "../include/check.h"

#if !defined(BESIDE)
static void swapBytes(void *a, void *b, size_t size) {
  unsigned char *p = a, *q = b;
  for (size_t i = 0; i < size; i++) {
    unsigned char t = p[i];
    p[i] = q[i];
    q[i] = t;
  }
}

double f(double *x) {
#ifdef COPY
  unsigned char *p = (unsigned char *)&x[0], *q = (unsigned char *)&x[1];
  for (int i = 0; i < 8; i++)
    q[i] = p[i];
#else
  swapBytes(&x[0], &x[1], sizeof(double));
#endif
  return x[0] + 2 * x[1];
}

void gradient(double *x, double *dx) { __capsule_autodiff((void *)f, x, dx); }
#else
struct Sample {
  char label[8];
  double value;
};

double f(double *x) {
  struct Sample s[2] = {{"first", x[0]}, {"second", x[1]}};
  for (int i = 0; i < 8; i++) // the labels' characters, swapped
    s[0].label[i] ^= s[1].label[i];
  unsigned char flags[4], copy[4];
  for (int i = 0; i < 4; i++)
    flags[i] = (unsigned char)(i + 1);
  for (int i = 0; i < 4; i++)
    copy[i] = flags[3 - i];
  return s[0].value * copy[0] + s[1].value * s[1].value + s[0].label[1];
}

static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}

int main(void) {
  double x[2] = {0.7, -1.2}, dx[2] = {0, 0};
  __capsule_autodiff((void *)f, x, dx);
  check_grad_fd("gradient", dx, f_fd, NULL, x, 2);
  return check_report();
}
#endif
