// Forward over checkpointed reverse: tangents of functions whose bodies call __capsule_autodiff_checkpointed, the Hessian-vector product of a long run in the checkpointed memory bound. Each against the same product over a plain gradient (forward over reverse, tested on its own in forward-over-reverse.c) and finite differences of the plain gradient: a long in-place rotation, active scalar arguments (results in registers and in memory, with f's result by enzyme_primal_return), arguments constant to the inner gradient but varied by the outer call (perturbation confusion), seeds that depend on the input, globals (fmin of one the code stores to) and globals holding pointers, heap blocks allocated and freed at every step (also reverse over forward) and a block grown by realloc at every step, the inner call in a loop and a callee, schedules of many stages.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// Loops split anywhere (not run as one step each), small leaves: many stages.
// RUN: env CAPSULE_ATOMIC_LOOPS=0 %clang -O2 -g %capsule_cflags %s -o %t2s %capsule_ldflags -lm
// RUN: env CAPSULE_LEAF_STEPS=16 CAPSULE_STATS=1 %t2s 2>&1 | FileCheck %s
// RUN: env CAPSULE_LEAF_STEPS=40 CAPSULE_STRATEGY=treeverse CAPSULE_SPLIT=binomial %t2s
// CHECK: checkpointed gradient of rotation: {{[0-9]+}} primal steps, {{.*}}; {{[0-9][0-9]+}} stages
// CHECK: PASS
// RUN: env CAPSULE_CHECKPOINT_ALL=1 %clang -O2 -g %capsule_cflags %s -o %t2c %capsule_ldflags -lm && %t2c
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <capsule/capsule.h>

#include "check.h"

/* Central differences of a gradient along v: the reference for the
 * Hessian-vector products below. */
typedef void (*grad_fn)(const double *x, double *g, void *ctx);
static void fd_hvp(grad_fn grad, void *ctx, const double *x, const double *v,
                   int n, double *hv) {
  double xp[16], xm[16], gp[16], gm[16];
  double h = 1e-5;
  for (int i = 0; i < n; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  grad(xp, gp, ctx);
  grad(xm, gm, ctx);
  for (int i = 0; i < n; i++)
    hv[i] = (gp[i] - gm[i]) / (2 * h);
}

static void check_vectors(const char *what, const double *got,
                          const double *want, int n, double rtol,
                          double atol) {
  char name[128];
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s[%d]", what, i);
    check_close(name, got[i], want[i], rtol, atol);
  }

/* Forward mode over the checkpointed gradient `grad` (ctx non-null) and
 * over the plain one (ctx null) at x along v: the gradients and the
 * products agree, and the product agrees with central differences of the
 * plain gradient. g and t receive the plain gradient and product. A macro:
 * the marker needs the function itself, not a pointer held in a variable. */
#define CHECK_HVP(label, grad, x, v, n, g, t)                                  \
  do {                                                                         \
    double g_ck_[n], t_ck_[n], t_fd_[n];                                       \
    int yes_ = 1;                                                              \
    __capsule_fwddiff((void *)grad, capsule_dup, x, v, capsule_dup, g_ck_,     \
                      t_ck_, capsule_const, &yes_);                            \
    __capsule_fwddiff((void *)grad, capsule_dup, x, v, capsule_dup, g, t,      \
                      capsule_const, (void *)0);                               \
    fd_hvp(grad, NULL, x, v, n, t_fd_);                                        \
    check_vectors(label " gradient", g_ck_, g, n, 1e-12, 1e-12);               \
    check_vectors(label " tangent vs plain", t_ck_, t, n, 1e-10, 1e-10);       \
    check_vectors(label " tangent vs fd", t_ck_, t_fd_, n, 1e-5, 1e-6);        \
  } while (0)
}

/* ---- A long run: pair rotations by an angle that depends on |x|, in
 * place, the paper's rotation kernel in small ---- */

