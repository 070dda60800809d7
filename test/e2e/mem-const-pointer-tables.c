// Constant data holding the addresses of globals the code writes: a
// constant table of row pointers at file scope, a const struct pointing at
// a global, and a local array initialised with global addresses (clang
// copies it at -O0 from a constant it emits). Code reaches the globals
// through pointers loaded out of these constants, so the constants need
// shadows holding the globals' shadows; before, the writes' adjoints went
// nowhere and the gradient was silently wrong (found by capsule-fuzz, seed 6).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O0 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static double ga[4], gb[4], gc[2];
static double *const table[3] = {ga, gb, ga + 2};
struct config {
  double *accumulator;
  double weight;
};
static const struct config cfg = {gc, 0.75};

double f(const double *x, int n) {
  double *rows[3] = {gb, ga, gc};
  for (int k = 0; k < 4; k++)
    ga[k] = gb[k] = 0.0;
  gc[0] = gc[1] = 0.0;
  for (int i = 0; i < n; i++) {
    rows[i % 3][i % 2] += sin(x[i]) * x[(i + 1) % n];
    table[i % 3][1] += x[i] * x[i];
    cfg.accumulator[i % 2] += cfg.weight * rows[(i + 1) % 3][0];
  }
  double r = 0.0;
  for (int k = 0; k < 4; k++)
    r += ga[k] * (k + 1) + gb[k] * gb[k];
  return r + gc[0] * gc[1] + gc[1];
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  int n = 7;
  double x[7] = {0.9, -0.4, 1.3, 0.2, -1.1, 0.6, 0.35};
  double dx[7] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 7);
  return check_report();
}
