// Error: a helper copies structs holding a double and a float but reads only
// the double. Judged by its accesses the copy would look like double data,
// and the float's adjoint would be garbled; the struct layout shows the
// float, so the copy is refused instead.
// RUN: not %clang -O1 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <string.h>

typedef struct {
  double a;
  float b;
  int c;
} S;

__attribute__((noinline)) static double copy_and_read(S *dst, const S *src) {
  // CHECK: copy-float-beside-double.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'copy_and_read': cannot tell whether this copy moves floating-point data
  memcpy(dst, src, sizeof(S));
  return dst->a;
}

double f(double x) {
  S s = {x, (float)(x * x), 3}, t;
  double a = copy_and_read(&t, &s);
  return a * t.b;
}

double use(double x) { return __capsule_autodiff((void *)f, capsule_out, x); }
