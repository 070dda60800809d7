// Nested forward mode: tangents of functions whose bodies call __capsule_fwddiff. Second and third derivatives; w'Hv through memory (dup arrays at both levels); the inner function with a heap block and a callee; the inner call in a loop (Newton's method); Pearlmutter and Siskind's perturbation-confusion examples by value and through memory, memory without derivatives written at both levels; Enzyme's spelling. Against closed forms and finite differences of the inner derivative.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include "check.h"
#include "nested-functions.h"

int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);

static double df_enzyme(double x) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0);
}

/* For finite differences of the inner derivatives. */
static double g_dir_along(double t, const double *x, const double *w,
                          const double *v) {
  double xt[GN], vt[GN];
  for (int i = 0; i < GN; i++) {
    xt[i] = x[i] + t * w[i];
    vt[i] = v[i];
  }
  return g_dir(xt, vt);
}

int main(void) {
  double x = 0.8;
  check_scalar("f'' (forward over forward)",
               __capsule_fwddiff((void *)df, x, 1.0), df, x, f2_cf(x));
  check_scalar("f''' (three levels)", __capsule_fwddiff((void *)d2f, x, 1.0),
               d2f, x, f3_cf(x));
  check_cf("f' inside", df(x), f1_cf(x));
  check_scalar("f'' with Enzyme's spelling",
               __enzyme_fwddiff((void *)df_enzyme, enzyme_dup, x, 1.0),
               df_enzyme, x, f2_cf(x));

  /* w'Hv: the outer tangent of g'(x)v along w in x; with a tangent u of v
   * too, w'Hv + g'(x)u. */
  double gx[GN] = {0.3, -0.7, 1.1, 0.4}, v[GN] = {1.0, 0.5, -0.25, 2.0},
         w[GN] = {-0.5, 1.5, 0.75, 0.2}, u[GN] = {0.1, -0.2, 0.3, -0.4};
  double h[GN][GN], grad[GN], whv = 0, gu = 0;
  g_hess_cf(gx, h);
  g_grad_cf(gx, grad);
  for (int i = 0; i < GN; i++) {
    gu += grad[i] * u[i];
    for (int j = 0; j < GN; j++)
      whv += w[i] * h[i][j] * v[j];
  }
  double fd = (g_dir_along(1e-6, gx, w, v) - g_dir_along(-1e-6, gx, w, v)) /
              2e-6;
  check_ref("w'Hv closed form against fd", whv, fd);
  double xs[GN], vs[GN];
  memcpy(xs, gx, sizeof xs);
  memcpy(vs, v, sizeof vs);
  check_cf("w'Hv", __capsule_fwddiff((void *)g_dir, capsule_dup, xs, w,
                                     capsule_const, vs),
           whv);
  check_cf("w'Hv + g'u", __capsule_fwddiff((void *)g_dir, capsule_dup, xs, w,
                                           capsule_dup, vs, u),
           whv + gu);

  /* logsumexp: H = diag(p) - p p', p the softmax; w'Hv. */
  double lx[GN] = {0.2, -1.0, 0.5, 1.3}, p[GN], sum = 0, pv = 0, pw = 0,
         lwhv = 0;
  for (int i = 0; i < GN; i++)
    sum += exp(lx[i]);
  for (int i = 0; i < GN; i++) {
    p[i] = exp(lx[i]) / sum;
    pv += p[i] * v[i];
    pw += p[i] * w[i];
    lwhv += w[i] * p[i] * v[i];
  }
  lwhv -= pw * pv;
  memcpy(vs, v, sizeof vs);
  check_cf("logsumexp w'Hv (heap, callee)",
           __capsule_fwddiff((void *)lse_dir, capsule_dup, lx, w,
                             capsule_const, vs, capsule_const, GN),
           lwhv);

  /* d cbrt(a)/da = 1/(3 cbrt(a)^2), through 60 Newton steps. */
  double a = 5.0, r = cbrt(a);
  check_scalar("Newton's cube root, slopes by forward mode",
               __capsule_fwddiff((void *)newton_cbrt, a, 1.0), newton_cbrt, a,
               1 / (3 * r * r));

  /* Perturbation confusion: 1 everywhere (2 when confused); 2x. */
  check_scalar("perturbation confusion, by value",
               __capsule_fwddiff((void *)pc_value, x, 1.0), pc_value, x, 1.0);
  check_scalar("perturbation confusion, memory const to the inner call",
               __capsule_fwddiff((void *)pc_memory_const, x, 1.0),
               pc_memory_const, x, 1.0);
  check_scalar("perturbation confusion, memory with its own tangent",
               __capsule_fwddiff((void *)pc_memory_dup, x, 1.0), pc_memory_dup,
               x, 1.0);
  check_scalar("perturbation confusion, x (dy (x y))",
               __capsule_fwddiff((void *)pc_product, x, 1.0), pc_product, x,
               2 * x);
  /* Memory without derivatives written at both levels: 8y (a tool that
   * mixed the levels' tangents of buf[1] would add 2y^2). */
  double buf[2] = {0, 0}, y = 0.9;
  scratch sc = {buf};
  check_cf("memory without derivatives, written at both levels",
           __capsule_fwddiff((void *)scratch_dir, capsule_const, &sc, y, 1.0), 8 * y);
  return check_report();
}
