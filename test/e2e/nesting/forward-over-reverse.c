// Forward over reverse: tangents of functions whose bodies call __enzyme_autodiff / __capsule_autodiff, the usual Hessian-vector product (the outer tangent of the inner shadow accumulates, as in Enzyme). The inner function with heap blocks, realloc, memcpy, pointers to constant data, a callee; a tape of many chunks; the inner call in a loop; second derivatives of scalars; Pearlmutter and Siskind's perturbation-confusion examples by value and through memory. Against closed forms and finite differences of the gradient (reverse mode, tested on its own).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: env CAPSULE_CHECKPOINT_ALL=1 %clang -O2 -g %capsule_cflags %s -o %t2c %capsule_ldflags -lm && %t2c
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include "check.h"
#include "nested-functions.h"

int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_scalar(void *, ...) __asm__("__enzyme_autodiff");
void __enzyme_fwddiff(void *, ...);
double __enzyme_fwddiff_scalar(void *, ...) __asm__("__enzyme_fwddiff");

/* ---- Hessian-vector products of g (nested-functions.h), Enzyme's way ---- */

static void g_grad(const double *x, double *dx) {
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx);
}
static void g_hvp(const double *x, const double *v, double *dx, double *hv) {
  __enzyme_fwddiff((void *)g_grad, enzyme_dup, x, v, enzyme_dup, dx, hv);
}

/* ---- An inner function with heap blocks, realloc, memcpy and pointers to
 * constant data (nested-functions.h) ---- */

#define BN 7
static void busy_grad(double *x, double *out, void *ctx) {
  (void)ctx;
  for (int i = 0; i < BN; i++)
    out[i] = 0;
  __capsule_autodiff((void *)heap_busy, capsule_dup, x, out, capsule_const,
                     BN);
}
static void busy_hvp(const double *x, const double *v, double *hv) {
  double dx[BN] = {0};
  for (int i = 0; i < BN; i++)
    hv[i] = 0;
  __capsule_fwddiff((void *)busy_grad, capsule_dup, x, v, capsule_dup, dx, hv,
                    capsule_const, (void *)0);
}

/* ---- Calls through a table of function pointers inside the inner gradient.
 * A checkpointed gradient of a function of the same type elsewhere in the
 * file (main) must not hold the nested calls back. ---- */

static double sq_sin(double x) { return x * x * sin(x); }
static double cubed(double x) { return x * x * x; }
static double (*const TABLE[2])(double) = {sq_sin, cubed};
static double through_table(const double *x, const int *which) {
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += TABLE[which[i]](x[i]);
  return s;
}
static void table_grad(const double *x, double *dx, const int *which) {
  __capsule_autodiff((void *)through_table, capsule_dup, x, dx, capsule_const,
                     which);
}
static double quartic(double x) { return x * x * x * x; }

/* ---- A long loop (nested-functions.h): its tape spans many chunks ---- */

static double chain_dir(double *x, double *v) {
  return __capsule_fwddiff((void *)chain, capsule_dup, x, v, capsule_const,
                           LONG_STEPS);
}

/* ---- Second derivatives of scalars: the inner gradient returns the
 * derivative of an active argument ---- */

static double dfr(double x) {
  return __enzyme_autodiff_scalar((void *)f, enzyme_out, x);
}
static double d2f_fr(double x) {
  return __enzyme_fwddiff_scalar((void *)dfr, enzyme_dup, x, 1.0);
}

/* The inner gradient called in a loop (nested-functions.h), differentiated
 * by forward mode. */
static double d_newton_cbrt_r(double a) {
  return __capsule_fwddiff((void *)newton_cbrt_r, a, 1.0);
}

#define D_FWD(fn, x) __capsule_fwddiff((void *)fn, x, 1.0)

static void g_grad_vfn(double *x, double *out, void *ctx) {
  (void)ctx;
  for (int i = 0; i < GN; i++)
    out[i] = 0;
  g_grad(x, out);
}

