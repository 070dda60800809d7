// Error: f passes active data to a variadic function defined in the file;
// its derivative cannot be made, and the error names it and the line.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdarg.h>

__attribute__((noinline)) static double sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, double);
  va_end(ap);
  return s;
}

double f(double x) {
  // CHECK: variadic-callee.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'f': call to the variadic function 'sum'
  return sum(2, x, x * x);
}

double use(double x) { return __capsule_autodiff((void *)f, capsule_out, x); }
