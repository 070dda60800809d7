// memcpy (input to scratch; struct assignment), overlapping memmove in both directions, memset zeroing part of a buffer, memcmp of active data compared with 0 (which LLVM makes a call of bcmp at -O2; was refused as a call without a derivative).
// memcpy of a pointer variable and of a struct of pointers: at -O0 the debug type of the pointer variable's stack slot must not be taken for what the slot holds (a copy of `double *` taken for doubles lost its shadows: a crash).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <string.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

typedef struct { double v[8]; } Blob;

double f(const double *x, int n) {
  double buf[16];
  memcpy(buf, x, n * sizeof(double));
  memmove(buf + 2, buf, n * sizeof(double));     /* shift right, overlapping */
  memset(buf, 0, 2 * sizeof(double));            /* buf = 0 0 x0 .. x(n-1) */
  for (int i = 0; i < n + 2; i++)
    buf[i] = buf[i] * (1.0 + 0.1 * i) + 0.05 * i;
  memmove(buf, buf + 1, (n + 1) * sizeof(double)); /* shift left, overlapping */
  memset(buf + n + 1, 0, sizeof(double));        /* clear the stale copy */
  Blob a, b;
  memcpy(b.v, buf, sizeof b.v);
  a = b; /* struct copy */
  double s = 0.0;
  for (int i = 0; i < 8; i++)
    s += a.v[i] * a.v[i] * (i + 1) + sin(buf[i]) + b.v[i] * x[0];
  if (memcmp(&a, &b, sizeof a) == 0) /* equal: both copies of buf */
    s *= 1.5;
  const double *p = x, *q;
  memcpy(&q, &p, sizeof p);
  struct {
    const double *first, *second;
  } rows = {x, x + 1}, copy;
  memcpy(&copy, &rows, sizeof rows);
  return s + q[0] * q[1] + 3 * copy.first[0] * copy.second[1];
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 6;
  double x[6] = {0.7, -0.3, 1.2, 0.5, -0.8, 0.95};
  double dx[6] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 6);
  return check_report();
}