#define RN 6
static void rotate_pair(double *x, int a, int b, double c, double s) {
  double u = x[a], v = x[b];
  x[a] = c * u - s * v;
  x[b] = s * u + c * v;
}
static double rotation(double *x, int steps) {
  for (int i = 0; i < steps; i++) {
    double m = 0;
    for (int k = 0; k < RN; k++)
      m += x[k] * x[k];
    double theta = 0.05 * sqrt(m), c = cos(theta), s = sin(theta);
    for (int k = 1; k + 1 < RN; k += 2)
      rotate_pair(x, k, k + 1, c, s);
    for (int k = 0; k + 1 < RN; k += 2)
      rotate_pair(x, k, k + 1, c, s);
  }
  double f = 0;
  for (int k = 0; k < RN; k++)
    f += (k + 1) * x[k] + 0.1 * x[k] * x[k] * x[k];
  return f;
}
#define STEPS 300

/* Each gradient works on a copy: the rotation overwrites its input, and
 * the shadow of the copy is the gradient. */
static void rotation_grad_ck(const double *x, double *g) {
  double y[RN], dy[RN] = {0};
  for (int k = 0; k < RN; k++)
    y[k] = x[k];
  __capsule_autodiff_checkpointed((void *)rotation, capsule_dup, y, dy,
                                  capsule_const, STEPS);
  for (int k = 0; k < RN; k++)
    g[k] = dy[k];
}
static void rotation_grad(const double *x, double *g) {
  double y[RN], dy[RN] = {0};
  for (int k = 0; k < RN; k++)
    y[k] = x[k];
  __capsule_autodiff((void *)rotation, capsule_dup, y, dy, capsule_const,
                     STEPS);
  for (int k = 0; k < RN; k++)
    g[k] = dy[k];
}
static void rotation_grad_ctx(const double *x, double *g, void *ctx) {
  (void)ctx;
  rotation_grad(x, g);
}

static void test_rotation(void) {
  double x[RN] = {0.4, -0.3, 0.8, 0.1, -0.6, 0.25};
  double v[RN] = {1, -0.5, 0.25, 2, 0.75, -1};
  double g_ck[RN], hv_ck[RN], g[RN], hv[RN], hv_fd[RN], g_ref[RN];
  __capsule_fwddiff((void *)rotation_grad_ck, capsule_dup, x, v, capsule_dup,
                    g_ck, hv_ck);
  __capsule_fwddiff((void *)rotation_grad, capsule_dup, x, v, capsule_dup, g,
                    hv);
  rotation_grad(x, g_ref);
  fd_hvp(rotation_grad_ctx, NULL, x, v, RN, hv_fd);
  check_vectors("rotation gradient", g_ck, g_ref, RN, 1e-12, 1e-12);
  check_vectors("rotation hvp vs plain", hv_ck, hv, RN, 1e-10, 1e-10);
  check_vectors("rotation hvp vs fd", hv_ck, hv_fd, RN, 1e-5, 1e-6);
}

/* ---- Active scalar arguments: the inner gradient returns their
 * derivatives, in registers (two) and in memory (three) ---- */

typedef struct {
  double da, db;
} two;
typedef struct {
  double da, db, dc;
} three;
two __capsule_autodiff_checkpointed_two(void *, ...)
    __asm__("__capsule_autodiff_checkpointed");
two __capsule_autodiff_two(void *, ...) __asm__("__capsule_autodiff");
three __capsule_autodiff_checkpointed_three(void *, ...)
    __asm__("__capsule_autodiff_checkpointed");
three __capsule_autodiff_three(void *, ...) __asm__("__capsule_autodiff");

static double mix(double a, const double *x, double b, int n) {
  double s = 0;
  for (int i = 0; i < 40 * n; i++)
    s += sin(a * x[i % n] + b) * x[(i + 1) % n] + a * b * b;
  return s;
}
static double trio(double a, double b, double c) {
  double s = 0;
  for (int i = 0; i < 50; i++)
    s = sin(s + a * b) + c * cos(s * c + a);
  return s;
}

/* u = (a, b, x0, x1, x2): the gradient of mix in (a, b, x) and of trio,
 * then packed as one vector. */
