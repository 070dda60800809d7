// Gradient rules of the user's inside checkpointed gradients (Enzyme's
// spelling and CAPSULE_GRADIENT). A simulation whose every step calls
// functions with rules: one that squares through pointers with a heap tape,
// one that scales its input in place (the rule keeps the old values on a
// tape of two heap blocks, the function itself uses a heap temporary), one
// of doubles by value whose augmented rule calls the function itself, one
// whose augmented rule calls a helper, and one reached through a function
// pointer. Green runs call the functions, taped runs their augmented rules,
// and the schedule re-executes steps from capsules, so everything they
// write must be undone from the journal and their heap blocks must come
// from the arena the gradient rules free them to. The checkpointed gradient,
// with short stages and every strategy, must equal the plain one, itself
// checked against central differences; with a deliberately wrong rule, the
// checkpointed gradient must show the same error as the plain one (the rule
// is used, not the function's body), also when the function with the rule
// is the root itself.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm
// RUN: env CAPSULE_LEAF_STEPS=20 %t0
// RUN: env CAPSULE_LEAF_STEPS=15 %t2
// RUN: env CAPSULE_LEAF_STEPS=25 CAPSULE_STRATEGY=treeverse CAPSULE_SPLIT=binomial CAPSULE_SNAPSHOTS=3 %t2
// RUN: env CAPSULE_LEAF_STEPS=25 CAPSULE_STRATEGY=binary %t2
// RUN: %t2
// More than a few stages, so that rollbacks happen:
// RUN: env CAPSULE_STATS=1 CAPSULE_LEAF_STEPS=15 %t2 2>&1 | FileCheck %s
// CHECK: checkpointed gradient of simulate: {{[0-9]+}} primal steps, {{[^;]*}}; {{[1-9][0-9]+}} stages
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* The optimizer sees through nothing: an opaque barrier on a value. */
#define OPAQUE(v) __asm__ volatile("" : "+x"(v))

/* y = x^2 through pointers; the tape is a heap copy of x. */
__attribute__((noinline)) void square_into(const double *x, double *y) {
  double v = *x * *x;
  OPAQUE(v);
  *y = v;
}
static void *square_aug(const double *x, const double *dx, double *y,
                        double *dy) {
  double *tape = malloc(sizeof *tape);
  *tape = *x;
  *y = *x * *x;
  return tape;
}
static void square_grad(const double *x, double *dx, double *y, double *dy,
                        void *tape) {
  double x0 = *(double *)tape;
  free(tape);
  *dx += 2 * x0 * *dy;
  *dy = 0;
}
void *__enzyme_register_gradient_square_into[3] = {
    (void *)square_into, (void *)square_aug, (void *)square_grad};

/* v = s * v in place, through a heap temporary; the rule keeps the old v
 * and s on a tape of two heap blocks. */
__attribute__((noinline)) void scale_in_place(double *v, int n, double s) {
  double *w = malloc(n * sizeof *w);
  for (int i = 0; i < n; ++i) {
    w[i] = v[i] * s;
    OPAQUE(w[i]);
  }
  memcpy(v, w, n * sizeof *w);
  free(w);
}
typedef struct {
  double *old;
  double s;
} scale_tape;
static scale_tape *scale_aug(double *v, double *dv, int n, int dn, double s) {
  scale_tape *t = malloc(sizeof *t);
  t->old = malloc(n * sizeof(double));
  t->s = s;
  for (int i = 0; i < n; ++i) {
    t->old[i] = v[i];
    v[i] *= s;
  }
  return t;
}
static double scale_grad(double *v, double *dv, int n, int dn, double s,
                         scale_tape *t) {
  double ds = 0;
  for (int i = 0; i < n; ++i) {
    ds += t->old[i] * dv[i];
    dv[i] *= t->s;
  }
  free(t->old);
  free(t);
  return ds;
}
CAPSULE_GRADIENT(scale_in_place, scale_aug, scale_grad);

/* a * sin(b) by value; the augmented rule calls the function itself and
 * keeps nothing (the gradient rule recomputes from its arguments). */
__attribute__((noinline)) double wave(double a, double b) {
  double r = a * sin(b);
  OPAQUE(r);
  return r;
}
static double wave_aug(double a, double b) { return wave(a, b); }
typedef struct {
  double da, db;
} two;
static two wave_grad(double a, double b, double dr) {
  return (two){dr * sin(b), dr * a * cos(b)};
}
CAPSULE_GRADIENT(wave, wave_aug, wave_grad);

/* y[i] = exp(x[i]) for two entries; the augmented rule fills a tape struct
 * on the stack, with the shadow of y, and copies it to the heap through a
 * helper. */
