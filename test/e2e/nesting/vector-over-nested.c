// Vector forward mode over code that differentiates. Over reverse, batched
// Hessian-vector products: a tangent of width W (enzyme_width) of a
// function whose body calls the gradient marker gives W products in one
// call, each lane equal to the width-1 product along its direction
// (forward over reverse, tested on its own in forward-over-reverse.c) and,
// for g, to the closed-form Hessian times it; the whole Hessian of g in
// ceil(n/W) calls for W = 2, 3, 4. Through heap blocks, realloc, memcpy and
// pointers to constant data (heap_busy), and an inner tape of many chunks
// (chain), whose twins each lane keeps apart. Over forward and reverse by
// value and through memory: Pearlmutter and Siskind's perturbation-confusion
// examples and Newton's method with an inner derivative, three lanes
// against closed forms.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include "check.h"
#include "nested-functions.h"

int enzyme_width, enzyme_dupv, enzyme_dup, enzyme_const;
void __enzyme_fwddiff(void *, ...);

static void g_grad(const double *x, double *dx) {
  __capsule_autodiff((void *)g, capsule_dup, x, dx);
}

/* W products of g's Hessian: V and HV hold W vectors of GN, one after the
 * other. */
static void g_hvps(int w, const double *x, const double *V, double *HV) {
  double dx[4 * GN] = {0};
  for (int i = 0; i < w * GN; i++)
    HV[i] = 0;
  const long stride = GN * sizeof(double);
  switch (w) {
  case 2:
    __enzyme_fwddiff((void *)g_grad, enzyme_width, 2, enzyme_dupv, stride, x,
                     V, enzyme_dupv, stride, dx, HV);
    break;
  case 3:
    __enzyme_fwddiff((void *)g_grad, enzyme_width, 3, enzyme_dupv, stride, x,
                     V, enzyme_dupv, stride, dx, HV);
    break;
  case 4:
    __enzyme_fwddiff((void *)g_grad, enzyme_width, 4, enzyme_dupv, stride, x,
                     V, enzyme_dupv, stride, dx, HV);
    break;
  }
}

static void g_hvp(const double *x, const double *v, double *hv) {
  double dx[GN] = {0};
  for (int i = 0; i < GN; i++)
    hv[i] = 0;
  __enzyme_fwddiff((void *)g_grad, enzyme_dup, x, v, enzyme_dup, dx, hv);
}

#define BN 7
static void busy_grad(const double *x, double *dx) {
  for (int i = 0; i < BN; i++)
    dx[i] = 0;
  __capsule_autodiff((void *)heap_busy, capsule_dup, x, dx, capsule_const, BN);
}

static void chain_grad2(const double *x, double *dx) {
  chain_grad((double *)x, dx, NULL);
}

/* Lane k of a width-4 call of GRAD against a width-1 call along the same
 * direction, for N inputs (a macro: the marker names its function). */
#define CHECK_LANES_AGAINST_WIDTH1(what, GRAD, x, V, N, rtol)                   \
  do {                                                                         \
    double HV[4 * BN] = {0}, dx[4 * BN] = {0};                                 \
    const long stride = (N) * (long)sizeof(double);                            \
    __enzyme_fwddiff((void *)GRAD, enzyme_width, 4, enzyme_dupv, stride, x, V, \
                     enzyme_dupv, stride, dx, HV);                             \
    for (int k = 0; k < 4; k++) {                                              \
      double hv[BN] = {0}, d1[BN] = {0};                                       \
      __enzyme_fwddiff((void *)GRAD, enzyme_dup, x, (V) + k * (N), enzyme_dup, \
                       d1, hv);                                                \
      for (int i = 0; i < (N); i++)                                            \
        check_close(what, HV[k * (N) + i], hv[i], rtol, 1e-12);                \
    }                                                                          \
  } while (0)

typedef struct {
  double d[3];
} three;
three __enzyme_fwddiff_three(void *, ...);

/* Three lanes of d/dx FN at x, seeds 1, -2 and 0.5, against the closed
 * form of the derivative DFDX. */
#define CHECK_THREE_LANES(what, FN, x, DFDX)                                   \
  do {                                                                         \
    three t = __enzyme_fwddiff_three((void *)FN, enzyme_width, 3, x, 1.0,      \
                                     -2.0, 0.5);                               \
    const double seeds[3] = {1.0, -2.0, 0.5};                                  \
    for (int k = 0; k < 3; k++)                                                \
      check_close(what, t.d[k], (DFDX) * seeds[k], 1e-12, 1e-15);              \
  } while (0)

