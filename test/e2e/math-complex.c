// C99 complex arithmetic: multiplication and division (which call __muldc3 and __divdc3), cexp, clog, csqrt, cpow, the trigonometric and hyperbolic functions and their inverses, cproj, conj, and the real results cabs, carg, creal and cimag, in double and float complex; complex values in memory (an array of them, updated in a loop); gradient, tangents (one by one and in vector mode) and the Hessian-vector product (forward over reverse) against finite differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g -ffast-math %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#include <complex.h>
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);
void __capsule_fwddiff_v(void *, ...);
/* Vector mode: the result's tangents in a struct, one per lane. */
int enzyme_width, enzyme_dupv;
typedef struct {
  double lane[4];
} lanes;
lanes __enzyme_fwddiff(void *, ...);

#define N 4

/* Every function, each argument active. z and w are away from the branch
 * cuts, so that finite differences see the derivative. */
static double f(const double *x) {
  double complex z = x[0] + I * x[1], w = x[2] + I * x[3];
  double complex a = z * w, b = z / w;
  double complex e = cexp(z) + clog(w) + csqrt(a) + cpow(z, w);
  double complex t = csin(z) * ccos(w) + ctan(z) + csinh(w) + ccosh(z) * ctanh(w);
  double complex u = casin(z) + cacos(w) + catan(z) + casinh(w) +
                     cacosh(z + 2) + catanh(w / 3);
  double complex v = conj(b) * cproj(e);
  return cabs(a + b) + carg(e) + creal(t * u) + cimag(v * t) + creal(u);
}
static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}

/* Complex values in memory: a polynomial's roots refined by Newton steps,
 * the roots kept in an array of double complex. */
static double newton_roots(const double *c) {
  double complex roots[3] = {1.0 + 0.5 * I, -1.0 + 0.5 * I, 0.2 - 1.0 * I};
  for (int step = 0; step < 6; step++)
    for (int k = 0; k < 3; k++) {
      double complex r = roots[k];
      double complex p = ((r + c[0]) * r + c[1]) * r + c[2];
      double complex dp = (3.0 * r + 2.0 * c[0]) * r + c[1];
      roots[k] = r - p / dp;
    }
  double s = 0;
  for (int k = 0; k < 3; k++)
    s += cabs(roots[k]) * (k + 1) + carg(roots[k] + 3.0);
  return s;
}
static double newton_fd(double *c, void *ctx) {
  (void)ctx;
  return newton_roots(c);
}

static float f_float(const float *x) {
  float complex z = x[0] + I * x[1], w = x[2] + I * x[3];
  float complex e = cexpf(z) * w / (z + 1.0f) + csqrtf(w) + clogf(z);
  return cabsf(e) + cargf(z * w) + crealf(e) * cimagf(e);
}
static double f_float_ref(double *x, void *ctx) {
  (void)ctx;
  double complex z = x[0] + I * x[1], w = x[2] + I * x[3];
  double complex e = cexp(z) * w / (z + 1.0) + csqrt(w) + clog(z);
  return cabs(e) + carg(z * w) + creal(e) * cimag(e);
}

/* The gradient as a function, for the Hessian-vector product. */
static void grad_f(const double *x, double *g) {
  for (int i = 0; i < N; i++)
    g[i] = 0;
  __capsule_autodiff_v((void *)f, capsule_dup, x, g);
}
static void grad_f_fd(double *x, double *g, void *ctx) {
  (void)ctx;
  grad_f(x, g);
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.4}, dx[N] = {0};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx);
  check_grad_fd("gradient", dx, f_fd, 0, x, N);
  for (int i = 0; i < N; i++) {
    double t[N] = {0};
    t[i] = 1;
    check_close("tangent", __capsule_fwddiff((void *)f, capsule_dup, x, t),
                check_fd_partial(f_fd, 0, x, N, i), CHECK_FD_RTOL,
                CHECK_FD_ATOL);
  }
  /* The whole gradient in one call of width 4. */
  double seeds[4][N] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  lanes all = __enzyme_fwddiff((void *)f, enzyme_width, 4, enzyme_dupv,
                               sizeof seeds[0], x, seeds);
  check_grad_fd("vector mode", all.lane, f_fd, 0, x, N);

  double v[N] = {0.5, -1.0, 0.25, 0.75}, g[N], hv[N];
  __capsule_fwddiff_v((void *)grad_f, capsule_dup, x, v, capsule_dup, g, hv);
  check_jvp_fd("Hessian-vector product", hv, grad_f_fd, 0, x, v, N, N);

  double c[3] = {0.4, -0.3, 1.2}, dc[3] = {0};
  __capsule_autodiff_v((void *)newton_roots, capsule_dup, c, dc);
  check_grad_fd("roots in memory", dc, newton_fd, 0, c, 3);

  float xf[N] = {0.3f, -0.7f, 1.1f, 0.4f}, dxf[N] = {0};
  double xd[N], dxd[N];
  __capsule_autodiff_v((void *)f_float, capsule_dup, xf, dxf);
  for (int i = 0; i < N; i++) {
    xd[i] = xf[i];
    dxd[i] = dxf[i];
  }
  /* float: ~1e-7 rounding per operation, reference in double. */
  check_grad_fd_tol("float complex", dxd, f_float_ref, 0, xd, N,
                    CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
  return check_report();
}
