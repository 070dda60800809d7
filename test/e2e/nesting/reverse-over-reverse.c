// Reverse over reverse: gradients of functions whose bodies call __enzyme_autodiff / __capsule_autodiff. Second derivatives of scalars (Enzyme's spelling), the gradient of a function of a gradient (Hv with respect to x, the gradient with respect to v), the inner function with heap blocks, realloc, memcpy, stack arrays, a callee and a global, pointers to constant data beside pointers to active data, a tape of many chunks, several inner calls in one outer call, the inner call in a loop, Pearlmutter and Siskind's perturbation-confusion examples by value and through memory. Against closed forms, finite differences of the gradient (reverse mode, tested on its own) and forward over reverse.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: env CAPSULE_CHECKPOINT_ALL=1 %clang -O2 -g %capsule_cflags %s -o %t2c %capsule_ldflags -lm && %t2c
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include "check.h"
#include "nested-functions.h"

#include <string.h>

int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
void __capsule_autodiff_v(void *, ...);

/* ---- f'' of a scalar, Enzyme's way: the gradient of a function that
 * returns a gradient ---- */

static double df_r(double x) {
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}
static double d2f_rr(double x) {
  return __enzyme_autodiff((void *)df_r, enzyme_out, x);
}

/* ---- Functions of the gradient of g (nested-functions.h): the gradient
 * of psi(x, v) = grad g(x) . v is Hv with respect to x and grad g(x) with
 * respect to v; the inner shadow dx is memory of the outer function's own.
 * ---- */

static double psi(const double *x, const double *v) {
  double dx[GN] = {0};
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx);
  double s = 0;
  for (int i = 0; i < GN; i++)
    s += dx[i] * v[i];
  return s;
}
static double psi_x(double *x, void *v) { return psi(x, v); }

/* phi(x) = sum_i w_i (grad g(x))_i^2: the inner shadow is read twice and
 * squared. grad phi = 2 H (w . grad g). */
static const double W[GN] = {1.0, -0.5, 2.0, 0.25};
static double phi(const double *x) {
  double dx[GN] = {0};
  __capsule_autodiff((void *)g, capsule_dup, x, dx);
  double s = 0;
  for (int i = 0; i < GN; i++)
    s += W[i] * dx[i] * dx[i];
  return s;
}
static double phi_x(double *x, void *ctx) {
  (void)ctx;
  return phi(x);
}

/* The outer function's own heap block holds the inner shadow: its free is
 * postponed to the end of the outer call, not the inner one. */
static double psi_heap(const double *x, const double *v) {
  double *dx = calloc(GN, sizeof(double));
  __capsule_autodiff((void *)g, capsule_dup, x, dx);
  double s = 0;
  for (int i = 0; i < GN; i++)
    s += dx[i] * v[i];
  free(dx);
  return s;
}

/* Two inner calls in one outer call, the second at 2x: their records
 * reuse the same tape chunk and its adjoint twin. */
static double psi2(const double *x, const double *v) {
  double x2[GN];
  for (int i = 0; i < GN; i++)
    x2[i] = 2 * x[i];
  return psi(x, v) + psi(x2, v);
}

/* ---- An inner function with heap blocks, memcpy, a stack array, a callee
 * and a global of numbers ---- */

static double SCALE[2] = {0.75, 1.5};
#define BN 6
static double weighted_sum(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += SCALE[i % 2] * a[i];
  return s;
}
static double busy(const double *x, int n) {
  double *sq = malloc((size_t)n * sizeof(double));
  for (int i = 0; i < n; i++)
    sq[i] = x[i] * x[(i + 1) % n];
  double *copy = malloc((size_t)n * sizeof(double));
  memcpy(copy, sq, (size_t)n * sizeof(double));
  double local[BN];
  for (int i = 0; i < n; i++)
    local[i] = sin(copy[i]) * x[i];
  double s = weighted_sum(local, n) * exp(0.1 * weighted_sum(sq, n));
  free(copy);
  free(sq);
  return s;
}
/* The gradient of busy, and a function of it: sum_i u_i (grad busy)_i^2
 * + x_0 (grad busy)_1. */
