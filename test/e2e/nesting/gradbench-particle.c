// GradBench's particle task (written here from its public description, after Siskind and Pearlmutter): a charged particle integrated by naive Euler steps until it crosses the x axis, the force being minus the gradient of the two charges' potential, taken by forward mode inside the integration; the control w found by gradient descent on x0(t_f)^2, its derivative by forward mode (the "ff" variant) and by reverse mode ("rf"); and the force as one gradient by reverse mode, the control's derivative by forward mode ("fr"). Against finite differences of the objective, each other, and a final miss distance near zero. ("rr" needs reverse mode over a gradient, which is not supported yet.)
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
#include <capsule/capsule.h>
#include "check.h"

/* The potential of the charges at (10, 10 - w) and (10, 0). */
static double potential(const double *x, double w) {
  double a0 = x[0] - 10, a1 = x[1] - (10 - w), b0 = x[0] - 10, b1 = x[1];
  return 1 / sqrt(a0 * a0 + a1 * a1) + 1 / sqrt(b0 * b0 + b1 * b1);
}

/* One Euler step of 0.1 under force a, unless the particle would cross the
 * x axis: then x0(t_f)^2 at the linear interpolation to the crossing goes to
 * *miss, and the result is 1. */
static int euler_step(double *x, double *v, const double *a, double *miss) {
  const double dt = 0.1;
  double next0 = x[0] + dt * v[0], next1 = x[1] + dt * v[1];
  if (next1 <= 0) {
    double x_f = x[0] + (-x[1] / v[1]) * v[0];
    *miss = x_f * x_f;
    return 1;
  }
  x[0] = next0;
  x[1] = next1;
  v[0] += dt * a[0];
  v[1] += dt * a[1];
  return 0;
}

/* x0(t_f)^2, the force by forward mode, one component per call. */
static double miss(double w) {
  double x[2] = {0, 8}, v[2] = {0.75, 0}, m;
  for (int step = 0; step < 100000; step++) {
    double e0[2] = {1, 0}, e1[2] = {0, 1};
    double a[2] = {-__capsule_fwddiff((void *)potential, capsule_dup, x, e0,
                                      capsule_const, w),
                   -__capsule_fwddiff((void *)potential, capsule_dup, x, e1,
                                      capsule_const, w)};
    if (euler_step(x, v, a, &m))
      return m;
  }
  return NAN;
}

/* The same with the force as one gradient (both components at once). */
static double miss_r(double w) {
  double x[2] = {0, 8}, v[2] = {0.75, 0}, m;
  for (int step = 0; step < 100000; step++) {
    double grad[2] = {0, 0};
    __capsule_autodiff((void *)potential, capsule_dup, x, grad, capsule_const,
                       w);
    double a[2] = {-grad[0], -grad[1]};
    if (euler_step(x, v, a, &m))
      return m;
  }
  return NAN;
}

static double miss_ff(double w) { return __capsule_fwddiff((void *)miss, w, 1.0); }
static double miss_rf(double w) { return __capsule_autodiff((void *)miss, w); }
static double miss_fr(double w) {
  return __capsule_fwddiff((void *)miss_r, w, 1.0);
}

static double descend(double (*slope)(double), double w) {
  for (int it = 0; it < 1000; it++) {
    double g = slope(w);
    if (fabs(g) < 1e-9)
      break;
    w -= 0.001 * g;
  }
  return w;
}

int main(void) {
  double w0 = 0.0;
  check_close("d miss / dw, forward over forward (fd)", miss_ff(w0),
              check_fd1(miss, w0), CHECK_FD_RTOL, CHECK_FD_ATOL);
  check_cf("d miss / dw, reverse over forward", miss_rf(w0), miss_ff(w0));
  check_cf("the miss with the force by reverse mode", miss_r(w0), miss(w0));
  check_close("d miss / dw, forward over reverse", miss_fr(w0), miss_ff(w0),
              1e-12, 1e-15);
  double w_ff = descend(miss_ff, w0), w_rf = descend(miss_rf, w0),
         w_fr = descend(miss_fr, w0);
  check_close("w found by ff and by rf", w_rf, w_ff, 1e-9, 1e-12);
  check_close("w found by ff and by fr", w_fr, w_ff, 1e-9, 1e-12);
  check_close("the particle meets the origin", miss(w_ff), 0, 0, 1e-6);
  printf("w = %.12f\n", w_ff);
  return check_report();
}
