// Second derivatives through BLAS: every routine Capsule has rules for
// (CBLAS and the Fortran interface) inside functions differentiated twice,
// in the four orders: forward over reverse (the Hessian-vector product),
// reverse over reverse (the gradient of the gradient's dot product with v),
// reverse over forward (the gradient of the slope along v) and forward over
// forward (v'Hv). The nested derivatives differentiate the built-in rules'
// own code, whose BLAS calls go through the routines' rules again. The
// functions are include/blas_models.h's (each routine overwrites what it
// is handed, so its rule's copies matter; both orders, strides other than
// 1, active scalars), reduced to a scalar. References: the gradient
// against central differences of the function, the second derivatives
// against central differences of that gradient along v (step 1e-5; atol
// 1e-7 for the rounding of a difference of gradients of size ~10).
// Forward mode over a checkpointed gradient of a simulation that updates
// its state through BLAS at every step (the checkpointed gradient of its
// tangent function, which calls the routines' tangent rules) equals
// forward over the plain gradient, split into many stages.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lopenblas
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lopenblas
// With gfortran's hidden lengths of the character arguments:
// RUN: %clang -O1 -g -DSTRLEN=size_t %capsule_cflags %s -o %t1 %capsule_ldflags -lopenblas
// RUN: env OPENBLAS_NUM_THREADS=1 CAPSULE_LEAF_STEPS=40 %t0
// RUN: env OPENBLAS_NUM_THREADS=1 CAPSULE_LEAF_STEPS=30 %t1
// RUN: env OPENBLAS_NUM_THREADS=1 CAPSULE_LEAF_STEPS=30 CAPSULE_STRATEGY=binary %t2
// RUN: env OPENBLAS_NUM_THREADS=1 CAPSULE_LEAF_STEPS=30 CAPSULE_STRATEGY=treeverse CAPSULE_SPLIT=binomial CAPSULE_SNAPSHOTS=3 %t2
// RUN: env OPENBLAS_NUM_THREADS=1 CAPSULE_STATS=1 CAPSULE_LEAF_STEPS=30 %t2 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: checkpointed gradient of simulate: {{[0-9]+}} primal steps, {{[^;]*}}; {{[1-9][0-9]+}} stages
#include <capsule/capsule.h>
#include <cblas.h>
#include <math.h>
#include "check.h"
#include "fortran_blas.h"
#include "blas_models.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_void(void *, ...);

/* A smooth scalar of the models' outputs. */
static double finish(const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (i + 1) * sin(y[i]) + 0.5 * y[i] * y[i];
  return s;
}

#define SCALAR_OF(model)                                                       \
  static double model##_scalar(const double *x) {                            \
    double y[NY] = {0};                                                      \
    blas_##model(x, y);                                                      \
    return finish(y, NY);                                                    \
  }
SCALAR_OF(level1)
SCALAR_OF(level2)
SCALAR_OF(level3)
SCALAR_OF(fortran)

/* Each function's gradient and its four second derivatives. */
struct modes {
  const char *name;
  double (*f)(const double *);
  void (*grad)(const double *, double *);
  void (*fwd_over_rev)(const double *, const double *, double *);
  void (*rev_over_rev)(const double *, const double *, double *);
  void (*rev_over_fwd)(const double *, const double *, double *);
  double (*fwd_over_fwd)(const double *, const double *);
};

#define NESTED_MODES(f)                                                        \
  static void f##_grad(const double *x, double *g) {                           \
    __enzyme_autodiff((void *)f, enzyme_dup, x, g);                            \
  }                                                                            \
  static double f##_slope(const double *x, const double *v) {                  \
    return __enzyme_fwddiff((void *)f, enzyme_dup, x, v);                      \
  }                                                                            \
  /* BLAS in the outer function too, beside the inner gradient's. */         \
  static double f##_grad_dot(const double *x, const double *v) {               \
    double g[NX] = {0};                                                        \
    f##_grad(x, g);                                                            \
    return cblas_ddot(NX, g, 1, v, 1);                                         \
  }                                                                            \
  static void f##_fwd_over_rev(const double *x, const double *v,               \
                               double *hv) {                                   \
    double g[NX] = {0};                                                        \
    __enzyme_fwddiff_void((void *)f##_grad, enzyme_dup, x, v, enzyme_dup, g,   \
                          hv);                                                 \
  }                                                                            \
  static void f##_rev_over_rev(const double *x, const double *v,               \
                               double *hv) {                                   \
    __enzyme_autodiff((void *)f##_grad_dot, enzyme_dup, x, hv, enzyme_const,   \
                      v);                                                      \
  }                                                                            \
  static void f##_rev_over_fwd(const double *x, const double *v,               \
                               double *hv) {                                   \
    __enzyme_autodiff((void *)f##_slope, enzyme_dup, x, hv, enzyme_const, v);  \
  }                                                                            \
  static double f##_fwd_over_fwd(const double *x, const double *v) {           \
    return __enzyme_fwddiff((void *)f##_slope, enzyme_dup, x, v, enzyme_const, \
                            v);                                                \
  }                                                                            \
  static const struct modes f##_modes = {                                      \
      #f,           f,                f##_grad,         f##_fwd_over_rev,      \
      f##_rev_over_rev, f##_rev_over_fwd, f##_fwd_over_fwd};

NESTED_MODES(level1_scalar)
NESTED_MODES(level2_scalar)
NESTED_MODES(level3_scalar)
NESTED_MODES(fortran_scalar)

static const struct modes *current;