static void busy_grad(const double *x, double *dx) {
  for (int i = 0; i < BN; i++)
    dx[i] = 0;
  __capsule_autodiff((void *)busy, capsule_dup, x, dx, capsule_const, BN);
}
static double busy_outer(double *x, void *ctx) {
  (void)ctx;
  double dx[BN];
  busy_grad(x, dx);
  double s = x[0] * dx[1];
  for (int i = 0; i < BN; i++)
    s += (0.5 + i) * dx[i] * dx[i];
  return s;
}

/* ---- An inner function that keeps a pointer to constant data beside one
 * to its argument in a heap block: the inner gradient gives the constant
 * data places in its sink ---- */

static const double K[3] = {1.5, 2.5, -0.5};
typedef struct {
  const double *k;
  double *v;
} pair;
__attribute__((noinline)) static double use_pair(const pair *p, int i) {
  return p->k[i] * p->v[i] * p->v[(i + 1) % 3];
}
static double via_constant(double *x) {
  pair *p = malloc(sizeof(pair));
  *p = (pair){K, x};
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += use_pair(p, i) * sin(x[i]);
  free(p);
  return s;
}
static void via_constant_grad(double *x, double *dx, void *ctx) {
  (void)ctx;
  dx[0] = dx[1] = dx[2] = 0;
  __capsule_autodiff((void *)via_constant, capsule_dup, x, dx);
}
static double via_constant_dot(double *x, const double *v) {
  double dx[3];
  via_constant_grad(x, dx, NULL);
  return dx[0] * v[0] + dx[1] * v[1] + dx[2] * v[2];
}

/* ---- An inner function that grows a heap block with realloc
 * (nested-functions.h) ---- */

static void grow_grad(double *x, double *dx, void *ctx) {
  (void)ctx;
  for (int i = 0; i < GROW_N; i++)
    dx[i] = 0;
  __capsule_autodiff((void *)grow, capsule_dup, x, dx, capsule_const, GROW_N);
}
static double grow_dot(double *x, const double *v) {
  double dx[GROW_N];
  grow_grad(x, dx, NULL);
  double s = 0;
  for (int i = 0; i < GROW_N; i++)
    s += dx[i] * v[i];
  return s;
}

/* ---- A long loop (nested-functions.h): the inner tape spans many chunks
 * ---- */

static double chain_dot(double *x, const double *v) {
  double dx[4];
  chain_grad(x, dx, NULL);
  return dx[0] * v[0] + dx[1] * v[1] + dx[2] * v[2] + dx[3] * v[3];
}

#define D_REV(fn, x) __capsule_autodiff((void *)fn, x)

