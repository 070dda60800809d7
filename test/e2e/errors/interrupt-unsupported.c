// Error: code that cannot be made interruptible is reported at compile time
// with the function, the reason and the source line: variadic functions,
// and inline
// assembly that touches memory or may give other results when run again
// (a time-stamp read); assembly that is only a comment, or empty (an
// optimization barrier on a register), is accepted
// (interrupt/asm-comments.c), and so are stack arrays of variable size
// (checkpointed/stack-arrays.c).
// RUN: not %clang -O1 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <stdarg.h>

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
double clobbers(double *x) {
  // CHECK-DAG: interrupt-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'clobbers' interruptible: inline assembly is not supported
  __asm__ volatile("" : : : "memory");
  return x[0];
}

double timestamp(double x) {
  unsigned lo, hi;
  // CHECK-DAG: interrupt-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'timestamp' interruptible: inline assembly is not supported
  __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return x + (lo & 1) + (hi & 1);
}

uint64_t run(int n, double *x) {
  (void)n;
  return __capsule_primops((void *)calls_variadic, 1.0) +
         __capsule_primops((void *)clobbers, x) +
         __capsule_primops((void *)timestamp, 1.0);
}
