// capsule_const on a double pointer that f reads (no derivative with respect to it, no shadow passed); const double scalar.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x, const double *w, int n, double t) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += w[i] * x[i] * x[i] + sin(w[(i + 1) % n] * x[i]) * t;
  return s;
}

enum { N = 5 };
static const double W[N] = {0.5, -1.25, 2.0, 0.75, -0.4};
static double T = 1.7;
static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x, W, N, T);
}

int main(void) {
  double x[N] = {0.9, -0.3, 0.45, 1.2, -0.8}, dx[N] = {0}, cf[N];
  double w[N];
  memcpy(w, W, sizeof W);
  for (int i = 0; i < N; i++)
    cf[i] = 2.0 * W[i] * x[i] + cos(W[(i + 1) % N] * x[i]) * W[(i + 1) % N] * T;
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, w,
                       capsule_const, N, capsule_const, T);
  check_grad_cf_fd("dx", dx, cf, f_fd, 0, x, N);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "w[%d] unchanged", i);
    check_close(name, w[i], W[i], 0, 0);
  }
  return check_report();
}
