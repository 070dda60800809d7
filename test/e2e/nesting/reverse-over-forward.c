// Reverse over forward: gradients of functions whose bodies call __capsule_fwddiff. Hessian-vector products (the gradient of g'(x)v: Hv into x's shadow, g'(x) into v's), second and third derivatives, a heap block grown by realloc, the inner call in a loop, Pearlmutter and Siskind's perturbation-confusion examples by value and through memory, memory without derivatives written at both levels. Against closed forms and finite differences of the inner derivative.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: env CAPSULE_CHECKPOINT_ALL=1 %clang -O2 -g %capsule_cflags %s -o %t2c %capsule_ldflags -lm && %t2c
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include "check.h"
#include "nested-functions.h"

void __capsule_autodiff_v(void *, ...);

static double grow_dir_ctx(double *x, void *ctx) {
  double vs[GROW_N];
  memcpy(vs, ctx, sizeof vs);
  return grow_dir(x, vs);
}
static double grow_ctx(double *x, void *ctx) {
  (void)ctx;
  return grow(x, GROW_N);
}

static double g_dir_ctx(double *x, void *ctx) {
  double xs[GN], vs[GN];
  memcpy(xs, x, sizeof xs);
  memcpy(vs, ctx, sizeof vs);
  return g_dir(xs, vs);
}

int main(void) {
  double x = 0.8;
  check_scalar("f'' (reverse over forward)",
               __capsule_autodiff((void *)df, x), df, x, f2_cf(x));
  check_scalar("f''' (reverse over forward over forward)",
               __capsule_autodiff((void *)d2f, x), d2f, x, f3_cf(x));

  /* The gradient of g'(x)v: Hv with respect to x, g'(x) with respect to
   * v; shadows accumulate. */
  double gx[GN] = {0.3, -0.7, 1.1, 0.4}, v[GN] = {1.0, 0.5, -0.25, 2.0};
  double h[GN][GN], grad[GN], hv[GN];
  g_hess_cf(gx, h);
  g_grad_cf(gx, grad);
  for (int i = 0; i < GN; i++) {
    hv[i] = 0;
    for (int j = 0; j < GN; j++)
      hv[i] += h[i][j] * v[j];
  }
  double dx[GN] = {0}, dv[GN] = {0};
  __capsule_autodiff_v((void *)g_dir, capsule_dup, gx, dx, capsule_dup, v,
                       dv);
  check_grad_cf_fd("Hv", dx, hv, g_dir_ctx, v, gx, GN);
  check_vec_cf("g'(x) from v's shadow", dv, grad, GN);

  /* Through a block grown by realloc: the tangent blocks are reallocated
   * too. */
  double rx[GROW_N] = {0.3, -0.5, 0.8, 1.1, 0.2},
         rv[GROW_N] = {1, 0.5, -1, 2, -0.25}, rv_copy[GROW_N],
         rhv[GROW_N] = {0}, rg[GROW_N] = {0};
  memcpy(rv_copy, rv, sizeof rv);
  __capsule_autodiff_v((void *)grow_dir, capsule_dup, rx, rhv, capsule_dup,
                       rv_copy, rg);
  check_grad_fd("Hv through a block grown by realloc", rhv, grow_dir_ctx, rv,
                rx, GROW_N);
  check_grad_fd("the gradient from v's shadow", rg, grow_ctx, NULL, rx,
                GROW_N);

  double a = 5.0, r = cbrt(a);
  check_scalar("Newton's cube root, slopes by forward mode",
               __capsule_autodiff((void *)newton_cbrt, a), newton_cbrt, a,
               1 / (3 * r * r));

  check_scalar("perturbation confusion, by value",
               __capsule_autodiff((void *)pc_value, x), pc_value, x, 1.0);
  check_scalar("perturbation confusion, memory const to the inner call",
               __capsule_autodiff((void *)pc_memory_const, x),
               pc_memory_const, x, 1.0);
  check_scalar("perturbation confusion, memory with its own tangent",
               __capsule_autodiff((void *)pc_memory_dup, x), pc_memory_dup, x,
               1.0);
  check_scalar("perturbation confusion, x (dy (x y))",
               __capsule_autodiff((void *)pc_product, x), pc_product, x,
               2 * x);
  /* Memory without derivatives written at both levels: 8y (a tool that
   * mixed the levels' tangents of buf[1] would add 2y^2). */
  double buf[2] = {0, 0}, y = 0.9;
  scratch sc = {buf};
  check_cf("memory without derivatives, written at both levels",
           __capsule_autodiff((void *)scratch_dir, capsule_const, &sc, y), 8 * y);
  return check_report();
}
