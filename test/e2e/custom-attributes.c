// The attributes of custom rules, which clang knows through Capsule's clang
// plugin (capsule-config --cflags loads it): __attribute__((enzyme_inactive))
// on a function declared here and defined below and on a global,
// __attribute__((enzyme_function_like("log1p"))), C23's and C++'s
// [[enzyme::inactive]], and Capsule's capsule_inactive. Closed forms: the
// bodies would give other derivatives. The same file as C++. Misplaced or
// malformed attributes are diagnosed by clang.
// RUN: %clang -std=c2x -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -std=c2x -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -x c++ -O2 -g %capsule_cflags %s -x none -o %tx %capsule_ldflags && %tx
// RUN: not %clang -DMISUSED -std=c2x -O0 %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <math.h>
#include "check.h"

#ifdef MISUSED
void misused(void) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: warning: 'enzyme_inactive' attribute only applies to functions and global variables
  __attribute__((enzyme_inactive)) int local = 0;
  (void)local;
}
// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'enzyme_function_like' attribute requires a string
__attribute__((enzyme_function_like(3))) double bad(double y) { return y; }
#endif

__attribute__((enzyme_inactive)) double logged(double x);
double state __attribute__((enzyme_inactive));
__attribute__((noinline)) double read_state(void) { return state; }

/* Twice log1p: differentiated as log1p. */
__attribute__((enzyme_function_like("log1p"))) __attribute__((noinline)) double
my_log1p(double x) {
  return 2 * log(1 + x);
}

[[enzyme::inactive]] double scaled(double x) { return 7 * x; }
__attribute__((capsule_inactive)) double shifted(double x) { return x + 3; }

static double f(double x) {
  state = x;
  return logged(x) + x * read_state() + my_log1p(x) + scaled(x) + shifted(x);
}

double logged(double x) { return x * 100; }

int main(void) {
  double x = 0.5;
  check_cf("attributes", __capsule_autodiff((void *)f, x), x + 1 / (1 + x));
  double v = 1;
  check_cf("attributes, forward mode", __capsule_fwddiff((void *)f, x, v),
           x + 1 / (1 + x));
  return check_report();
}
