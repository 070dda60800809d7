// Forward mode over a checkpointed gradient whose computation calls a
// function with rules of the user's (a gradient rule with a heap tape and
// a tangent rule). Forward over checkpointed is the checkpointed gradient
// of the tangent function (design.md), which calls the tangent rule;
// forward over the plain gradient differentiates the gradient rules'
// bodies. The Hessian-vector products must agree, and equal central
// differences of the gradient.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && env CAPSULE_LEAF_STEPS=20 %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && env CAPSULE_LEAF_STEPS=20 %t2
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define N 3

/* x^3 through a pointer, with rules for both modes (the gradient rule's
 * tape a heap copy of x). */
__attribute__((noinline)) void cube_into(const double *x, double *y) {
  *y = *x * *x * *x;
}
static void *cube_aug(const double *x, const double *dx, double *y,
                      double *dy) {
  double *t = malloc(sizeof *t);
  *t = *x;
  *y = *x * *x * *x;
  return t;
}
static void cube_grad(const double *x, double *dx, double *y, double *dy,
                      void *tape) {
  double x0 = *(double *)tape;
  free(tape);
  *dx += 3 * x0 * x0 * *dy;
  *dy = 0;
}
static void cube_tan(const double *x, const double *tx, double *y,
                     double *ty) {
  *y = *x * *x * *x;
  *ty = 3 * *x * *x * *tx;
}
CAPSULE_GRADIENT(cube_into, cube_aug, cube_grad);
CAPSULE_DERIVATIVE(cube_into, cube_tan);

static double simulate(double *x) {
  double r = 0, y;
  for (int t = 0; t < 15; ++t) {
    cube_into(&x[t % N], &y);
    x[(t + 1) % N] += 0.1 * y - 0.05 * x[t % N];
    r += sin(x[t % N]) * 0.2;
  }
  return r + x[0] * x[1] * x[2];
}

static void gradient(double *x, double *dx) {
  __capsule_autodiff((void *)simulate, x, dx);
}
static void checkpointed(double *x, double *dx) {
  __capsule_autodiff_checkpointed((void *)simulate, x, dx);
}

static const double x0[N] = {0.4, -0.3, 0.6};

/* Component k of the gradient at x0, for central differences. */
static int component;
static double gradient_component(double *x, void *ctx) {
  (void)ctx;
  double y[N], dy[N] = {0};
  memcpy(y, x, sizeof y);
  gradient(y, dy);
  return dy[component];
}

int main(void) {
  const double v[N] = {1, -0.5, 0.25};
  double x[N], vx[N], dx[N] = {0}, hv[N] = {0};
  memcpy(x, x0, sizeof x);
  memcpy(vx, v, sizeof vx);
  __capsule_fwddiff((void *)gradient, x, vx, dx, hv);
  double y[N], vy[N], dy[N] = {0}, hvc[N] = {0};
  memcpy(y, x0, sizeof y);
  memcpy(vy, v, sizeof vy);
  __capsule_fwddiff((void *)checkpointed, y, vy, dy, hvc);
  check_vec_cf("checkpointed gradient vs plain", dy, dx, N);
  check_vec_cf("Hessian-vector product, checkpointed vs plain", hvc, hv, N);
  for (component = 0; component < N; ++component) {
    double fd = 0;
    for (int i = 0; i < N; ++i)
      fd += v[i] * check_fd_partial(gradient_component, 0, x0, N, i);
    check_close("Hessian-vector product vs differences of the gradient",
                hv[component], fd, 1e-5, 1e-7);
  }
  return check_report();
}
