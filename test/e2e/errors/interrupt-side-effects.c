// Warning: a call to an external function that may have side effects inside
// interruptible code is reported (its effects repeat when a capsule is
// resumed); the program still builds and runs, and pure libm calls are not
// reported.
// RUN: %clang -O1 -g %capsule_cflags %s -o %t %capsule_ldflags 2>&1 | FileCheck %s
// RUN: %t | FileCheck %s --check-prefix=OUT
#include <capsule/capsule.h>
#include <math.h>
#include <stdio.h>

double total(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += sqrt(a[i]);
    // CHECK: interrupt-side-effects.c:[[@LINE+1]]:{{[0-9]+}}: warning: capsule: in interruptible function 'total': calls external function 'printf': its side effects happen again each time a capsule is resumed, and memory it writes is not restored
    printf("partial %g\n", s);
  }
  return s;
}
// CHECK-NOT: sqrt

int main(void) {
  double a[2] = {4, 9};
  // OUT: partial 2
  // OUT-NEXT: partial 5
  // OUT-NEXT: steps > 0: 1
  printf("steps > 0: %d\n", __capsule_primops((void *)total, a, 2) > 0);
  return 0;
}
