// A marker may name a function that has no body here when Capsule knows the
// derivative of a call of it, as Enzyme's markers may: a function of a
// library with the user's rules (Enzyme's and Capsule's spelling), a libm
// function, a BLAS routine (the runtime's rules) and an inactive function.
// The library is built without Capsule (-DLIBRARY), so only the rules give
// its derivatives; each result is checked against central differences of the
// library's own function or a closed form, in reverse, forward and
// checkpointed mode (where the schedule needs no body: libm and BLAS), and
// forward over reverse (a Hessian-vector product of
// the library function, through its rules' code). A function without a body
// whose rules do not cover the mode asked for stays an error.
// RUN: %clang -O2 -DLIBRARY -c %s -o %t.lib.o
// RUN: %clang -O0 -g %capsule_cflags %s %t.lib.o -o %t0 %capsule_ldflags -lopenblas && %t0
// RUN: %clang -O2 -g %capsule_cflags %s %t.lib.o -o %t2 %capsule_ldflags -lopenblas && %t2
// RUN: not %clang -O2 -g -DWRONG_MODE %capsule_cflags -c %s -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=WRONG
#include <math.h>

/* sum_i log(1 + exp(x_i)) */
double softplus_sum(const double *x, long n);
/* y[i] += a x[i] */
void scale_add(double *y, const double *x, double a, long n);
/* A tangent rule only. */
double cube(double x);
/* Inactive: a count that does not depend on x's value. */
double rounded_count(double x);

#ifdef LIBRARY
double softplus_sum(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += log1p(exp(x[i]));
  return s;
}
void scale_add(double *y, const double *x, double a, long n) {
  for (long i = 0; i < n; ++i)
    y[i] += a * x[i];
}
double cube(double x) { return x * x * x; }
double rounded_count(double x) { return floor(x); }
#else
#include <capsule/capsule.h>
#include <cblas.h>
#include "check.h"

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double first, second;
} two;
two __enzyme_autodiff_two(void *, ...);

static double sigmoid(double v) { return 1 / (1 + exp(-v)); }

/* Enzyme's spelling: {function, augmented forward, gradient} and
 * {function, tangent}. The gradient rule computes the sigmoid itself, so
 * forward mode over it differentiates this code. */
static double softplus_aug(const double *x, const double *dx, long n,
                           long dn) {
  return softplus_sum(x, n);
}
static void softplus_grad(const double *x, double *dx, long n, long dn,
                          double dret) {
  for (long i = 0; i < n; ++i)
    dx[i] += dret * sigmoid(x[i]);
}
static two softplus_tangent(const double *x, const double *dx, long n,
                            long dn) {
  double t = 0;
  for (long i = 0; i < n; ++i)
    t += sigmoid(x[i]) * dx[i];
  return (two){softplus_sum(x, n), t};
}
void *__enzyme_register_gradient_softplus_sum[3] = {
    (void *)softplus_sum, (void *)softplus_aug, (void *)softplus_grad};
void *__enzyme_register_derivative_softplus_sum[2] = {
    (void *)softplus_sum, (void *)softplus_tangent};

/* Capsule's spelling. */
static void scale_add_aug(double *y, double *dy, const double *x,
                          const double *dx, double a, long n, long dn) {
  scale_add(y, x, a, n);
}
static double scale_add_grad(double *y, double *dy, const double *x,
                             double *dx, double a, long n, long dn) {
  double da = 0;
  for (long i = 0; i < n; ++i) {
    dx[i] += a * dy[i];
    da += x[i] * dy[i];
  }
  return da;
}
CAPSULE_GRADIENT(scale_add, scale_add_aug, scale_add_grad);

static two cube_tangent(double x, double dx) {
  return (two){x * x * x, 3 * x * x * dx};
}
CAPSULE_DERIVATIVE(cube, cube_tangent);
CAPSULE_INACTIVE_FUNCTION(rounded_count);

enum { N = 4 };

static double softplus_fd(double *x, void *ctx) {
  (void)ctx;
  return softplus_sum(x, N);
}

/* The gradient, for forward mode over it. */
static void softplus_gradient(const double *x, double *dx) {
  __enzyme_autodiff((void *)softplus_sum, enzyme_dup, x, dx, enzyme_const,
                    (long)N);
}

