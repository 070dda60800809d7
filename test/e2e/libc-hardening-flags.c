// Builds with the flags distributions and careful users add: with
// _FORTIFY_SOURCE, memcpy, memmove and memset of a run-time size become
// glibc's checked __memcpy_chk and kin, and printf __printf_chk; with
// -fno-builtin or -ffreestanding they stay calls of the C library's
// functions; with -fsanitize=undefined every checked operation may call a
// handler that reports it. All were refused as calls without a body
// (Support/LibcMemoryCalls.h; the handlers and the checked printf have no
// derivative). A checked copy keeps its check: one too long for its
// destination stops the program as glibc does. Gradient and tangents
// against finite differences.
// RUN: %clang -O2 -g -D_FORTIFY_SOURCE=2 %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O1 -D_FORTIFY_SOURCE=3 %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g -fno-builtin %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %clang -O0 -g -ffreestanding %capsule_cflags %s -o %t4 %capsule_ldflags -lm && %t4
// RUN: %clang -O0 -g -fsanitize=undefined %capsule_cflags %s -o %t5 %capsule_ldflags -lm && %t5
// RUN: %clang -O2 -g -fsanitize=undefined %capsule_cflags %s -o %t6 %capsule_ldflags -lm && %t6
// RUN: %clang -O2 -g -D_FORTIFY_SOURCE=2 -DOVERFLOW %capsule_cflags %s -o %t7 %capsule_ldflags -lm && not --crash %t7 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: buffer overflow detected
#include <capsule/capsule.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "include/check.h"

enum { N = 6 };

static volatile int length = N; /* a run-time size */

/* Copies the state around through memcpy, memmove and memset of run-time
 * sizes, prints it, and sums it with integer counters ubsan checks. */
static double f(const double *x) {
  double a[N], b[N + 2];
  int n = length;
  memcpy(a, x, n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = a[i] * a[i] + sin(a[(i + 1) % n]);
  memset(b, 0, sizeof b);
  memcpy(b + 1, a, n * sizeof(double));
  memmove(b + 2, b + 1, (n - 1) * sizeof(double));
#ifdef OVERFLOW
  memcpy(a, b, (n + 2) * sizeof(double)); /* two doubles too many */
#endif
  if (b[2] > 1e300)
    printf("state %g\n", b[2]);
  double s = 0;
  int count = 0;
  for (int i = 0; i < n + 2; i++) {
    s += b[i] * (i + 1);
    count += i;
  }
  return s * (1 + count % 2);
}

CHECK_FD_OF(f)

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.25, -1.4, 0.6};
  CHECK_GRADIENT_AND_TANGENTS(f, x, N);
  return check_report();
}