int main(void) {
  double x[GN] = {0.3, -0.7, 1.1, 0.4};
  double h[GN][GN];
  g_hess_cf(x, h);
  /* The whole Hessian, W columns of the identity per call; the last call's
   * lanes past n get zero directions and must give zero. */
  for (int w = 2; w <= 4; w++) {
    for (int first = 0; first < GN; first += w) {
      double V[4 * GN] = {0}, HV[4 * GN];
      for (int k = 0; k < w && first + k < GN; k++)
        V[k * GN + first + k] = 1;
      g_hvps(w, x, V, HV);
      for (int k = 0; k < w; k++)
        for (int i = 0; i < GN; i++)
          check_cf("a Hessian column from one lane", HV[k * GN + i],
                   first + k < GN ? h[i][first + k] : 0);
    }
  }
  /* Random directions: each lane against the closed form and the width-1
   * product. */
  double V[3 * GN] = {1.0, 0.5, -0.25, 2.0, -0.3, 0.8, 1.7, 0.05,
                      0.6, -1.1, 0.4, -0.9};
  double HV[3 * GN];
  g_hvps(3, x, V, HV);
  for (int k = 0; k < 3; k++) {
    double hv[GN];
    g_hvp(x, V + k * GN, hv);
    for (int i = 0; i < GN; i++) {
      double want = 0;
      for (int j = 0; j < GN; j++)
        want += h[i][j] * V[k * GN + j];
      check_cf("a lane's product against the closed form", HV[k * GN + i],
               want);
      check_close("a lane's product against width 1", HV[k * GN + i], hv[i],
                  1e-13, 1e-15);
    }
  }

  double bx[BN] = {0.4, -0.2, 0.9, 1.3, -0.6, 0.35, 0.8};
  double bV[4 * BN];
  for (int i = 0; i < 4 * BN; i++)
    bV[i] = sin(1.0 + 0.7 * i);
  CHECK_LANES_AGAINST_WIDTH1(
      "lanes through heap, realloc, memcpy and constant data", busy_grad, bx,
      bV, BN, 1e-13);
  double cx[4] = {0.2, -0.3, 0.4, 0.1};
  double cV[16];
  for (int i = 0; i < 16; i++)
    cV[i] = cos(0.3 * i);
  CHECK_LANES_AGAINST_WIDTH1("lanes with an inner tape of many chunks",
                             chain_grad2, cx, cV, 4, 1e-12);

  /* Perturbation confusion: d/dx x (d/dy (x + y)) = 1, d/dx x (d/dy x y at
   * y = 2) = 2x, the inner derivative forward or reverse. */
  double px = 1.7;
  CHECK_THREE_LANES("no perturbation confusion (forward, by value)", pc_value,
                    px, 1.0);
  CHECK_THREE_LANES("no perturbation confusion (forward, constant memory)",
                    pc_memory_const, px, 1.0);
  CHECK_THREE_LANES("no perturbation confusion (forward, dup memory)",
                    pc_memory_dup, px, 1.0);
  CHECK_THREE_LANES("no perturbation confusion (forward, product)",
                    pc_product, px, 2 * px);
  CHECK_THREE_LANES("no perturbation confusion (reverse, by value)",
                    pc_value_r, px, 1.0);
  CHECK_THREE_LANES("no perturbation confusion (reverse, constant memory)",
                    pc_memory_const_r, px, 1.0);
  CHECK_THREE_LANES("no perturbation confusion (reverse, dup memory)",
                    pc_memory_dup_r, px, 1.0);
  CHECK_THREE_LANES("no perturbation confusion (reverse, product)",
                    pc_product_r, px, 2 * px);
  /* Newton's method for the cube root, its slope by an inner derivative:
   * d/da a^(1/3) = a^(-2/3) / 3. */
  double a = 5.0;
  CHECK_THREE_LANES("Newton with a forward-mode slope", newton_cbrt, a,
                    pow(a, -2.0 / 3) / 3);
  CHECK_THREE_LANES("Newton with a reverse-mode slope", newton_cbrt_r, a,
                    pow(a, -2.0 / 3) / 3);
  return check_report();
}
