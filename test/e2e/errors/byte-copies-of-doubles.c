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
// -DSTEPPED: the swap steps its pointers (`*p++ = *q`) and a generic
// bubble sort calls it, as hand-written qsort replacements do; at -O0 the
// stepped pointers are phis that start at the parameters, and nothing told
// what they point into: the gradient came back wrong without a word. Beside
// it, a hand-written strcpy with stepped pointers between the names of
// records holding doubles still runs.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O1 -g -DCOPY %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -DCOPY %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O0 -DSTEPPED %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O0 -g -DSTEPPED %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O1 -DSTEPPED %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: %clang -O0 -g -DBESIDE %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g -DBESIDE %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// CHECK: error: capsule: cannot differentiate function '{{.*}}'{{.*}}: floating-point data copied byte by byte between memories that have adjoints
#include <capsule/capsule.h>
#include <stddef.h>

#include "../include/check.h"

#if defined(STEPPED)
static void swapBytes(void *a, void *b, size_t n) {
  unsigned char *p = a, *q = b;
  while (n--) {
    unsigned char t = *p;
    *p++ = *q;
    *q++ = t;
  }
}

static void bubbleSort(void *base, size_t n, size_t size,
                       int (*less)(const void *, const void *)) {
  char *b = base;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j + 1 < n - i; j++)
      if (less(b + (j + 1) * size, b + j * size))
        swapBytes(b + j * size, b + (j + 1) * size, size);
}

static int less(const void *a, const void *b) {
  return *(const double *)a < *(const double *)b;
}

double f(const double *x) {
  double v[4];
  for (int i = 0; i < 4; i++)
    v[i] = x[i] * (i + 1);
  bubbleSort(v, 4, sizeof(double), less);
  return v[0] + 2 * v[1] + 3 * v[2] + 4 * v[3];
}

void gradient(double *x, double *dx) { __capsule_autodiff((void *)f, x, dx); }
#elif !defined(BESIDE)
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

static void copyName(char *d, const char *s) {
  while ((*d++ = *s++))
    ;
}

double f(double *x) {
  struct Sample s[2] = {{"first", x[0]}, {"second", x[1]}};
  struct Sample t = {"third", x[0] * x[1]};
  copyName(t.label, s[1].label);
  for (int i = 0; i < 8; i++) // the labels' characters, swapped
    s[0].label[i] ^= s[1].label[i];
  unsigned char flags[4], copy[4];
  for (int i = 0; i < 4; i++)
    flags[i] = (unsigned char)(i + 1);
  for (int i = 0; i < 4; i++)
    copy[i] = flags[3 - i];
  return s[0].value * copy[0] + s[1].value * s[1].value + s[0].label[1] +
         t.value * t.label[2];
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