int main(void) {
  double x = 0.8;
  check_scalar("f'' (reverse over reverse, Enzyme's spelling)", d2f_rr(x),
               df_r, x, f2_cf(x));

  double gx[GN] = {0.3, -0.7, 1.1, 0.4}, v[GN] = {1.0, 0.5, -0.25, 2.0};
  double h[GN][GN], grad[GN], hv[GN], gphi[GN];
  g_hess_cf(gx, h);
  g_grad_cf(gx, grad);
  for (int i = 0; i < GN; i++) {
    hv[i] = gphi[i] = 0;
    for (int j = 0; j < GN; j++) {
      hv[i] += h[i][j] * v[j];
      gphi[i] += 2 * h[i][j] * W[j] * grad[j];
    }
  }
  /* Shadows accumulate, at both levels. */
  double dx[GN] = {0}, dv[GN] = {0};
  __capsule_autodiff_v((void *)psi, capsule_dup, gx, dx, capsule_dup, v, dv);
  check_grad_cf_fd("Hv (the gradient of grad g . v)", dx, hv, psi_x, v, gx,
                   GN);
  check_vec_cf("grad g from v's shadow", dv, grad, GN);
  __capsule_autodiff_v((void *)psi, capsule_dup, gx, dx, capsule_dup, v, dv);
  for (int i = 0; i < GN; i++) {
    dx[i] -= hv[i];
    dv[i] -= grad[i];
  }
  check_vec_cf("Hv accumulated by a second call", dx, hv, GN);
  check_vec_cf("grad g accumulated by a second call", dv, grad, GN);

  double dh[GN] = {0}, dvh[GN] = {0};
  __capsule_autodiff_v((void *)psi_heap, capsule_dup, gx, dh, capsule_dup, v,
                       dvh);
  check_vec_cf("Hv with the inner shadow on the outer call's heap", dh, hv,
               GN);
  check_vec_cf("grad g beside it", dvh, grad, GN);

  double dphi[GN] = {0};
  __capsule_autodiff_v((void *)phi, capsule_dup, gx, dphi);
  check_grad_cf_fd("grad of sum w (grad g)^2", dphi, gphi, phi_x, NULL, gx,
                   GN);

  /* psi2: Hv at x plus 2 H(2x) v (the chain rule of x -> 2x). */
  double gx2[GN], h2[GN][GN], hv2[GN], d2[GN] = {0}, dv2[GN] = {0};
  for (int i = 0; i < GN; i++)
    gx2[i] = 2 * gx[i];
  g_hess_cf(gx2, h2);
  for (int i = 0; i < GN; i++) {
    hv2[i] = hv[i];
    for (int j = 0; j < GN; j++)
      hv2[i] += 2 * h2[i][j] * v[j];
  }
  __capsule_autodiff_v((void *)psi2, capsule_dup, gx, d2, capsule_dup, v,
                       dv2);
  check_vec_cf("two inner calls in one outer call", d2, hv2, GN);

  double bx[BN] = {0.3, -0.2, 0.9, 1.4, -0.6, 0.25}, bd[BN] = {0};
  __capsule_autodiff_v((void *)busy_outer, capsule_dup, bx, bd,
                       capsule_const, (void *)0);
  check_grad_fd("through heap, memcpy, a stack array, a callee and a global",
                bd, busy_outer, NULL, bx, BN);

  double kx[3] = {0.3, -0.4, 0.8}, kv[3] = {1, 2, -1}, khv[3] = {0};
  __capsule_autodiff_v((void *)via_constant_dot, capsule_dup, kx, khv,
                       capsule_const, kv);
  check_jvp_fd("Hv beside pointers to constant data", khv, via_constant_grad,
               NULL, kx, kv, 3, 3);

  double rx[GROW_N] = {0.3, -0.5, 0.8, 1.1, 0.2},
         rv[GROW_N] = {1, 0.5, -1, 2, -0.25}, rhv[GROW_N] = {0};
  __capsule_autodiff_v((void *)grow_dot, capsule_dup, rx, rhv, capsule_const,
                       rv);
  check_jvp_fd("Hv through a block grown by realloc", rhv, grow_grad, NULL, rx,
               rv, GROW_N, GROW_N);

  /* Against forward over reverse (test/e2e/nesting/forward-over-reverse.c):
   * finite differences of a gradient summed over so many steps lose too
   * many digits. Twice: the second call reuses the first one's chunks. */
  double cx[4] = {0.2, -0.3, 0.4, 0.1}, cv[4] = {0.5, 1, -1, 0.25}, cd[4],
         chv[4] = {0};
  __capsule_fwddiff((void *)chain_grad, capsule_dup, cx, cv, capsule_dup, cd,
                    chv, capsule_const, (void *)0);
  for (int round = 0; round < 2; round++) {
    double cref[4] = {0}, cv_copy[4];
    memcpy(cv_copy, cv, sizeof cv);
    __capsule_autodiff_v((void *)chain_dot, capsule_dup, cx, cref,
                         capsule_const, cv_copy);
    for (int i = 0; i < 4; i++)
      check_close("Hv with an inner tape of many chunks", cref[i], chv[i],
                  1e-9, 1e-9);
  }

  double a = 5.0, r = cbrt(a);
  check_scalar("Newton's cube root, slopes by reverse mode",
               D_REV(newton_cbrt_r, a), newton_cbrt_r, a, 1 / (3 * r * r));
  check_scalar("perturbation confusion, by value", D_REV(pc_value_r, x),
               pc_value_r, x, 1.0);
  check_scalar("perturbation confusion, memory const to the inner call",
               D_REV(pc_memory_const_r, x), pc_memory_const_r, x, 1.0);
  check_scalar("perturbation confusion, memory with its own shadow",
               D_REV(pc_memory_dup_r, x), pc_memory_dup_r, x, 1.0);
  check_scalar("perturbation confusion, x (dy (x y))", D_REV(pc_product_r, x),
               pc_product_r, x, 2 * x);
  /* A plain gradient after them all uses the inner tape as before. */
  check_cf("a plain gradient beside them", D_REV(cube, 1.5), 3 * 1.5 * 1.5);
  return check_report();
}
