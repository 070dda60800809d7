// Enzyme spellings: enzyme_dupnoneed output array seeded with weights, enzyme_dup input: dx = J^T w.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include "include/check.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);

void f(const double *x, double *out, int n) {
  double acc = 0.0;
  for (int i = 0; i < n; i++) {
    acc = 0.5 * acc + x[i] * x[i];
    out[i] = acc * cos(x[i]);
  }
}

enum { N = 5 };
static const double W[N] = {1.0, -2.0, 0.5, 0.75, -1.25};
static double wf_fd(double *x, void *ctx) {
  (void)ctx;
  double y[N], r = 0.0;
  f(x, y, N);
  for (int i = 0; i < N; i++)
    r += W[i] * y[i];
  return r;
}

int main(void) {
  double x[N] = {0.8, -0.4, 1.1, 0.3, -0.9}, dx[N] = {0};
  double y[N], dy[N];
  memcpy(dy, W, sizeof W);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy,
                    enzyme_const, N);
  check_grad_fd("dx", dx, wf_fd, 0, x, N);
  return check_report();
}