static double value_of_current(double *x, void *ctx) {
  (void)ctx;
  return current->f(x);
}

static void check_nested(const struct modes *m) {
  double x[NX], v[NX], g[NX] = {0}, hv[NX], fd[NX], vhv = 0;
  char what[64];
  for (int i = 0; i < NX; ++i) {
    x[i] = 0.4 * sin(1.7 * i + 0.3) + 0.1;
    v[i] = cos(0.9 * i) - 0.2;
  }
  current = m;
  m->grad(x, g);
  snprintf(what, sizeof what, "%s gradient", m->name);
  check_grad_fd(what, g, value_of_current, NULL, x, NX);

  // Central differences of the gradient along v.
  const double h = 1e-5, rtol = 1e-6, atol = 1e-7;
  double xp[NX], xm[NX], gp[NX] = {0}, gm[NX] = {0};
  for (int i = 0; i < NX; ++i) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  m->grad(xp, gp);
  m->grad(xm, gm);
  for (int i = 0; i < NX; ++i) {
    fd[i] = (gp[i] - gm[i]) / (2 * h);
    vhv += v[i] * fd[i];
  }

  void (*hvps[3])(const double *, const double *, double *) = {
      m->fwd_over_rev, m->rev_over_rev, m->rev_over_fwd};
  const char *orders[3] = {"forward over reverse", "reverse over reverse",
                           "reverse over forward"};
  for (int k = 0; k < 3; ++k) {
    // Twice: a second call must not see what the first left.
    for (int call = 0; call < 2; ++call) {
      for (int i = 0; i < NX; ++i)
        hv[i] = 0;
      hvps[k](x, v, hv);
      for (int i = 0; i < NX; ++i) {
        snprintf(what, sizeof what, "%s %s call %d [%d]", m->name, orders[k],
                 call, i);
        check_close(what, hv[i], fd[i], rtol, atol);
      }
    }
  }
  snprintf(what, sizeof what, "%s forward over forward", m->name);
  check_close(what, m->fwd_over_fwd(x, v), vhv, rtol, atol * NX);
}

/* 24 steps of a state updated in place through BLAS. */
static double simulate(double *x) {
  double A[9], s[3] = {x[0], x[1], x[2]}, M[9];
  for (int i = 0; i < 9; ++i)
    A[i] = 0.3 * x[3 + i] + (i % 4 == 0 ? 2 : 0);
  for (int t = 0; t < 24; ++t) {
    double r[3];
    cblas_dgemv(CblasRowMajor, CblasNoTrans, 3, 3, 0.2, A, 3, s, 1, 0.0, r, 1);
    for (int i = 0; i < 3; ++i)
      r[i] = sin(r[i]);
    cblas_daxpy(3, x[12], r, 1, s, 1);
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, 3, A,
                3, s, 1);
    cblas_dscal(3, 1.5, s, 1);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 3, 3, 0.01, A, 3,
                A, 3, 0.0, M, 3);
    cblas_daxpy(9, 1.0, M, 1, A, 1);
    for (int i = 0; i < 3; ++i)
      A[4 * i] = 2 + 0.1 * sin(A[4 * i]);
  }
  return cblas_ddot(3, s, 1, s, 1) + finish(A, 9);
}

static void plain_gradient(double *x, double *g) {
  __enzyme_autodiff((void *)simulate, enzyme_dup, x, g);
}
static void checkpointed_gradient(double *x, double *g) {
  __capsule_autodiff_checkpointed((void *)simulate, x, g);
}

static double value_of_simulate(double *x, void *ctx) {
  (void)ctx;
  return simulate(x);
}

static void check_over_checkpointed(void) {
  double x[NX], v[NX], g[NX] = {0}, hv[NX] = {0}, gc[NX] = {0},
                       hvc[NX] = {0};
  for (int i = 0; i < NX; ++i) {
    x[i] = 0.4 * sin(1.3 * i + 0.2);
    v[i] = cos(0.7 * i) - 0.1;
  }
  __enzyme_fwddiff_void((void *)plain_gradient, enzyme_dup, x, v, enzyme_dup,
                        g, hv);
  __enzyme_fwddiff_void((void *)checkpointed_gradient, enzyme_dup, x, v,
                        enzyme_dup, gc, hvc);
  check_grad_fd("simulate gradient", g, value_of_simulate, NULL, x, NX);
  double xp[NX], xm[NX], gp[NX] = {0}, gm[NX] = {0}, fd[NX];
  const double h = 1e-5;
  for (int i = 0; i < NX; ++i) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  plain_gradient(xp, gp);
  plain_gradient(xm, gm);
  for (int i = 0; i < NX; ++i)
    fd[i] = (gp[i] - gm[i]) / (2 * h);
  for (int i = 0; i < NX; ++i) {
    char what[64];
    snprintf(what, sizeof what, "simulate Hessian-vector product [%d]", i);
    check_close(what, hv[i], fd[i], 1e-6, 1e-7);
    snprintf(what, sizeof what, "simulate over checkpointed [%d]", i);
    check_close(what, hvc[i], hv[i], 1e-9, 1e-12);
    snprintf(what, sizeof what, "simulate checkpointed gradient [%d]", i);
    check_close(what, gc[i], g[i], 1e-12, 1e-15);
  }
}

int main(void) {
  check_over_checkpointed();
  check_nested(&level1_scalar_modes);
  check_nested(&level2_scalar_modes);
  check_nested(&level3_scalar_modes);
  check_nested(&fortran_scalar_modes);
  return check_report();
}
