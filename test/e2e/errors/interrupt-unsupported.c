// Error: code that cannot be made interruptible is reported at compile time
// with the function, the reason and the source line: variable-size stack
// arrays (their frames have a fixed size) and variadic functions.
// RUN: not %clang -O1 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdarg.h>

double last(int n) {
  // CHECK-DAG: interrupt-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'last' interruptible: stack arrays of variable size are not supported in interruptible code; allocate with malloc
  double t[n];
  for (int i = 0; i < n; ++i)
    t[i] = i * 0.5;
  return t[n - 1];
}

__attribute__((noinline)) double sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += va_arg(ap, double);
  va_end(ap);
  return s;
}

double calls_variadic(double x) { return sum(2, x, x); }

// CHECK-DAG: error: capsule: cannot make function 'sum' interruptible{{.*}}: functions with a variable number of arguments are not supported
uint64_t run(int n) {
  return __capsule_primops((void *)last, n) +
         __capsule_primops((void *)calls_variadic, 1.0);
}