#define MN 3
static void scalars(const double *u, double *out, int checkpointed) {
  double dx[MN] = {0};
  two d = checkpointed
              ? __capsule_autodiff_checkpointed_two(
                    (void *)mix, u[0], capsule_dup, u + 2, dx, u[1],
                    capsule_const, MN)
              : __capsule_autodiff_two((void *)mix, u[0], capsule_dup, u + 2,
                                       dx, u[1], capsule_const, MN);
  three t = checkpointed ? __capsule_autodiff_checkpointed_three(
                               (void *)trio, u[0], u[2], u[3])
                         : __capsule_autodiff_three((void *)trio, u[0], u[2],
                                                    u[3]);
  out[0] = d.da + t.da;
  out[1] = d.db;
  for (int i = 0; i < MN; i++)
    out[2 + i] = dx[i];
  out[2] += t.db;
  out[3] += t.dc;
}
static void scalars_ck(const double *u, double *out) { scalars(u, out, 1); }
static void scalars_plain(const double *u, double *out) {
  scalars(u, out, 0);
}
static void scalars_ctx(const double *u, double *out, void *ctx) {
  (void)ctx;
  scalars(u, out, 0);
}

static void test_scalars(void) {
  double u[5] = {0.7, -0.4, 0.3, 1.1, -0.8}, v[5] = {0.5, 1, -1, 0.25, 2};
  double o_ck[5], t_ck[5], o[5], t[5], t_fd[5];
  __capsule_fwddiff((void *)scalars_ck, capsule_dup, u, v, capsule_dup, o_ck,
                    t_ck);
  __capsule_fwddiff((void *)scalars_plain, capsule_dup, u, v, capsule_dup, o,
                    t);
  fd_hvp(scalars_ctx, NULL, u, v, 5, t_fd);
  check_vectors("scalars gradient", o_ck, o, 5, 1e-12, 1e-12);
  check_vectors("scalars hvp vs plain", t_ck, t, 5, 1e-10, 1e-10);
  check_vectors("scalars hvp vs fd", t_ck, t_fd, 5, 1e-5, 1e-6);
}

/* ---- enzyme_primal_return: the inner call also returns f's result, whose
 * tangent the outer call gets too ---- */

extern int enzyme_primal_return;
typedef struct {
  double y, da;
} result_and_da;
result_and_da __capsule_autodiff_checkpointed_yd(void *, ...)
    __asm__("__capsule_autodiff_checkpointed");
result_and_da __capsule_autodiff_yd(void *, ...) __asm__("__capsule_autodiff");

static double with_result(const double *u, int checkpointed) {
  double dx[MN] = {0};
  result_and_da r =
      checkpointed
          ? __capsule_autodiff_checkpointed_yd(
                (void *)mix, enzyme_primal_return, u[0], capsule_dup, u + 2,
                dx, capsule_const, u[1], capsule_const, MN)
          : __capsule_autodiff_yd((void *)mix, enzyme_primal_return, u[0],
                                  capsule_dup, u + 2, dx, capsule_const, u[1],
                                  capsule_const, MN);
  return r.y * r.da + dx[0] * dx[2];
}

static void test_primal_return(void) {
  double u[5] = {0.7, -0.4, 0.3, 1.1, -0.8}, v[5] = {0.5, 1, -1, 0.25, 2};
  double t_ck = __capsule_fwddiff((void *)with_result, capsule_dup, u, v,
                                  capsule_const, 1);
  double t = __capsule_fwddiff((void *)with_result, capsule_dup, u, v,
                               capsule_const, 0);
  double h = 1e-6, up[5], um[5];
  for (int i = 0; i < 5; i++) {
    up[i] = u[i] + h * v[i];
    um[i] = u[i] - h * v[i];
  }
  double fd = (with_result(up, 0) - with_result(um, 0)) / (2 * h);
  check_close("primal return tangent vs plain", t_ck, t, 1e-10, 1e-10);
  check_close("primal return tangent vs fd", t_ck, fd, 1e-5, 1e-6);
  check_close("primal return value", with_result(u, 1), with_result(u, 0),
              1e-12, 1e-12);
}

/* ---- Perturbation confusion: x is constant to the inner gradient and
 * varied by the outer derivative. d/dx [x * d/dy (x y)] = 2x, and
 * d/dx [d/dy (x + y)] = 0 ---- */

