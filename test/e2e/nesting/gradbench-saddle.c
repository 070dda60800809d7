// GradBench's saddle task (written here from Pearlmutter and Siskind's description of it): the saddle point min_x max_y p(x, y) of a two-player payoff, found by gradient descent in x over gradient ascent in y. The inner ascent closes over x, so the outer derivative differentiates through an inner one: the inner gradient by forward or by reverse mode, the outer by forward ("ff", "fr") or reverse mode ("rf"). Against the closed form of the unrolled ascent's derivative, each other, and the saddle point found. ("rr" needs reverse mode over a gradient, which is not supported yet.)
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
#include <capsule/capsule.h>
#include "check.h"

/* p(x, y) = |x|^2 - |y|^2 + x . y: concave in y, whose maximum is at
 * y = x / 2, so that max_y p = 5/4 |x|^2 and the saddle point is 0. */
static double payoff(const double *x, const double *y) {
  return x[0] * x[0] + x[1] * x[1] - y[0] * y[0] - y[1] * y[1] + x[0] * y[0] +
         x[1] * y[1];
}

#define STEPS 25
#define RATE 0.1
static const double Y0[2] = {1.0, -0.5};

/* max_y p(x, y) by STEPS steps of gradient ascent from Y0, the gradient in
 * y by forward mode (two tangents) or by reverse mode (one gradient). */
static void grad_y_forward(const double *x, double *y, double *g) {
  double e0[2] = {1, 0}, e1[2] = {0, 1};
  g[0] = __capsule_fwddiff((void *)payoff, capsule_const, x, capsule_dup, y,
                           e0);
  g[1] = __capsule_fwddiff((void *)payoff, capsule_const, x, capsule_dup, y,
                           e1);
}
static void grad_y_reverse(const double *x, double *y, double *g) {
  g[0] = g[1] = 0;
  __capsule_autodiff((void *)payoff, capsule_const, x, capsule_dup, y, g);
}
/* Two functions, not one with a flag: reverse mode over the one that takes
 * reverse-mode gradients inside would be refused, whatever the flag. */
#define MAX_BY_ASCENT(name, grad_y)                                            \
  static double name(const double *x) {                                        \
    double y[2] = {Y0[0], Y0[1]}, g[2];                                        \
    for (int k = 0; k < STEPS; k++) {                                          \
      grad_y(x, y, g);                                                         \
      y[0] += RATE * g[0];                                                     \
      y[1] += RATE * g[1];                                                     \
    }                                                                          \
    return payoff(x, y);                                                       \
  }
MAX_BY_ASCENT(max_f, grad_y_forward)
MAX_BY_ASCENT(max_r, grad_y_reverse)

/* The outer gradient of max_y p in x. */
static void grad_ff(double *x, double *g) {
  double e0[2] = {1, 0}, e1[2] = {0, 1};
  g[0] = __capsule_fwddiff((void *)max_f, capsule_dup, x, e0);
  g[1] = __capsule_fwddiff((void *)max_f, capsule_dup, x, e1);
}
static void grad_fr(double *x, double *g) {
  double e0[2] = {1, 0}, e1[2] = {0, 1};
  g[0] = __capsule_fwddiff((void *)max_r, capsule_dup, x, e0);
  g[1] = __capsule_fwddiff((void *)max_r, capsule_dup, x, e1);
}
static void grad_rf(double *x, double *g) {
  g[0] = g[1] = 0;
  __capsule_autodiff((void *)max_f, capsule_dup, x, g);
}

/* The ascent is affine in x: y_K = a Y0 + (1 - a) x / 2 with
 * a = (1 - 2 RATE)^STEPS, so d/dx p(x, y_K(x)) = (2x + y_K) +
 * (1 - a) / 2 (x - 2 y_K). */
static void grad_cf(double *x, double *g) {
  double a = pow(1 - 2 * RATE, STEPS);
  for (int i = 0; i < 2; i++) {
    double yk = a * Y0[i] + (1 - a) * x[i] / 2;
    g[i] = 2 * x[i] + yk + (1 - a) / 2 * (x[i] - 2 * yk);
  }
}

/* The saddle point: gradient descent in x. */
static void descend(void (*grad)(double *, double *), double *x) {
  for (int it = 0; it < 200; it++) {
    double g[2];
    grad(x, g);
    x[0] -= RATE * g[0];
    x[1] -= RATE * g[1];
  }
}

static double max_f_ctx(double *x, void *ctx) {
  (void)ctx;
  return max_f(x);
}

int main(void) {
  double x[2] = {0.7, -1.3}, cf[2], g[2];
  grad_cf(x, cf);
  check_cf("max_y p by the forward and by the reverse inner gradient",
           max_r(x), max_f(x));
  grad_ff(x, g);
  check_grad_cf_fd("ff (forward over forward)", g, cf, max_f_ctx, NULL, x, 2);
  grad_fr(x, g);
  check_vec_cf("fr (forward over reverse)", g, cf, 2);
  grad_rf(x, g);
  check_vec_cf("rf (reverse over forward)", g, cf, 2);

  /* The saddle point, whose x the closed form's own descent gives too. */
  double x_ff[2] = {0.7, -1.3}, x_fr[2] = {0.7, -1.3}, x_rf[2] = {0.7, -1.3},
         x_cf[2] = {0.7, -1.3};
  descend(grad_ff, x_ff);
  descend(grad_fr, x_fr);
  descend(grad_rf, x_rf);
  descend(grad_cf, x_cf);
  for (int i = 0; i < 2; i++) {
    check_close("saddle x by ff", x_ff[i], x_cf[i], 1e-9, 1e-12);
    check_close("saddle x by fr", x_fr[i], x_cf[i], 1e-9, 1e-12);
    check_close("saddle x by rf", x_rf[i], x_cf[i], 1e-9, 1e-12);
  }
  check_close("the saddle point found", fabs(x_cf[0]) + fabs(x_cf[1]), 0, 0,
              1e-3);
  return check_report();
}
