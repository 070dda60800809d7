// Custom gradients (../shared/enzyme-conventions.md, "Custom derivatives"):
// functions whose bodies Capsule cannot differentiate (inline assembly)
// get gradient rules in Enzyme's spelling and in Capsule's (CAPSULE_GRADIENT);
// the gradient through them, called in a loop (tapes come back last in,
// first out), is checked against central differences of the primal, which
// runs the bodies. The rules cover pointer arguments with a heap tape, a
// function that overwrites its input (the rule keeps what it needs in its
// tape), an integer argument (passed as its own shadow), a struct of
// adjoints and one returned through memory (three doubles), a tape returned
// beside the result, a constant input (whose shadow is a place in the sink:
// the rule's += must not reach the data), and a deliberately wrong rule
// whose effect must show.
// Forward over reverse and reverse over reverse through a rule give second
// derivatives; recursion runs through a rule.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// Every gradient checkpointed (the rules run as rule code):
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>
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

/* v *= s in place: the gradient rule needs the old v, kept in the tape. */
__attribute__((noinline)) void scale_in_place(double *v, int n, double s) {
  for (int i = 0; i < n; ++i) {
    double w = v[i] * s;
    OPAQUE(w);
    v[i] = w;
  }
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

/* Two doubles and an integer: a struct of two adjoints. */
typedef struct {
  double da, db;
} two;
__attribute__((noinline)) double mix(double a, double b, int n) {
  double r = a * b * n;
  OPAQUE(r);
  return r;
}
static double mix_aug(double a, double b, int n, int n_shadow) {
  return a * b * n;
}
static two mix_grad(double a, double b, int n, int n_shadow, double d) {
  two g = {b * n * d, a * n * d};
  return g;
}
CAPSULE_GRADIENT(mix, mix_aug, mix_grad);

/* Three adjoints come back through memory; the tape (a double) comes back
 * beside the result. */
typedef struct {
  double da, db, dc;
} three;
typedef struct {
  double *tape;
  double result;
} with_tape;
__attribute__((noinline)) double tri(double a, double b, double c) {
  double r = a * b + sin(c);
  OPAQUE(r);
  return r;
}
static with_tape tri_aug(double a, double b, double c) {
  with_tape t = {malloc(sizeof(double)), a * b + sin(c)};
  *t.tape = cos(c);
  return t;
}
static three tri_grad(double a, double b, double c, double d, double *cosc) {
  three g = {b * d, a * d, *cosc * d};
  free(cosc);
  return g;
}
void *__enzyme_register_gradient_tri[3] = {(void *)tri, (void *)tri_aug,
                                           (void *)tri_grad};

/* A correct cube rule, no tape. */
__attribute__((noinline)) double cube(double x) {
  double y = x * x * x;
  OPAQUE(y);
  return y;
}
static double cube_aug(double x) { return x * x * x; }
static double cube_grad(double x, double d) { return 3 * x * x * d; }
CAPSULE_GRADIENT(cube, cube_aug, cube_grad);

#define N 4

static double f(double *x) {
  double v[N];
  for (int i = 0; i < N; ++i)
    v[i] = x[i];
  scale_in_place(v, N, x[0]);
  double s = 0;
  for (int i = 0; i < N; ++i) {
    double y;
    square_into(&v[i], &y);
    s += cube(y) * 0.1 + mix(v[i], y, i + 1) + tri(v[i], x[(i + 1) % N], y);
  }
  return s;
}

static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}

/* A constant input: the rule's += to its shadow goes to the sink, not to
 * the data. */
static double with_const(double *x, const double *c) {
  double y, k;
  square_into(c, &k);
  square_into(x, &y);
  return y * k;
}

/* d/dx of rule_sin is the rule's 2 cos x, not the body's cos x. */
__attribute__((noinline)) double rule_sin(double x) {
  double y = sin(x);
  OPAQUE(y);
  return y;
}
static double rule_sin_aug(double x) { return sin(x); }
static double rule_sin_grad(double x, double d) { return 2 * cos(x) * d; }
CAPSULE_GRADIENT(rule_sin, rule_sin_aug, rule_sin_grad);
static double g(double x) { return rule_sin(x) * x; }

/* Forward over reverse through the cube rule: the rules' own bodies are
 * differentiated. */
static double cube_twice(double x) { return cube(x) * 2; }
static double dcube_twice(double x) {
  return __capsule_autodiff((void *)cube_twice, x);
}

/* Recursion through a rule: rec(x, 2) = x^9 / 16. */
static double rec(double x, int n) {
  return n == 0 ? x : cube(rec(x, n - 1)) * 0.5;
}

int main(void) {
  double x[N] = {0.7, -0.4, 0.3, 0.55}, dx[N] = {0};
  __capsule_autodiff((void *)f, x, dx);
  check_grad_fd("gradient through rules", dx, f_fd, NULL, x, N);
  /* Called twice: the tapes of the first call are all consumed. */
  double dx2[N] = {0};
  __capsule_autodiff((void *)f, x, dx2);
  check_vec_cf("second call", dx2, dx, N);

  double c = 3.0, xc = 0.5, dxc = 0;
  __capsule_autodiff((void *)with_const, &xc, &dxc, capsule_const, &c);
  check_cf("gradient with a constant input", dxc, 2 * xc * c * c);
  check_cf("the constant input is untouched", c, 3.0);

  double t = 0.8;
  check_cf("the rule's effect shows", __capsule_autodiff((void *)g, t),
           2 * cos(t) * t + sin(t));

  check_cf("gradient of cube_twice", dcube_twice(t), 6 * t * t);
  check_cf("forward over reverse", __capsule_fwddiff((void *)dcube_twice, t, 1.0),
           12 * t);
  check_cf("reverse over reverse", __capsule_autodiff((void *)dcube_twice, t),
           12 * t);
  check_cf("recursion through a rule", __capsule_autodiff((void *)rec, t, 2),
           9 * pow(t, 8) / 16);
  return check_report();
}