static double times(double x, double y) { return x * y; }
static double plus(double x, double y) { return x + y; }
static double pc_times(double x) {
  return x * __capsule_autodiff_checkpointed((void *)times, capsule_const, x,
                                             2.0);
}
static double pc_plus(double x) {
  return __capsule_autodiff_checkpointed((void *)plus, capsule_const, x, 2.0);
}

/* Through memory: the constant is in an array the inner gradient does not
 * differentiate (capsule_const), which the outer call varies. */
static double weighted(const double *w, const double *x) {
  double s = 0;
  for (int i = 0; i < 60; i++)
    s += w[i % 2] * sin(x[i % 2] * w[(i + 1) % 2]);
  return s;
}
static void weighted_grad(const double *w, const double *x, double *dx,
                          int checkpointed) {
  dx[0] = dx[1] = 0;
  if (checkpointed)
    __capsule_autodiff_checkpointed((void *)weighted, capsule_const, w,
                                    capsule_dup, x, dx);
  else
    __capsule_autodiff((void *)weighted, capsule_const, w, capsule_dup, x, dx);
}

static void test_perturbation_confusion(void) {
  double x = 1.3;
  check_cf("pc times", __capsule_fwddiff((void *)pc_times, x, 1.0), 2 * x);
  check_cf("pc plus", __capsule_fwddiff((void *)pc_plus, x, 1.0), 0.0);
  double w[2] = {0.6, -1.2}, dw[2] = {0.3, 1}, xs[2] = {0.4, 0.9},
         dxs[2] = {-1, 0.5};
  double g_ck[2], t_ck[2], g[2], t[2];
  __capsule_fwddiff((void *)weighted_grad, capsule_dup, w, dw, capsule_dup,
                    xs, dxs, capsule_dup, g_ck, t_ck, capsule_const, 1);
  __capsule_fwddiff((void *)weighted_grad, capsule_dup, w, dw, capsule_dup,
                    xs, dxs, capsule_dup, g, t, capsule_const, 0);
  check_vectors("weighted gradient", g_ck, g, 2, 1e-12, 1e-12);
  check_vectors("weighted tangent", t_ck, t, 2, 1e-10, 1e-10);
  /* Finite differences along (dw, dxs). */
  double h = 1e-6, wp[2], wm[2], xp[2], xm[2], gp[2], gm[2];
  for (int i = 0; i < 2; i++) {
    wp[i] = w[i] + h * dw[i];
    wm[i] = w[i] - h * dw[i];
    xp[i] = xs[i] + h * dxs[i];
    xm[i] = xs[i] - h * dxs[i];
  }
  weighted_grad(wp, xp, gp, 0);
  weighted_grad(wm, xm, gm, 0);
  for (int i = 0; i < 2; i++)
    check_close("weighted tangent vs fd", t_ck[i], (gp[i] - gm[i]) / (2 * h),
                1e-5, 1e-6);
}

/* ---- Outputs through memory with seeds that depend on the input: the
 * tangent of the seed adds its own term ---- */

#define YN 4
static void model(const double *x, double *y) {
  for (int i = 0; i < YN; i++)
    y[i] = 0;
  for (int r = 0; r < 30; r++)
    for (int i = 0; i < YN; i++)
      y[i] += sin(x[i] * x[(i + 1) % YN] + 0.01 * r) + y[(i + 3) % YN] * 0.1;
}
static void seeded(const double *x, double *g, void *ctx) {
  double y[YN], dy[YN];
  for (int i = 0; i < YN; i++) {
    dy[i] = x[i] * x[i]; /* the seed */
    g[i] = 0;
  }
  if (ctx)
    __capsule_autodiff_checkpointed((void *)model, capsule_dup, x, g,
                                    capsule_dup, y, dy);
  else
    __capsule_autodiff((void *)model, capsule_dup, x, g, capsule_dup, y, dy);
}

static void test_seeds(void) {
  double x[YN] = {0.3, -0.8, 0.5, 1.2}, v[YN] = {1, 0.5, -2, 0.25};
  double g[YN], t[YN];
  CHECK_HVP("seeded", seeded, x, v, YN, g, t);
}

