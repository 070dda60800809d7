// Forward mode through control flow: counted, data-dependent, do-while and nested loops with break and continue, switch, recursion (linear and tree), mutual recursion, calls through function-pointer tables and callbacks.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <math.h>
#include <capsule/capsule.h>
#include "check.h"

#define N 5

/* Newton's iteration for the cube root: the loop runs until converged. */
static double newton_cbrt(double a) {
  double r = a > 1 ? a : 1;
  int k = 0;
  do {
    double next = r - (r * r * r - a) / (3 * r * r);
    if (fabs(next - r) < 1e-15 * r) {
      r = next;
      break;
    }
    r = next;
  } while (++k < 100);
  return r;
}

static double loops(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] < -0.5)
      continue;
    for (int j = 0; j <= i; j++) {
      if (j == 3)
        break;
      s += x[i] * x[j] / (1 + j);
    }
    double t = x[i];
    while (t < 4) /* data-dependent trip count */
      t = t * 1.5 + 1;
    s += t;
  }
  return s;
}
static double loops_f(double *x, void *ctx) { return loops(x, N); }

static double piece(double x, int k) {
  switch (k % 4) {
  case 0:
    return sin(x);
  case 1:
    return x * x;
  case 2:
    return exp(-x);
  default:
    return x;
  }
}
static double switched(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += piece(x[i], i) * (i + 1);
  return s;
}
static double switched_f(double *x, void *ctx) { return switched(x, N); }

static double rpow(double x, int n) {
  if (n == 0)
    return 1;
  double h = rpow(x, n / 2);
  return n % 2 ? x * h * h : h * h;
}
static double tree(const double *a, int lo, int hi) {
  if (hi - lo == 1)
    return sin(a[lo]) + a[lo] * a[lo];
  int mid = (lo + hi) / 2;
  double l = tree(a, lo, mid), r = tree(a, mid, hi);
  return l + r + 0.1 * l * r;
}
static double tree_all(const double *a, int n) { return tree(a, 0, n); }
static double tree_f(double *x, void *ctx) { return tree_all(x, N); }

static double odd(double x, int n);
static double even(double x, int n) { return n == 0 ? x : odd(cos(x), n - 1); }
static double odd(double x, int n) { return n == 0 ? x : even(x * x, n - 1); }
static double mutual(double x) { return even(x, 5); }

typedef double (*unary)(double);
static double sq(double x) { return x * x; }
static double cube(double x) { return x * x * x; }
static double expo(double x) { return exp(x); }
static unary table[3] = {sq, cube, expo};
static double through_table(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += table[i % 3](x[i]);
  return s;
}
static double table_f(double *x, void *ctx) { return through_table(x, N); }
static double apply(unary g, double x) { return g(x) + g(2 * x); }
static double callback(double x) { return apply(sin, x) * apply(cube, x); }

static double newton_1(double a) { return newton_cbrt(a); }
static double rpow9(double x) { return rpow(x, 9); }

static void check_dir(const char *what, double got, check_fn f,
                      const double *x, const double *v) {
  double want = 0;
  for (int i = 0; i < N; i++)
    want += v[i] * check_fd_partial(f, NULL, x, N, i);
  check_close(what, got, want, CHECK_FD_RTOL, CHECK_FD_ATOL);
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.45, -0.2};
  double v[N] = {1.0, 0.5, -0.25, 2.0, -1.0};
  check_scalar("newton loop", __capsule_fwddiff((void *)newton_cbrt, 5.0, 1.0),
               newton_1, 5.0, 1 / (3 * cbrt(25.0)));
  check_dir("loops", __capsule_fwddiff((void *)loops, x, v, capsule_const, N),
            loops_f, x, v);
  check_dir("switch",
            __capsule_fwddiff((void *)switched, x, v, capsule_const, N),
            switched_f, x, v);
  check_scalar("recursion", __capsule_fwddiff((void *)rpow, 1.1, 1.0,
                                              capsule_const, 9),
               rpow9, 1.1, 9 * pow(1.1, 8));
  check_dir("tree recursion",
            __capsule_fwddiff((void *)tree_all, x, v, capsule_const, N),
            tree_f, x, v);
  double h = 1e-6;
  check_close("mutual recursion", __capsule_fwddiff((void *)mutual, 0.8, 1.0),
              (mutual(0.8 + h) - mutual(0.8 - h)) / (2 * h), CHECK_FD_RTOL,
              CHECK_FD_ATOL);
  check_dir("function-pointer table",
            __capsule_fwddiff((void *)through_table, x, v, capsule_const, N),
            table_f, x, v);
  double c = 0.6;
  check_scalar("callbacks", __capsule_fwddiff((void *)callback, c, 1.0),
               callback, c,
               (cos(c) + 2 * cos(2 * c)) * 9 * c * c * c +
                   (sin(c) + sin(2 * c)) * 27 * c * c);
  return check_report();
}
