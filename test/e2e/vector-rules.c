// Vector mode (enzyme_width) through the rules of functions that take and
// return no pointers: forward mode calls the tangent rule once per lane,
// reverse mode the augmented rule once and the gradient rule once per lane
// (each with its lane's adjoint of the result), in the callees of the
// differentiated function and as the root itself, in Enzyme's spelling and
// Capsule's. The rules must be what is used: a deliberately wrong pair
// (twice the derivative) shows in every lane as in width 1. References:
// each lane against width 1 (which uses the same rules) and the correct
// rules' results against central differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
#include <capsule/capsule.h>
#include <math.h>
#include "check.h"

extern int enzyme_width, enzyme_dupv, enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);

typedef struct {
  double value, tangent;
} dual;

/* The optimizer sees through nothing: an opaque barrier on a value. */
#define OPAQUE(v) __asm__ volatile("" : "+x"(v))

/* f(x, y) = x^2 y + sin(y): correct rules, Capsule's spelling. */
__attribute__((noinline)) double f(double x, double y) {
  double v = x * x * y + sin(y);
  OPAQUE(v);
  return v;
}
static dual f_tangent(double x, double dx, double y, double dy) {
  dual r = {x * x * y + sin(y), 2 * x * y * dx + (x * x + cos(y)) * dy};
  return r;
}
static double f_aug(double x, double y) { return x * x * y + sin(y); }
typedef struct {
  double dx, dy;
} two;
static two f_grad(double x, double y, double d) {
  two r = {2 * x * y * d, (x * x + cos(y)) * d};
  return r;
}
CAPSULE_DERIVATIVE(f, f_tangent);
CAPSULE_GRADIENT(f, f_aug, f_grad);

/* wrong(x) = x^3 with rules giving twice the derivative, Enzyme's
 * spelling; an integer argument (its own shadow) besides. */
__attribute__((noinline)) double wrong(double x, int k) {
  double v = x * x * x * k;
  OPAQUE(v);
  return v;
}
static dual wrong_tangent(double x, double dx, int k, int dk) {
  dual r = {x * x * x * k, 6 * x * x * k * dx};
  return r;
}
static double wrong_aug(double x, int k, int dk) { return x * x * x * k; }
static double wrong_grad(double x, int k, int dk, double d) {
  return 6 * x * x * k * d;
}
void *__enzyme_register_derivative_wrong[2] = {(void *)wrong,
                                               (void *)wrong_tangent};
void *__enzyme_register_gradient_wrong[3] = {
    (void *)wrong, (void *)wrong_aug, (void *)wrong_grad};

/* A vector function of three inputs through both, and the same with the
 * correct rules only. */
static void model(const double *x, double *y) {
  y[0] = f(x[0], x[1]) + wrong(x[2], 2);
  y[1] = f(x[1] * x[2], x[0]);
  y[2] = exp(f(x[2], 0.5)) * wrong(x[0], 1);
}
static void correct(const double *x, double *y) {
  y[0] = f(x[0], x[1]);
  y[1] = f(x[1] * x[2], x[0]);
  y[2] = exp(f(x[2], 0.5));
}

static int row;
static double correct_output(double *x, void *ctx) {
  (void)ctx;
  double y[3];
  correct(x, y);
  return y[row];
}

typedef struct {
  double d[3];
} three;
three __enzyme_fwddiff_three(void *, ...) __asm__("__enzyme_fwddiff");
double __enzyme_fwddiff_one(void *, ...) __asm__("__enzyme_fwddiff");

static double model_sum(const double *x) {
  double y[3];
  model(x, y);
  return y[0] + 2 * y[1] - y[2];
}

static void check_forward(void) {
  const double x[3] = {0.7, -0.4, 1.2};
  double dirs[3][3] = {{1, 0, 0}, {0.5, -1, 2}, {0, 0, 1}};
  three got = __enzyme_fwddiff_three((void *)model_sum, enzyme_width, 3,
                                     enzyme_dupv, sizeof dirs[0], x, dirs[0]);
  for (int k = 0; k < 3; ++k) {
    double one = __enzyme_fwddiff_one((void *)model_sum, enzyme_dup, x,
                                      dirs[k]);
    char what[64];
    snprintf(what, sizeof what, "forward lane %d against width 1", k);
    check_cf(what, got.d[k], one);
  }
  // The wrong rule shows: lane 2 (x[2] alone) has twice wrong's slope.
  double plain = 2 * 3 * x[2] * x[2] * 2; /* d/dx2 of wrong(x2, 2), rule */
  double rest = 4 * x[1] * x[1] * x[2] * x[0] /* 2 f(x1 x2, x0) */ -
                exp(f(x[2], 0.5)) * 2 * x[2] * 0.5 * wrong(x[0], 1);
  check_cf("the wrong rule shows in lane 2", got.d[2], plain + rest);
}

static void check_reverse(void) {
  double x[3] = {0.7, -0.4, 1.2}, y[3];
  double xbar[3][3] = {{0}}, ybar[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  __enzyme_autodiff((void *)correct, enzyme_width, 3, enzyme_dupv,
                    sizeof xbar[0], x, xbar, enzyme_dupv, sizeof ybar[0], y,
                    ybar);
  for (int i = 0; i < 3; ++i) {
    row = i;
    char what[64];
    snprintf(what, sizeof what, "reverse row %d", i);
    check_grad_fd(what, xbar[i], correct_output, NULL, x, 3);
  }
  double mbar[2][3] = {{0}}, seeds[2][3] = {{1, 0, 0}, {0, 0, 1}};
  double kept[2][3] = {{1, 0, 0}, {0, 0, 1}};
  __enzyme_autodiff((void *)model, enzyme_width, 2, enzyme_dupv,
                    sizeof mbar[0], x, mbar, enzyme_dupv, sizeof seeds[0], y,
                    seeds);
  for (int k = 0; k < 2; ++k) {
    double one[3] = {0};
    __enzyme_autodiff((void *)model, enzyme_dup, x, one, enzyme_dup, y,
                      kept[k]);
    char what[64];
    snprintf(what, sizeof what, "reverse lane %d against width 1", k);
    check_vec_cf(what, mbar[k], one, 3);
  }
  // Lane 0 (y[0]): wrong's adjoint of x[2] is twice the true 3 x^2 k.
  check_cf("the wrong rule shows in reverse", mbar[0][2],
           2 * 3 * x[2] * x[2] * 2);
}

/* The root itself has the rules: its N adjoints per argument come back as
 * arrays, each lane's result seeded with 1. */
typedef struct {
  double dx[2], dy[2];
} root_adjoints;
root_adjoints __enzyme_autodiff_root(void *, ...) __asm__("__enzyme_autodiff");

static void check_root(void) {
  double x = 0.3, y = 1.1;
  root_adjoints r = __enzyme_autodiff_root((void *)f, enzyme_width, 2,
                                           enzyme_out, x, enzyme_out, y);
  for (int k = 0; k < 2; ++k) {
    char what[64];
    snprintf(what, sizeof what, "root lane %d: df/dx", k);
    check_cf(what, r.dx[k], 2 * x * y);
    snprintf(what, sizeof what, "root lane %d: df/dy", k);
    check_cf(what, r.dy[k], x * x + cos(y));
  }
}

int main(void) {
  check_forward();
  check_reverse();
  check_root();
  return check_report();
}
