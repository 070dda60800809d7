// Recursion 100,000 deep: the plain gradient at -O0 overflows the stack where the primal runs; checkpointed gradients crash at -O0 and -O2.
// Known wrong (issue 15, item 10): XFAIL until fixed; lit reports an
// unexpected pass the day it is, and then this line and XFAIL go.
// XFAIL: *
// RUN: %clang -O0 -g %capsule_cflags %s -o %t %capsule_ldflags -lm && %t
#include <capsule/capsule.h>
#include "check.h"
double rec(double x, long n) { if (n == 0) return x; return sin(rec(x, n - 1)) * 0.5 + x * 0.01; }
static long N = 100000;
double f(double x) { return rec(x, N); }
static double fd(double *x, void *c) { return f(x[0]); }
int main(int argc, char **argv) {
  if (argc > 1) N = atol(argv[1]);
  double x = 0.7;
  double d = __capsule_autodiff((void *)f, x);
  check_grad_fd("deep", &d, fd, 0, &x, 1);
  return check_report();
}
