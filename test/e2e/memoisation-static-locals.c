// Static storage written before it is read in every call holds nothing from
// an earlier call, and an equality test of it is no cache key: Fortran
// translated by f2c makes every local static (a root finder comparing its
// iterates, EISPACK's negligibility test `tst2 == tst1`), and Numerical
// Recipes' FMAX keeps its operands in statics before the test
// `fabs(e) + anorm == anorm`. These were refused as memoisation
// (errors/memoisation-static-cache.c keeps the real caches refused); now
// their gradients and tangents are checked against finite differences and
// the implicit-function derivative of the root.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O0 -g %capsule_cflags -- %capsule_ldflags -lm
#include <capsule/capsule.h>
#include <math.h>
#include "include/check.h"

typedef double doublereal;
typedef int integer;

/* COMMON /PARAMS/: the residual's parameters. */
static doublereal params_[2];

static doublereal residual_(doublereal *x) {
  return params_[0] * exp(*x) - params_[1] * *x - 2.;
}

/* The secant method as f2c writes it: every local static, the iterates
 * compared for equality before dividing by their difference. */
static doublereal secant_(doublereal *x0, doublereal *x1,
                          doublereal (*f)(doublereal *), doublereal *tol) {
  static doublereal a, b, c, fa, fb;
  static integer it;
  a = *x0;
  b = *x1;
  fa = (*f)(&a);
  fb = (*f)(&b);
  for (it = 1; it <= 60; ++it) {
    if (fb == fa)
      break;
    c = b - fb * (b - a) / (fb - fa);
    a = b;
    fa = fb;
    b = c;
    fb = (*f)(&b);
    if (fabs(fb) <= *tol)
      break;
  }
  return b;
}

static double root(const double *p) {
  params_[0] = p[0];
  params_[1] = p[1];
  doublereal x0 = 0.5, x1 = 1.5, tol = 1e-15;
  return secant_(&x0, &x1, residual_, &tol);
}

/* F(r, p) = 0 gives dr/dp = -F_p / F_r. */
static double root_ref(const double *p, int i) {
  double r = root(p);
  double Fr = p[0] * exp(r) - p[1];
  return i == 0 ? -exp(r) / Fr : r / Fr;
}

/* EISPACK's test whether an off-diagonal element is negligible, with its
 * statics: the sum of absolute values until one adds nothing. */
static double negligible_sum(const double *e) {
  static doublereal tst1, tst2;
  static integer m;
  tst1 = fabs(e[0]);
  for (m = 1; m < 6; ++m) {
    tst2 = tst1 + fabs(e[m]);
    if (tst2 == tst1)
      break;
    tst1 = tst2;
  }
  return tst1 * e[0];
}

static double maxarg1, maxarg2;
#define FMAX(a, b)                                                             \
  (maxarg1 = (a), maxarg2 = (b), (maxarg1) > (maxarg2) ? (maxarg1) : (maxarg2))

static double scaled_norm(const double *x) {
  double anorm = FMAX(fabs(x[0]), fabs(x[1]));
  if (fabs(x[2]) + anorm == anorm)
    return anorm * anorm;
  return anorm * (anorm + x[2]);
}

/* Where an element is negligible, the branch taken is a closed form that
 * finite differences (whose step is not negligible) cannot check. */
static double negligible_sum_ref(const double *e, int i) {
  double s = fabs(e[0]) + fabs(e[1]) + fabs(e[2]);
  if (i == 0)
    return s + copysign(1.0, e[0]) * e[0];
  return i < 3 ? copysign(1.0, e[i]) * e[0] : 0.0;
}

static double scaled_norm_negligible_ref(const double *x, int i) {
  return i == 1 ? 2 * fabs(x[1]) * copysign(1.0, x[1]) : 0.0;
}

CHECK_FD_OF(negligible_sum)
CHECK_FD_OF(scaled_norm)

int main(void) {
  double p[2] = {0.5, 0.3};
  /* The secant iterates converge faster than their derivatives' error
   * shrinks to rounding: 1e-9 relative against the implicit form. */
  CHECK_GRADIENT_AND_TANGENTS_CF(root, p, 2, root_ref, 1e-9, 1e-12);
  double e[6] = {0.7, -0.2, 0.05, 0.4, 0.1, 0.3};
  CHECK_GRADIENT_AND_TANGENTS(negligible_sum, e, 6);
  double small[6] = {0.7, -0.2, 0.05, 1e-30, 0.4, 0.1};
  CHECK_GRADIENT_AND_TANGENTS_CF(negligible_sum, small, 6, negligible_sum_ref,
                                 CHECK_CF_RTOL, CHECK_CF_ATOL);
  double x[3] = {0.5, -2.0, 0.25};
  CHECK_GRADIENT_AND_TANGENTS(scaled_norm, x, 3);
  double tiny[3] = {0.5, -2.0, 1e-300};
  CHECK_GRADIENT_AND_TANGENTS_CF(scaled_norm, tiny, 3,
                                 scaled_norm_negligible_ref, CHECK_CF_RTOL,
                                 CHECK_CF_ATOL);
  return check_report();
}