int main(void) {
  double gx[GN] = {0.3, -0.7, 1.1, 0.4}, v[GN] = {1.0, 0.5, -0.25, 2.0};
  double h[GN][GN], grad[GN], hv_cf[GN];
  g_hess_cf(gx, h);
  g_grad_cf(gx, grad);
  for (int i = 0; i < GN; i++) {
    hv_cf[i] = 0;
    for (int j = 0; j < GN; j++)
      hv_cf[i] += h[i][j] * v[j];
  }
  /* The inner shadow accumulates; so does its tangent. */
  double dx[GN] = {0}, hv[GN] = {0};
  g_hvp(gx, v, dx, hv);
  check_vec_cf("Hv of g", hv, hv_cf, GN);
  check_jvp_fd("Hv of g against FD of the gradient", hv, g_grad_vfn, NULL, gx,
               v, GN, GN);
  check_vec_cf("the gradient beside it", dx, grad, GN);
  g_hvp(gx, v, dx, hv);
  for (int i = 0; i < GN; i++) {
    hv_cf[i] *= 2;
    grad[i] *= 2;
  }
  check_vec_cf("Hv accumulated by a second call", hv, hv_cf, GN);
  check_vec_cf("gradient accumulated by a second call", dx, grad, GN);

  double bx[BN] = {0.3, -0.2, 0.9, 1.4, -0.6, 0.25, 0.75},
         bv[BN] = {1, -0.5, 0.25, 2, 0.1, -1, 0.3}, bhv[BN];
  busy_hvp(bx, bv, bhv);
  check_jvp_fd("Hv through heap, realloc, memcpy and constant data", bhv,
               busy_grad, NULL, bx, bv, BN, BN);

  /* Against reverse over forward (test/e2e/nesting/reverse-over-forward.c):
   * finite differences of a gradient summed over so many steps lose too
   * many digits. */
  double cx[4] = {0.2, -0.3, 0.4, 0.1}, cv[4] = {0.5, 1, -1, 0.25}, cd[4],
         chv[4] = {0}, cref[4] = {0}, cv_copy[4], dcv[4] = {0};
  __capsule_fwddiff((void *)chain_grad, capsule_dup, cx, cv, capsule_dup, cd,
                    chv, capsule_const, (void *)0);
  memcpy(cv_copy, cv, sizeof cv);
  __capsule_autodiff((void *)chain_dir, capsule_dup, cx, cref, capsule_dup,
                     cv_copy, dcv);
  for (int i = 0; i < 4; i++)
    check_close("Hv with a tape of many chunks", chv[i], cref[i], 1e-9, 1e-9);
  double tx[3] = {0.5, 1.5, -0.7}, tv[3] = {1, 2, 3}, tdx[3] = {0},
         thv[3] = {0};
  int which[3] = {0, 1, 0};
  __capsule_fwddiff((void *)table_grad, capsule_dup, tx, tv, capsule_dup, tdx,
                    thv, capsule_const, which);
  for (int i = 0; i < 3; i++) {
    double t = tx[i];
    double second = which[i] ? 6 * t
                             : 2 * sin(t) + 4 * t * cos(t) - t * t * sin(t);
    check_cf("Hv through a table of function pointers", thv[i],
             second * tv[i]);
  }
  check_cf("a checkpointed gradient beside them",
           __capsule_autodiff_checkpointed((void *)quartic, 1.5),
           4 * 1.5 * 1.5 * 1.5);

  double x = 0.8;
  check_cf("f'' (forward over reverse)", d2f_fr(x), f2_cf(x));
  double a = 5.0, r = cbrt(a);
  check_close("Newton's cube root, slopes by reverse mode",
              d_newton_cbrt_r(a), 1 / (3 * r * r), 1e-12, 1e-15);
  check_cf("perturbation confusion, by value", D_FWD(pc_value_r, x), 1.0);
  check_cf("perturbation confusion, memory const to the inner call",
           D_FWD(pc_memory_const_r, x), 1.0);
  check_cf("perturbation confusion, memory with its own shadow",
           D_FWD(pc_memory_dup_r, x), 1.0);
  check_cf("perturbation confusion, x (dy (x y))", D_FWD(pc_product_r, x),
           2 * x);
  return check_report();
}
