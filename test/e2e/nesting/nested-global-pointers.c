// Nested differentiation of functions that reach their data through globals holding pointers: a pointer to a global scalar, to a global array, a struct with a pointer field, a pointer set to the outer call's own memory inside the outer function and one set in main to the outer call's dup argument (both aliasing the inner call's argument). Forward over reverse, reverse over forward, forward over forward and reverse over reverse, in an order where one level's shadow globals must not leak into the next call's, against closed forms and finite differences, at -O0 to -O3.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include "check.h"

#include <capsule/capsule.h>

void __capsule_autodiff_v(void *, ...);

/* ---- A scalar function reading its parameters through pointers ---- */

double scale_value = 2.0;
double *scale = &scale_value;
double W[3] = {0.5, -1.0, 1.5};
double *wp = W;
struct config {
  double *coefficients;
  int n;
};
double C[3] = {0.25, 0.75, -0.5};
struct config cfg = {C, 3};

/* f(y) = s y^3 + W_1 y + C_2 y^2 */
static double f(double y) {
  return *scale * y * y * y + wp[1] * y + cfg.coefficients[2] * y * y;
}
static double f2_cf(double y) { return 6 * scale_value * y + 2 * C[2]; }

static double df_r(double x) { return __capsule_autodiff((void *)f, x); }
static double df_f(double x) { return __capsule_fwddiff((void *)f, x, 1.0); }
static double d2f_fr(double x) { return __capsule_fwddiff((void *)df_r, x, 1.0); }
static double d2f_rr(double x) { return __capsule_autodiff((void *)df_r, x); }
static double d2f_rf(double x) { return __capsule_autodiff((void *)df_f, x); }
static double d2f_ff(double x) { return __capsule_fwddiff((void *)df_f, x, 1.0); }

/* ---- An array function whose global pointer aliases its argument:
 * g(x) = sum_i W_i x_i^2 + state_i x_i with state = x, so its gradient
 * is (2 W_i + 2) x_i and its Hessian diag(2 W_i + 2) ---- */

double *state;
static double g(const double *x) {
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += wp[i] * x[i] * x[i] + state[i] * x[i];
  return s;
}
static void g_grad(double *x, double *dx) {
  state = x;
  __capsule_autodiff((void *)g, capsule_dup, x, dx);
}
static double g_dir(double *x, double *v) {
  state = x;
  return __capsule_fwddiff((void *)g, capsule_dup, x, v);
}
static double g_grad_dot(double *x, const double *v) {
  double dx[3] = {0};
  g_grad(x, dx);
  return dx[0] * v[0] + dx[1] * v[1] + dx[2] * v[2];
}
static double g_grad_dot_fd(double *x, void *v) { return g_grad_dot(x, v); }

/* ---- A global pointer main sets to the outer call's dup argument, which
 * the outer function passes on to the inner call: h(x) = sum C_i x_i gp_i
 * = sum C_i x_i^2 ---- */

double *gp;
static double h(const double *x) {
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += C[i] * x[i] * gp[i];
  return s;
}
static double h_grad_dot(double *x, const double *v) {
  double dx[3] = {0};
  __capsule_autodiff((void *)h, capsule_dup, x, dx);
  return dx[0] * v[0] + dx[1] * v[1] + dx[2] * v[2];
}

int main(void) {
  double y = 0.7;
  /* Forward over reverse first: its shadow globals must not leak into the
   * calls after it. */
  check_scalar("f'' forward over reverse", d2f_fr(y), df_r, y, f2_cf(y));
  check_scalar("f'' forward over forward", d2f_ff(y), df_f, y, f2_cf(y));
  check_scalar("f'' reverse over forward", d2f_rf(y), df_f, y, f2_cf(y));
  check_scalar("f'' reverse over reverse", d2f_rr(y), df_r, y, f2_cf(y));
  check_scalar("f'' forward over reverse again", d2f_fr(y), df_r, y,
               f2_cf(y));

  double x[3] = {0.3, -0.4, 0.8}, v[3] = {1, 2, -1}, hv_cf[3], grad_cf[3];
  for (int i = 0; i < 3; i++) {
    hv_cf[i] = (2 * W[i] + 2) * v[i];
    grad_cf[i] = (2 * W[i] + 2) * x[i];
  }
  double dx[3] = {0}, hv[3] = {0};
  __capsule_fwddiff((void *)g_grad, capsule_dup, x, v, capsule_dup, dx, hv);
  check_vec_cf("Hv, forward over reverse", hv, hv_cf, 3);
  check_vec_cf("the gradient beside it", dx, grad_cf, 3);

  double rx[3] = {0}, rv[3] = {0};
  __capsule_autodiff_v((void *)g_dir, capsule_dup, x, rx, capsule_dup, v, rv);
  check_vec_cf("Hv, reverse over forward", rx, hv_cf, 3);
  check_vec_cf("the gradient from v's shadow", rv, grad_cf, 3);

  double w[3] = {0.5, -1, 2}, zero[3] = {0}, whv_cf = 0;
  for (int i = 0; i < 3; i++)
    whv_cf += w[i] * hv_cf[i];
  check_cf("w'Hv, forward over forward",
           __capsule_fwddiff((void *)g_dir, capsule_dup, x, w, capsule_dup, v,
                             zero),
           whv_cf);

  double rr[3] = {0};
  __capsule_autodiff_v((void *)g_grad_dot, capsule_dup, x, rr, capsule_const,
                       v);
  check_grad_cf_fd("Hv, reverse over reverse", rr, hv_cf, g_grad_dot_fd, v, x,
                   3);

  double hx[3] = {0}, hhv_cf[3];
  for (int i = 0; i < 3; i++)
    hhv_cf[i] = 2 * C[i] * v[i];
  gp = x;
  __capsule_autodiff_v((void *)h_grad_dot, capsule_dup, x, hx, capsule_const,
                       v);
  check_vec_cf("Hv through a pointer set before the outer call", hx, hhv_cf,
               3);
  return check_report();
}
