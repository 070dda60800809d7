// Shadows accumulate (+=): two gradient calls into the same dx give twice the gradient; a nonzero initial dx is kept and added to.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x, double s) {
  return s * x[0] * x[1] * x[1] + exp(x[2] * x[0]);
}

static double S = 1.5;
static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x, S);
}
static double X[3] = {0.7, -1.1, 0.4};
static double f_s(double s) { return f(X, s); }

int main(void) {
  double dx[3] = {0, 0, 0};
  double dy[3] = {0.25, -2.0, 1.0};
  double g[3], two_g[3], seeded[3];
  int i;
  check_fd_grad(f_fd, 0, X, 3, g);
  for (i = 0; i < 3; i++) {
    two_g[i] = 2.0 * g[i];
    seeded[i] = dy[i] + g[i];
  }

  /* Twice into the same shadow; s is out, its adjoint is returned (not
   * accumulated anywhere) and must be the same both times. */
  double ds1 = __capsule_autodiff((void *)f, capsule_dup, X, dx, capsule_out, S);
  double ds2 = __capsule_autodiff((void *)f, capsule_dup, X, dx, capsule_out, S);
  for (i = 0; i < 3; i++) {
    char name[32];
    snprintf(name, sizeof name, "2x dx[%d]", i);
    check_close(name, dx[i], two_g[i], CHECK_FD_RTOL, CHECK_FD_ATOL);
  }
  check_scalar("ds (first call)", ds1, f_s, S, X[0] * X[1] * X[1]);
  check_scalar("ds (second call)", ds2, f_s, S, X[0] * X[1] * X[1]);

  /* A nonzero initial shadow is added to. */
  __capsule_autodiff_v((void *)f, capsule_dup, X, dy, capsule_const, S);
  for (i = 0; i < 3; i++) {
    char name[32];
    snprintf(name, sizeof name, "seeded dy[%d]", i);
    check_close(name, dy[i], seeded[i], CHECK_FD_RTOL, CHECK_FD_ATOL);
  }
  return check_report();
}