static void check_rules(const double *x) {
  double dx[N] = {0};
  __enzyme_autodiff((void *)softplus_sum, enzyme_dup, x, dx, enzyme_const,
                    (long)N);
  check_grad_fd("gradient of softplus_sum", dx, softplus_fd, 0, (double *)x, N);
  double v[N] = {0.5, -1, 0.25, 2}, want = 0;
  for (int i = 0; i < N; ++i)
    want += v[i] * check_fd_partial(softplus_fd, 0, (double *)x, N, i);
  check_close("tangent of softplus_sum",
              __enzyme_fwddiff((void *)softplus_sum, enzyme_dup, x, v,
                               enzyme_const, (long)N),
              want, CHECK_FD_RTOL, CHECK_FD_ATOL);

  /* Hessian-vector product: the Hessian is diagonal, sigmoid'(x_i). */
  double g[N] = {0}, hv[N] = {0};
  __enzyme_fwddiff((void *)softplus_gradient, enzyme_dup, x, v, enzyme_dup, g,
                   hv);
  for (int i = 0; i < N; ++i) {
    double s = sigmoid(x[i]);
    check_cf("gradient under forward mode", g[i], s);
    check_close("Hessian-vector product", hv[i], s * (1 - s) * v[i], 1e-12,
                1e-15);
  }

  /* y += a x with y's adjoint w: x's adjoint gains a w, a's is x . w, y's
   * stays w. */
  double y[N] = {1, 2, 3, 4}, dy[N] = {0.5, -0.25, 2, 1}, sx[N] = {0};
  double a = 1.5, da = __capsule_autodiff((void *)scale_add, capsule_dup, y, dy,
                                          capsule_dup, x, sx, a, (long)N);
  double dot = 0;
  for (int i = 0; i < N; ++i) {
    dot += x[i] * dy[i];
    check_cf("adjoint of x in scale_add", sx[i], a * dy[i]);
  }
  check_cf("adjoint of a in scale_add", da, dot);
  check_cf("adjoint of y in scale_add", dy[2], 2);
}

static void check_library(const double *x) {
  /* libm: the adjoints of both arguments, and a tangent. */
  two d = __enzyme_autodiff_two((void *)atan2, 0.3, 0.4);
  check_cf("d atan2 / dy", d.first, 0.4 / 0.25);
  check_cf("d atan2 / dx", d.second, -0.3 / 0.25);
  check_cf("d sin", __enzyme_autodiff((void *)sin, 0.5), cos(0.5));
  check_cf("tangent of exp", __enzyme_fwddiff((void *)exp, 1.0, 2.0),
           2 * exp(1.0));
  /* BLAS, with the runtime's rules: d(x . y) = (y, x). */
  double y[N] = {0.1, 0.2, -0.3, 0.4}, dx[N] = {0}, dy[N] = {0};
  __enzyme_autodiff((void *)cblas_ddot, enzyme_const, N, enzyme_dup, x, dx,
                    enzyme_const, 1, enzyme_dup, y, dy, enzyme_const, 1);
  __capsule_autodiff_checkpointed((void *)cblas_ddot, capsule_const, N,
                                  capsule_dup, x, dx, capsule_const, 1,
                                  capsule_const, y, capsule_const, 1);
  for (int i = 0; i < N; ++i) {
    check_cf("ddot's adjoint of x, plain and checkpointed", dx[i], 2 * y[i]);
    check_cf("ddot's adjoint of y", dy[i], x[i]);
  }
  check_cf("checkpointed d sin",
           __capsule_autodiff_checkpointed((void *)sin, 0.5), cos(0.5));
  /* The user's tangent rule, and an inactive function. */
  check_cf("tangent of cube", __capsule_fwddiff((void *)cube, 2.0, 1.0), 12);
  check_cf("derivative of an inactive function",
           __capsule_autodiff((void *)rounded_count, 2.5), 0);
  check_cf("tangent of an inactive function",
           __capsule_fwddiff((void *)rounded_count, 2.5, 1.0), 0);
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.5};
  check_rules(x);
  check_library(x);
#ifdef WRONG_MODE
  // WRONG-DAG: custom-marker-on-declaration.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'cube' has no body in this translation unit and no gradient rule
  __capsule_autodiff((void *)cube, 2.0);
  /* The schedule runs the function again and journals what it writes: it
   * needs the body. */
  double dx[N] = {0};
  // WRONG-DAG: custom-marker-on-declaration.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'softplus_sum' interruptible: a call of 'softplus_sum', which has a gradient rule of yours, inside a checkpointed gradient needs the body
  __capsule_autodiff_checkpointed((void *)softplus_sum, capsule_dup, x, dx,
                                  capsule_const, (long)N);
#endif
  return check_report();
}
#endif
