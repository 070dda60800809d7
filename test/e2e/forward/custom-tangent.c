// Custom tangent rules (Enzyme's __enzyme_register_derivative and
// CAPSULE_DERIVATIVE): each argument followed by its tangent, a
// floating-point result returned as {result, tangent}, pointer outputs
// written by the rule; for double and float (whose pair C returns in a
// vector register), an integer argument (passed as its own tangent), a
// constant argument (zero tangent), a constant pointer (its tangents read
// zero from the tangent sink), a function with both a tangent and a
// gradient rule used in both modes, and a deliberately wrong rule whose
// effect must show. Bodies are opaque to Capsule (inline assembly), so only
// the rules can differentiate them; tangents are checked against central
// differences of the primal, which runs the bodies.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <capsule/capsule.h>
#include <math.h>
#include "check.h"

#define OPAQUE(v) __asm__ volatile("" : "+x"(v))

typedef struct {
  double value, tangent;
} dual;
typedef struct {
  float value, tangent;
} dualf;

__attribute__((noinline)) double soft(double x) {
  double y = log(1 + exp(x));
  OPAQUE(y);
  return y;
}
static dual soft_tangent(double x, double dx) {
  dual r = {log(1 + exp(x)), dx / (1 + exp(-x))};
  return r;
}
void *__enzyme_register_derivative_soft[2] = {(void *)soft,
                                              (void *)soft_tangent};

__attribute__((noinline)) float softf(float x) {
  float y = logf(1 + expf(x));
  OPAQUE(y);
  return y;
}
static dualf softf_tangent(float x, float dx) {
  dualf r = {logf(1 + expf(x)), dx / (1 + expf(-x))};
  return r;
}
CAPSULE_DERIVATIVE(softf, softf_tangent);

/* y[i] = a * x[i]^2 for i < n. */
__attribute__((noinline)) void sq_scale(const double *x, double *y, int n,
                                        double a) {
  for (int i = 0; i < n; ++i) {
    double v = a * x[i] * x[i];
    OPAQUE(v);
    y[i] = v;
  }
}
static void sq_scale_tangent(const double *x, const double *dx, double *y,
                             double *dy, int n, int dn, double a, double da) {
  for (int i = 0; i < n; ++i) {
    y[i] = a * x[i] * x[i];
    dy[i] = da * x[i] * x[i] + 2 * a * x[i] * dx[i];
  }
}
CAPSULE_DERIVATIVE(sq_scale, sq_scale_tangent);

/* Both modes have rules. */
__attribute__((noinline)) double cube(double x) {
  double y = x * x * x;
  OPAQUE(y);
  return y;
}
static dual cube_tangent(double x, double dx) {
  dual r = {x * x * x, 3 * x * x * dx};
  return r;
}
static double cube_aug(double x) { return x * x * x; }
static double cube_grad(double x, double d) { return 3 * x * x * d; }
CAPSULE_DERIVATIVE(cube, cube_tangent);
CAPSULE_GRADIENT(cube, cube_aug, cube_grad);

/* Deliberately wrong: the tangent is twice the true one. */
__attribute__((noinline)) double twice_wrong(double x) {
  double y = sin(x);
  OPAQUE(y);
  return y;
}
static dual twice_wrong_tangent(double x, double dx) {
  dual r = {sin(x), 2 * cos(x) * dx};
  return r;
}
CAPSULE_DERIVATIVE(twice_wrong, twice_wrong_tangent);

#define N 3

static double f(double *x) {
  double y[N];
  sq_scale(x, y, N, x[0]);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += soft(y[i]) + cube(y[i] * x[i]);
  return s;
}

static void fv(double *x, double *out, void *ctx) {
  (void)ctx;
  double copy[N] = {x[0], x[1], x[2]};
  out[0] = f(copy);
}

/* A constant argument: a's tangent is zero. */
static double with_const(double *x, double a) {
  double y[N];
  sq_scale(x, y, N, a);
  return y[0] + y[1] + y[2];
}

static double softf_d(double x) { return softf((float)x) * 1.0; }

/* A constant input array: its tangent, read from the sink, is zero. */
static double const_input(double *x, const double *c) {
  double y[N];
  sq_scale(c, y, N, x[0]);
  return y[0] + y[1] + y[2];
}

static double g(double x) { return twice_wrong(x) + cube(x); }

int main(void) {
  double x[N] = {0.4, -0.3, 0.8};
  for (int k = 0; k < N; ++k) {
    double dx[N] = {0}, got, want;
    dx[k] = 1;
    got = __capsule_fwddiff((void *)f, x, dx);
    check_fd_jvp(fv, NULL, x, dx, N, 1, &want);
    check_close("tangent through rules", got, want, CHECK_FD_RTOL,
                CHECK_FD_ATOL);
  }
  /* softf runs in float: against the closed form, at float tolerance. */
  check_close("float rule", __capsule_fwddiff((void *)softf_d, 0.7, 1.0),
              1 / (1 + exp(-0.7)), CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  double v[N] = {1, 2, -1};
  double a = 1.5;
  check_cf("constant argument",
           __capsule_fwddiff((void *)with_const, x, v, capsule_const, a),
           2 * a * (x[0] * v[0] + x[1] * v[1] + x[2] * v[2]));

  double c[N] = {0.5, -1.5, 2.0};
  check_cf("constant input array",
           __capsule_fwddiff((void *)const_input, x, v, capsule_const, c),
           v[0] * (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]));

  double t = 0.6;
  check_cf("the rule's effect shows", __capsule_fwddiff((void *)g, t, 1.0),
           2 * cos(t) + 3 * t * t);
  check_cf("reverse mode uses the gradient rule",
           __capsule_autodiff((void *)cube, t), 3 * t * t);
  return check_report();
}
