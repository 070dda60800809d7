// A program's own rules for a CBLAS routine take precedence over Capsule's
// built-in ones: cblas_ddot with deliberately wrong rules (twice the true
// adjoints and tangent), registered in Enzyme's spelling, must show their
// effect; cblas_dnrm2 beside it keeps the built-in rule (against central
// differences).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lopenblas && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lopenblas && %t2
#include <capsule/capsule.h>
#include <cblas.h>
#include <stdlib.h>
#include "check.h"

typedef struct {
  void *tape;
  double result;
} tape_and_double;
typedef struct {
  double value, tangent;
} dual;

static tape_and_double dot_aug(int n, int dn, const double *x, double *dx,
                               int incx, int dincx, const double *y,
                               double *dy, int incy, int dincy) {
  double *copy = malloc(sizeof(double) * 2 * n);
  for (int i = 0; i < n; ++i) {
    copy[i] = x[i * incx];
    copy[n + i] = y[i * incy];
  }
  tape_and_double r = {copy, cblas_ddot(n, x, incx, y, incy)};
  return r;
}
static void dot_grad(int n, int dn, const double *x, double *dx, int incx,
                     int dincx, const double *y, double *dy, int incy,
                     int dincy, double dr, void *tape) {
  double *copy = tape;
  for (int i = 0; i < n; ++i) {
    dx[i * incx] += 2 * dr * copy[n + i];
    dy[i * incy] += 2 * dr * copy[i];
  }
  free(tape);
}
static dual dot_tan(int n, int dn, const double *x, const double *dx,
                    int incx, int dincx, const double *y, const double *dy,
                    int incy, int dincy) {
  dual r = {cblas_ddot(n, x, incx, y, incy),
            2 * (cblas_ddot(n, dx, incx, y, incy) +
                 cblas_ddot(n, x, incx, dy, incy))};
  return r;
}
void *__enzyme_register_gradient_ddot[3] = {(void *)cblas_ddot,
                                            (void *)dot_aug, (void *)dot_grad};
void *__enzyme_register_derivative_ddot[2] = {(void *)cblas_ddot,
                                              (void *)dot_tan};

#define N 4

static double dot_self(double *x) { return cblas_ddot(N, x, 1, x, 1); }
static double norm(double *x) { return cblas_dnrm2(N, x, 1); }
static double norm_fd(double *x, void *ctx) { return norm(x); }

int main(void) {
  double x[N] = {0.5, -1.0, 2.0, 0.25}, g[N] = {0}, v[N] = {1, 2, -1, 0.5};
  __capsule_autodiff((void *)dot_self, x, g);
  double want = 0;
  for (int i = 0; i < N; ++i) {
    check_cf("the own gradient rule", g[i], 4 * x[i]);
    want += 4 * x[i] * v[i];
  }
  check_cf("the own tangent rule", __capsule_fwddiff((void *)dot_self, x, v),
           want);
  double gn[N] = {0};
  __capsule_autodiff((void *)norm, x, gn);
  check_grad_fd("built-in dnrm2 beside it", gn, norm_fd, NULL, x, N);
  return check_report();
}
