// A function passed to the marker as an argument (`integrate(f, a, b)`
// differentiated with f constant, as Enzyme's users write it) reaches the
// differentiated code as a pointer, which it calls: it must be among the
// targets of the calls through pointers. Was left out (only the function
// the marker differentiates names a function there without calling it
// through a pointer), and where nothing else took its address (`cubic`)
// the program stopped: "an indirect call ... reached 0x... which has no
// derivative". Also a function pointer kept in
// a const struct beside pointers to constant data. Reverse, forward and
// checkpointed; -O0 and -O2; against central differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>

#include "include/check.h"

typedef double (*integrand)(double t, const double *p);

static double gaussian(double t, const double *p) {
  return exp(-p[0] * t * t) * cos(p[1] * t);
}

double rational(double t, const double *p) {
  return p[0] / (1 + p[1] * t * t);
}

/* Named only by the marker calls: nothing else takes its address. */
static double cubic(double t, const double *p) {
  return p[0] * t * t * t + p[1] * t;
}

/* Simpson's rule on [0, 1] of f(., p). */
static double integrate(integrand f, const double *p, int n) {
  double h = 1.0 / n, s = f(0, p) + f(1, p);
  for (int i = 1; i < n; i++)
    s += (i % 2 ? 4 : 2) * f(i * h, p);
  return s * h / 3;
}

struct Model {
  integrand f;
  const double *weights;
  int n;
};

/* The model's weighted integrals at scaled parameters. */
static double modelLoss(const struct Model *m, const double *p) {
  double q[2], sum = 0;
  for (int k = 0; k < m->n; k++) {
    q[0] = p[0] * (k + 1);
    q[1] = p[1];
    sum += m->weights[k] * integrate(m->f, q, 8);
  }
  return sum;
}

static integrand theF;
static const struct Model *theModel;
static double integrateFd(double *p, void *ctx) {
  (void)ctx;
  return integrate(theF, p, 10);
}
static double modelFd(double *p, void *ctx) {
  (void)ctx;
  return modelLoss(theModel, p);
}

int main(void) {
  const double v[2] = {0.6, -0.8};
  integrand fs[2] = {gaussian, rational};
  for (int k = 0; k < 2; k++) {
    double p[2] = {0.8, 1.7}, dp[2] = {0, 0};
    theF = fs[k];
    __capsule_autodiff((void *)integrate, capsule_const, fs[k], capsule_dup,
                       p, dp, capsule_const, 10);
    check_grad_fd(k ? "rational: gradient" : "gaussian: gradient", dp,
                  integrateFd, NULL, p, 2);
    double t = __capsule_fwddiff((void *)integrate, capsule_const, fs[k],
                                 capsule_dup, p, v, capsule_const, 10);
    check_close(k ? "rational: tangent" : "gaussian: tangent", t,
                check_fd_along(integrateFd, NULL, p, v, 2), CHECK_FD_RTOL,
                CHECK_FD_ATOL);
  }

  /* Simpson's rule is exact on a cubic: p[0] / 4 + p[1] / 2. */
  double p3[2] = {0.8, 1.7}, dp3[2] = {0, 0};
  __capsule_autodiff((void *)integrate, capsule_const, cubic, capsule_dup, p3,
                     dp3, capsule_const, 10);
  check_cf("cubic: gradient[0]", dp3[0], 0.25);
  check_cf("cubic: gradient[1]", dp3[1], 0.5);
  check_cf("cubic: tangent",
           __capsule_fwddiff((void *)integrate, capsule_const, cubic,
                             capsule_dup, p3, v, capsule_const, 10),
           0.25 * v[0] + 0.5 * v[1]);

  const double weights[3] = {0.5, -1.25, 2.0};
  struct Model m = {gaussian, weights, 3};
  theModel = &m;
  double p[2] = {0.3, 2.1}, dp[2] = {0, 0};
  __capsule_autodiff((void *)modelLoss, capsule_const, &m, capsule_dup, p,
                     dp);
  check_grad_fd("model: gradient", dp, modelFd, NULL, p, 2);
  double t = __capsule_fwddiff((void *)modelLoss, capsule_const, &m,
                               capsule_dup, p, v);
  check_close("model: tangent", t,
              check_fd_along(modelFd, NULL, p, v, 2), CHECK_FD_RTOL,
              CHECK_FD_ATOL);
  return check_report();
}