/* ---- Globals: f reads a global the outer function sets from its input
 * (its tangent flows into the inner gradient's tangent) ---- */

static double scale[2] = {1, 1};
static double scaled(const double *x) {
  double s = 0;
  for (int i = 0; i < 80; i++)
    s += scale[i % 2] * cos(x[i % 3] * scale[(i + 1) % 2]);
  return s;
}
static void scaled_grad(const double *x, double *g, void *ctx) {
  scale[0] = x[0] * x[1];
  scale[1] = 0.5;
  g[0] = g[1] = g[2] = 0;
  if (ctx)
    __capsule_autodiff_checkpointed((void *)scaled, capsule_dup, x, g);
  else
    __capsule_autodiff((void *)scaled, capsule_dup, x, g);
}

static void test_globals(void) {
  double x[3] = {0.9, -0.7, 0.35}, v[3] = {0.5, 1.5, -1};
  double g[3], t[3];
  CHECK_HVP("globals", scaled_grad, x, v, 3, g, t);
}

/* ---- A history grown by realloc at every step (the tangent blocks are
 * reallocated too, by copying in the checkpointed code) ---- */

static double history(const double *x, int steps) {
  double *h = NULL, s = x[0];
  for (int k = 0; k < steps; k++) {
    h = realloc(h, (size_t)(k + 1) * sizeof(double));
    h[k] = s;
    s = sin(s) * x[1] + (k ? h[k - 1] : 0.0) * x[2];
  }
  double r = s + h[steps / 2];
  free(h);
  return r;
}
static void history_grad(const double *x, double *g, void *ctx) {
  g[0] = g[1] = g[2] = 0;
  if (ctx)
    __capsule_autodiff_checkpointed((void *)history, capsule_dup, x, g,
                                    capsule_const, 40);
  else
    __capsule_autodiff((void *)history, capsule_dup, x, g, capsule_const, 40);
}

static void test_realloc(void) {
  double x[3] = {0.4, 0.9, 0.3}, v[3] = {1, -0.5, 2};
  double g[3], t[3];
  CHECK_HVP("realloc", history_grad, x, v, 3, g, t);
}

/* ---- Globals holding pointers: one to the parameters, one the outer
 * function sets to its own data (aliasing the inner call's argument) ---- */

static double PARAMS[3] = {0.75, -0.5, 1.25};
static double *params = PARAMS;
static double *current;
static double copied[5];
static double *copied_too = copied;
static double through_pointers(const double *x) {
  double s = 0;
  for (int k = 0; k < 60; k++) {
    /* Copies through the pointers, one within a global through a pointer
     * to it: their tangent copies, which the checkpointed gradient of the
     * tangent function sees through tangent pointers only, carry the kind
     * of data they move. */
    memmove(copied, params, 3 * sizeof(double));
    memmove(copied + 2, current, 3 * sizeof(double));
    memmove(copied, copied_too + 1, 3 * sizeof(double));
    for (int i = 0; i < 3; i++)
      s += copied[i] * x[i] * sin(copied[2 + (i + 1) % 3] + 0.01 * k);
  }
  return s;
}
static void pointers_grad(const double *x, double *g, void *ctx) {
  current = (double *)x;
  g[0] = g[1] = g[2] = 0;
  if (ctx)
    __capsule_autodiff_checkpointed((void *)through_pointers, capsule_dup, x,
                                    g);
  else
    __capsule_autodiff((void *)through_pointers, capsule_dup, x, g);
}

static void test_global_pointers(void) {
  double x[3] = {0.3, -0.4, 0.8}, v[3] = {1, 2, -1};
  double g[3], t[3];
  CHECK_HVP("global pointers", pointers_grad, x, v, 3, g, t);
}

/* ---- fmin of a global the code stores to: the rule's comparison of the
 * result with its operand is not a cache key (reverse over forward
 * differentiates it) ---- */

