// A global pointer that the caller points at another global, which the
// differentiated code reaches only through the pointer (it never names
// it): `gp = g;` in main, `gp[k] = ...` in f. The runtime ties the pointer
// to the shadow of what it points to at each gradient call, but g had no
// shadow (no differentiated code names it), so the pointer's shadow was
// null and the reverse sweep crashed (found by capsule-fuzz, seed 1062).
// Globals whose address the program stores anywhere get shadows now.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static double g[5], g2[4];
static double *gp, *gq;

double f(const double *x, int n) {
  double r = 0.0;
  for (int i = 0; i < n; i++) {
    gp[i % 5] = sin(x[i]) * x[(i + 1) % n]; // scratch reached only via gp
    gq[i % 3] += x[i] * x[i];
  }
  gp[n % 5] = 1.845; // a constant overwrites part of it
  for (int k = 0; k < 5; k++)
    r += gp[k] * (k + 1);
  return r + gq[0] * gq[1] + gq[2];
}

static void reset(void) {
  for (int k = 0; k < 5; k++)
    g[k] = 0.1 * k;
  for (int k = 0; k < 4; k++)
    g2[k] = 0.0;
}

static double f_fd(double *x, void *ctx) {
  reset();
  return f(x, *(int *)ctx);
}

int main(void) {
  int n = 4, one = 1;
  gp = g;
  gq = &g2[one]; // an address computed at run time
  double x[4] = {0.9, -0.4, 1.3, 0.2};
  double dx[4] = {0};
  reset();
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 4);
  return check_report();
}
