// Kernel: 1-D heat equation, explicit time stepping over 100 steps with two swapped buffers; gradient w.r.t. the initial profile (dup) and the diffusivity (out).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

enum { N = 16 };

double heat(const double *u0, double alpha, int steps) {
  double a[N + 2], b[N + 2];
  double *cur = a, *next = b;
  double r = 0.4 * alpha; /* dt / dx^2 = 0.4, stable for alpha < 1.25 */
  cur[0] = cur[N + 1] = next[0] = next[N + 1] = 0.0;
  for (int i = 0; i < N; i++)
    cur[i + 1] = u0[i];
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i <= N; i++)
      next[i] = cur[i] + r * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]);
    double *t = cur;
    cur = next;
    next = t;
  }
  double obj = 0.0;
  for (int i = 1; i <= N; i++)
    obj += (1.0 + (double)i / N) * cur[i] * cur[i];
  return obj;
}

static double ALPHA = 0.9;
static double U0[N];
static double u_fd(double *u, void *ctx) {
  (void)ctx;
  return heat(u, ALPHA, 100);
}
static double alpha_fd(double a) { return heat(U0, a, 100); }

int main(void) {
  for (int i = 0; i < N; i++)
    U0[i] = sin(3.14159 * (i + 1) / (N + 1)) + 0.3 * cos(0.9 * i);
  double du[N] = {0};
  double da = __capsule_autodiff((void *)heat, capsule_dup, U0, du, capsule_out,
                                 ALPHA, capsule_const, 100);
  check_grad_fd("du0", du, u_fd, 0, U0, N);
  check_close("dalpha (fd)", da, check_fd1(alpha_fd, ALPHA), CHECK_FD_RTOL,
              CHECK_FD_ATOL);
  return check_report();
}