static double level;
static const double CAPS[2] = {0.4, -0.2};
static double clamped(const double *x, const double *caps) {
  double s = 0;
  for (int i = 0; i < 20; i++) {
    level += 0.1 * tanh(fmin(level, caps[i % 2]) + x[i % 2]);
    s += level * level;
  }
  return s;
}
static void clamped_grad(const double *x, double *g, void *ctx) {
  level = 0.3;
  g[0] = g[1] = 0;
  if (ctx)
    __capsule_autodiff_checkpointed((void *)clamped, capsule_dup, x, g,
                                    capsule_const, CAPS);
  else
    __capsule_autodiff((void *)clamped, capsule_dup, x, g, capsule_const,
                       CAPS);
}

static void test_fmin_global(void) {
  double x[2] = {0.2, -0.1}, v[2] = {1, 0.5};
  double g[2], t[2];
  CHECK_HVP("fmin", clamped_grad, x, v, 2, g, t);
}

/* ---- Heap blocks allocated and freed at every step: the tangent
 * function's tangent blocks are arena blocks in checkpointed code, with
 * shadow blocks of their own in its reverse sweep ---- */

#define HN 5
static double heapy(const double *x, int steps) {
  double *state = malloc(HN * sizeof(double));
  memcpy(state, x, HN * sizeof(double));
  double s = 0;
  for (int t = 0; t < steps; t++) {
    double *next = malloc(HN * sizeof(double));
    for (int i = 0; i < HN; i++)
      next[i] = state[i] + 0.01 * sin(state[(i + 1) % HN] * state[i]);
    free(state);
    state = next;
    s += state[t % HN] * state[t % HN];
  }
  free(state);
  return s;
}
static void heapy_grad(const double *x, double *g, void *ctx) {
  for (int i = 0; i < HN; i++)
    g[i] = 0;
  if (ctx)
    __capsule_autodiff_checkpointed((void *)heapy, capsule_dup, x, g,
                                    capsule_const, 200);
  else
    __capsule_autodiff((void *)heapy, capsule_dup, x, g, capsule_const, 200);
}
static double heapy_dir(double *x, double *v) {
  return __capsule_fwddiff((void *)heapy, capsule_dup, x, v, capsule_const,
                           200);
}

static void test_heap(void) {
  double x[HN] = {0.3, -0.2, 0.5, 0.9, -0.7}, v[HN] = {1, -0.5, 0.25, 2, 0.5};
  double g[HN], t[HN], t_rf[HN] = {0}, gv[HN] = {0}, vv[HN];
  CHECK_HVP("heap", heapy_grad, x, v, HN, g, t);
  /* Reverse over forward: the gradient of x -> f'(x) v. */
  memcpy(vv, v, sizeof v);
  __capsule_autodiff((void *)heapy_dir, capsule_dup, x, t_rf, capsule_dup, vv,
                     gv);
  check_vectors("heap reverse over forward vs plain", t_rf, t, HN, 1e-10,
                1e-10);
  check_vectors("heap gradient by reverse over forward", gv, g, HN, 1e-12,
                1e-12);
}

/* ---- The inner gradient in a loop and in a callee: Newton's method on
 * y^3 = a, its slope by a checkpointed gradient; d/da cbrt(a) =
 * 1 / (3 a^(2/3)) ---- */

static double cube(double y) { return y * y * y; }
static double slope(double y) {
  return __capsule_autodiff_checkpointed((void *)cube, y);
}
static double newton_cbrt(double a) {
  double y = a > 1 ? a : 1;
  for (int k = 0; k < 60; k++)
    y -= (cube(y) - a) / slope(y);
  return y;
}

static void test_loop(void) {
  double a = 5.5;
  check_close("cbrt", newton_cbrt(a), cbrt(a), 1e-12, 1e-12);
  check_close("d cbrt", __capsule_fwddiff((void *)newton_cbrt, a, 1.0),
              1 / (3 * cbrt(a) * cbrt(a)), 1e-10, 1e-12);
}

int main(void) {
  test_rotation();
  test_scalars();
  test_perturbation_confusion();
  test_seeds();
  test_globals();
  test_global_pointers();
  test_realloc();
  test_loop();
  test_fmin_global();
  test_heap();
  test_primal_return();
  return check_report();
}
