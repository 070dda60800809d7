// Counted loops push all their records at once before they start, and
// counted reverse loops pop them without a check per record when the chunk
// holds them all (Reverse/LoopTapeReservation.cpp, at -O2 and -O3): the
// records must land where per-iteration pushes would have put them, and be
// read back from there, whatever the tape holds when the loop starts; a
// reverse loop whose records were pushed one by one across chunks must
// cross them too. Loops of 0, 1 and a few iterations; one whose
// records fill many chunks; an inner loop reserved once per outer
// iteration, after a record of the outer one; a loop whose reservation is
// larger than the chunk in use, after records that leave that chunk half
// full; a loop of unknown length whose records cross chunks; each gradient against central differences, and the Hessian-vector
// product (forward over reverse: tangents of the records) against
// differences of gradients. Under a tape limit too small for a loop's
// records, the reservation stops the program with the limit's message, as
// the pushes would have.
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: env CAPSULE_TAPE_LIMIT=64K not %t2 limit 2>&1 | FileCheck %s
// CHECK: capsule: {{.*}}tape{{.*}}limit
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);
double __capsule_fwddiff(void *, ...);

enum { N = 7, LONG = 400000 };

/* y[i] depends on x[i] and y[i-1]: x[i] and y[i-1] are taped for each
 * iteration (y might alias x). */
static double recurrence(const double *x, double *y, long n) {
  double s = 0;
  for (long i = 1; i < n; i++) {
    y[i] = x[i % N] * y[i - 1] * 0.999 + 0.001 * x[(i + 3) % N];
    s += y[i] * y[i];
  }
  return s;
}

/* Loops of 0, 1, 2 and n - 1 iterations, then one that fills chunks. */
double short_and_long(const double *x, double *y, long n) {
  double s = 0;
  for (long len = 0; len < 3; len++) {
    y[0] = 0.5;
    s += recurrence(x, y, len + 1);
  }
  y[0] = 0.5;
  s += recurrence(x, y, n);
  return s;
}

/* An inner loop reserved once per outer iteration, after the outer
 * iteration's own record (the product q depends on the inner loop). */
double nested(const double *x, double *y, long n) {
  double s = 0, q = 1;
  for (long k = 0; k < n; k++) {
    q = q * (1 + 0.01 * x[k % N]);
    for (long i = 0; i < (k & 3) + 1; i++)
      y[i] = sin(q * x[(k + i) % N]) * y[i] + x[i % N];
    s += y[k & 3] * q;
  }
  return s;
}

/* A small record first, then a loop whose records need more than the chunk
 * in use has left: the reservation starts a new chunk; the reverse sweep
 * pops back across that boundary. */
double across_chunks(const double *x, double *y, long n) {
  double a = x[0] * x[1];
  y[0] = a;
  return a * a + recurrence(x, y, n);
}

/* A loop that runs while a product stays above a bound: no trip count on
 * entry, so its records are pushed one by one and cross chunks; the
 * reverse sweep's loop knows its count (taped at the exit) and takes the
 * version of it that pops across chunks. */
double while_above(const double *x, double *y, long n) {
  double p = 1, s = 0;
  long i = 0;
  while (p > 1e-300 && i < n) {
    p = p * (0.9999 + 1e-5 * x[i % N]);
    y[i] = p;
    s += p * x[(i + 1) % N];
    i++;
  }
  return s;
}

#define GRADIENT_CHECK(F, N_)                                                  \
  static double F##_at(double *x, void *ctx) {                                 \
    (void)ctx;                                                                 \
    double *y = calloc(N_, sizeof(double));                                    \
    y[0] = 0.5;                                                                \
    double r = F(x, y, N_);                                                    \
    free(y);                                                                   \
    return r;                                                                  \
  }                                                                            \
  static void F##_grad(const double *x, double *dx) {                          \
    double *y = calloc(N_, sizeof(double)), *dy = calloc(N_, sizeof(double));  \
    y[0] = 0.5;                                                                \
    memset(dx, 0, N * sizeof(double));                                         \
    __capsule_autodiff_v((void *)F, capsule_dup, x, dx, capsule_dup, y, dy,    \
                         capsule_const, (long)(N_));                           \
    free(y);                                                                   \
    free(dy);                                                                  \
  }

GRADIENT_CHECK(short_and_long, 60)
GRADIENT_CHECK(nested, 40)
GRADIENT_CHECK(across_chunks, LONG)
GRADIENT_CHECK(while_above, LONG)

/* H v by forward over reverse of the gradient of short_and_long. */
static void grad_of(const double *x, double *dx) { short_and_long_grad(x, dx); }

int main(int argc, char **argv) {
  double x[N], dx[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.9 + 0.02 * i;
  if (argc > 1 && !strcmp(argv[1], "limit")) {
    across_chunks_grad(x, dx);
    return 0;
  }

  short_and_long_grad(x, dx);
  check_grad_fd("short and long loops", dx, short_and_long_at, 0, x, N);
  nested_grad(x, dx);
  check_grad_fd("nested loops", dx, nested_at, 0, x, N);
  across_chunks_grad(x, dx);
  check_grad_fd("a reservation across chunks", dx, across_chunks_at, 0, x,
                N);
  while_above_grad(x, dx);
  check_grad_fd("pops across chunks", dx, while_above_at, 0, x, N);

  // H v against central differences of the gradient along v.
  double v[N], hv[N] = {0}, g[N] = {0}, gp[N], gm[N], xs[N];
  for (int i = 0; i < N; i++)
    v[i] = cos(i);
  __capsule_fwddiff((void *)grad_of, capsule_dup, x, v, capsule_dup, g, hv);
  const double h = 1e-5;
  for (int i = 0; i < N; i++)
    xs[i] = x[i] + h * v[i];
  short_and_long_grad(xs, gp);
  for (int i = 0; i < N; i++)
    xs[i] = x[i] - h * v[i];
  short_and_long_grad(xs, gm);
  for (int i = 0; i < N; i++)
    check_close("H v", hv[i], (gp[i] - gm[i]) / (2 * h), 1e-5, 1e-7);
  return check_report();
}