__attribute__((noinline)) void exp2_into(const double *x, double *y) {
  for (int i = 0; i < 2; ++i) {
    double e = exp(x[i]);
    OPAQUE(e);
    y[i] = e;
  }
}
typedef struct {
  double e[2];
  double *dy; /* the shadow of y, kept as a value */
} exp_tape;
static __attribute__((noinline)) exp_tape *keep(const exp_tape *t) {
  exp_tape *h = malloc(sizeof *h);
  *h = *t;
  return h;
}
static exp_tape *exp_aug(const double *x, const double *dx, double *y,
                         double *dy) {
  exp_tape t;
  for (int i = 0; i < 2; ++i)
    y[i] = t.e[i] = exp(x[i]);
  t.dy = dy;
  return keep(&t);
}
static void exp_grad(const double *x, double *dx, double *y, double *dy,
                     exp_tape *t) {
  for (int i = 0; i < 2; ++i) {
    dx[i] += t->e[i] * t->dy[i];
    t->dy[i] = 0;
  }
  free(t);
}
CAPSULE_GRADIENT(exp2_into, exp_aug, exp_grad);

/* x^3 whose rule says 4 x^3 (wrong on purpose): the gradient must follow
 * the rule in both the plain and the checkpointed gradient. */
__attribute__((noinline)) double cube(double x) {
  double r = x * x * x;
  OPAQUE(r);
  return r;
}
static double cube_aug(double x) { return x * x * x; }
static double cube_grad(double x, double dr) { return dr * 4 * x * x * x; }
CAPSULE_GRADIENT(cube, cube_aug, cube_grad);

#define N 6
#define STEPS 12

static int wrong_rule;
static double (*volatile through_pointer)(double, double) = wave;

/* p: the state (N values), updated in place; p[N], p[N + 1] parameters. */
static double simulate(double *p) {
  double *x = p;
  double y[2], acc = 0;
  for (int t = 0; t < STEPS; ++t) {
    square_into(&x[t % N], &y[0]);
    scale_in_place(x, N, 0.9 + 0.01 * p[N]);
    x[(t + 1) % N] += 0.1 * y[0] + wave(p[N + 1], x[t % N]);
    exp2_into(&x[t % 3], y);
    x[(t + 2) % N] -= 0.05 * (y[0] - y[1]);
    acc += through_pointer(0.3, x[(t + 3) % N]);
    if (wrong_rule)
      acc += 0.1 * cube(x[t % N]);
  }
  double r = acc;
  for (int i = 0; i < N; ++i)
    r += x[i] * x[i] * (i + 1);
  return r;
}

CHECK_FD_OF(simulate)

#define NP (N + 2)

static void initial(double *p) {
  for (int i = 0; i < NP; ++i)
    p[i] = 0.4 * sin(1.3 * i + 0.2) + 0.1;
}

/* The checkpointed gradient against the plain one, and the state (which the
 * function updates in place) as the plain gradient leaves it. */
static void check_checkpointed(void) {
  double p0[NP], p[NP], dp[NP] = {0}, q[NP], dq[NP] = {0};
  initial(p0);
  memcpy(p, p0, sizeof p);
  memcpy(q, p0, sizeof q);
  __capsule_autodiff((void *)simulate, p, dp);
  if (!wrong_rule)
    check_grad_fd("simulate plain", dp, simulate_fd, 0, p0, NP);
  __capsule_autodiff_checkpointed((void *)simulate, q, dq);
  check_vec_cf(wrong_rule ? "wrong rule: checkpointed vs plain"
                          : "simulate checkpointed vs plain",
               dq, dp, NP);
  check_vec_cf("simulate checkpointed state", q, p, NP);
}

int main(void) {
  check_checkpointed();
  /* The wrong rule shows: the plain gradient is off from the differences,
   * and the checkpointed one equals it. */
  wrong_rule = 1;
  double p0[NP], p[NP], dp[NP] = {0}, fd[NP];
  initial(p0);
  memcpy(p, p0, sizeof p);
  __capsule_autodiff((void *)simulate, p, dp);
  check_fd_grad(simulate_fd, 0, p0, NP, fd);
  double off = 0;
  for (int i = 0; i < NP; ++i)
    off = fmax(off, fabs(dp[i] - fd[i]));
  check_cf("the wrong rule shows in the plain gradient", off > 1e-3, 1);
  check_checkpointed();
  /* A function with a rule as the root: both gradients use the rule. */
  check_cf("plain gradient of a root with a rule",
           __capsule_autodiff((void *)cube, 1.5), 4 * 1.5 * 1.5 * 1.5);
  check_cf("checkpointed gradient of a root with a rule",
           __capsule_autodiff_checkpointed((void *)cube, 1.5),
           4 * 1.5 * 1.5 * 1.5);
  return check_report();
}
