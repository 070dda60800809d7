// Custom rules that compute gradients themselves, the way rule authors
// write them: an augmented rule that takes a gradient of the helper during
// the enclosing gradient's forward sweep and keeps it on its tape, and a
// gradient rule that takes one during the enclosing reverse sweep. Each such
// call runs inside the enclosing call, whose tape, postponed frees and
// global shadows are set aside and put back (runtime/Gradient.cpp). The
// enclosing function and the helper both keep state in globals with
// derivatives, so the inner binding would otherwise zero the enclosing
// call's adjoints. And two levels: a rule whose gradient takes a gradient
// of code that goes through another such rule. Against the gradient of the
// same computation without rules and against central differences, at -O0
// and -O2.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>
#include "check.h"

#define N 3

static double helper_state;      /* the helper's own global */
static double running[2];        /* the enclosing function's globals */

static double helper(double *x) {
  helper_state = sin(x[0]) * x[1];
  return helper_state * helper_state + x[2] * x[0];
}

/* The gradient rule differentiates the helper at the values the augmented
 * rule kept (memory is not restored for a rule). */
__attribute__((noinline)) double late(double *x) { return helper(x); }
typedef struct {
  void *tape;
  double result;
} tape_and_result;
/* The inputs' values, for a gradient rule to differentiate at. */
static double *kept_copy(const double *x) {
  double *kept = malloc(sizeof(double) * N);
  for (int i = 0; i < N; ++i)
    kept[i] = x[i];
  return kept;
}
tape_and_result late_augment(double *x, double *dx) {
  tape_and_result r = {kept_copy(x), helper(x)};
  return r;
}
void late_gradient(double *x, double *dx, double dr, void *tape) {
  double g[N] = {0};
  __capsule_autodiff((void *)helper, (double *)tape, g);
  for (int i = 0; i < N; ++i)
    dx[i] += dr * g[i];
  free(tape);
}
CAPSULE_GRADIENT(late, late_augment, late_gradient);

/* The augmented rule takes the gradient at once and keeps it. */
__attribute__((noinline)) double early(double *x) { return helper(x); }
tape_and_result early_augment(double *x, double *dx) {
  double *g = calloc(N, sizeof(double));
  __capsule_autodiff((void *)helper, x, g);
  tape_and_result r = {g, helper(x)};
  return r;
}
void early_gradient(double *x, double *dx, double dr, void *tape) {
  double *g = tape;
  for (int i = 0; i < N; ++i)
    dx[i] += dr * g[i];
  free(tape);
}
CAPSULE_GRADIENT(early, early_augment, early_gradient);

/* Two levels: outer's gradient rule differentiates code through `late`. */
static double through_late(double *x) {
  double y[N] = {late(x) + x[1], x[0] * late(x), x[2]};
  return late(y) * x[0];
}
static double through_helper(double *x) {
  double y[N] = {helper(x) + x[1], x[0] * helper(x), x[2]};
  return helper(y) * x[0];
}
__attribute__((noinline)) double outer(double *x) { return through_late(x); }
tape_and_result outer_augment(double *x, double *dx) {
  tape_and_result r = {kept_copy(x), through_late(x)};
  return r;
}
void outer_gradient(double *x, double *dx, double dr, void *tape) {
  double g[N] = {0};
  __capsule_autodiff((void *)through_late, (double *)tape, g);
  for (int i = 0; i < N; ++i)
    dx[i] += dr * g[i];
  free(tape);
}
CAPSULE_GRADIENT(outer, outer_augment, outer_gradient);

#define ENCLOSING(name, call)                                                  \
  static double name(double *p) {                                              \
    double x[N] = {p[0], p[1], p[2]};                                          \
    running[0] = running[1] = 0;                                               \
    for (int k = 0; k < 3; ++k) {                                              \
      running[k % 2] += call(x) * x[k];                                        \
      x[k] = running[0] * 0.3 + cos(x[(k + 1) % N]);                           \
    }                                                                          \
    return running[0] * running[1] + x[0];                                     \
  }                                                                            \
  static double name##_fd(double *p, void *ctx) { return name(p); }
ENCLOSING(with_late, late)
ENCLOSING(with_early, early)
ENCLOSING(without_rules, helper)
ENCLOSING(two_levels, outer)
ENCLOSING(two_levels_without_rules, through_helper)

int main(void) {
  double p[N] = {0.4, -0.7, 0.9}, want[N] = {0};
  __capsule_autodiff((void *)without_rules, p, want);
  check_grad_fd("without rules", want, without_rules_fd, 0, p, N);
  for (int repeat = 0; repeat < 2; ++repeat) {
    double late_g[N] = {0}, early_g[N] = {0};
    __capsule_autodiff((void *)with_late, p, late_g);
    __capsule_autodiff((void *)with_early, p, early_g);
    for (int i = 0; i < N; ++i) {
      check_close("gradient inside the gradient rule", late_g[i], want[i],
                  CHECK_CF_RTOL, CHECK_CF_ATOL);
      check_close("gradient inside the augmented rule", early_g[i], want[i],
                  CHECK_CF_RTOL, CHECK_CF_ATOL);
    }
  }
  double two[N] = {0}, two_want[N] = {0};
  __capsule_autodiff((void *)two_levels, p, two);
  __capsule_autodiff((void *)two_levels_without_rules, p, two_want);
  check_grad_fd("two levels, without rules", two_want,
                two_levels_without_rules_fd, 0, p, N);
  for (int i = 0; i < N; ++i)
    check_close("two levels of rules computing gradients", two[i],
                two_want[i], CHECK_CF_RTOL, CHECK_CF_ATOL);
  return check_report();
}
