// What users say about activity, in Enzyme's spellings (the registration
// globals __enzyme_inactivefn, __enzyme_inactive_global,
// __enzyme_function_like, and the annotations enzyme_inactive and
// enzyme_function_like=NAME) and Capsule's (CAPSULE_INACTIVE_FUNCTION,
// CAPSULE_INACTIVE_GLOBAL, CAPSULE_FUNCTION_LIKE, CAPSULE_INACTIVE):
// an inactive function runs (its count shows) and passes no derivative; an
// inactive global passes none through memory; a function like log1p is
// differentiated by log1p's rule whatever its body (here twice log1p, so
// the rule's effect shows). In reverse mode, forward mode and checkpointed,
// against closed forms (finite differences would see the bodies).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#include <capsule/capsule.h>
#include <math.h>
#include "check.h"

static int calls;

/* Inactive, with a loop (made resumable in checkpointed code). */
__attribute__((noinline)) double noisy(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x * 0.5;
  ++calls;
  return s;
}
void *__enzyme_inactivefn_noisy[] = {(void *)noisy};

__attribute__((noinline)) double jitter(double x) { return x * x * 3; }
CAPSULE_INACTIVE_FUNCTION(jitter);

__attribute__((annotate("enzyme_inactive"))) __attribute__((noinline)) double
shift(double x) {
  return x + 10;
}

CAPSULE_INACTIVE __attribute__((noinline)) double offset(double x) {
  return 4 * x;
}

/* Twice log1p by its series, with a loop: differentiated as log1p. */
__attribute__((noinline)) double my_log1p(double x) {
  double s = 0, t = -1;
  for (int k = 1; k < 80; ++k) {
    t *= -x;
    s += t / k;
  }
  return 2 * s;
}
void *__enzyme_function_like_log1p[2] = {(void *)my_log1p, "log1p"};

/* Differentiated as sin: cos x, not the body's -sin x. */
__attribute__((annotate("enzyme_function_like=sin"))) __attribute__((noinline))
double fake_sin(double x) {
  return cos(x);
}

__attribute__((noinline)) double fake_atan2(double y, double x) {
  return y * x;
}
CAPSULE_FUNCTION_LIKE(fake_atan2, "atan2");

double cache, history;
CAPSULE_INACTIVE double scratch;
void *__enzyme_inactive_global_cache[] = {(void *)&cache};
CAPSULE_INACTIVE_GLOBAL(history);
__attribute__((noinline)) double read_cache(void) { return cache; }
__attribute__((noinline)) double read_history(void) { return history; }
__attribute__((noinline)) double read_scratch(void) { return scratch; }

static double f(double *x) {
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    cache = x[i];
    history = 2 * x[i];
    scratch = 3 * x[i];
    s += x[i] * (read_cache() + read_history() + read_scratch()) +
         noisy(x[i], 4) + jitter(x[i]) + shift(x[i]) + offset(x[i]) +
         my_log1p(x[i]) + fake_sin(x[i]) + fake_atan2(x[i], 1.5);
  }
  return s;
}

/* The derivative with respect to x[i]: the stored copies are constants
 * (6 x[i]), the rest follows the rules. */
static double df(double x) {
  return 6 * x + 1 / (1 + x) + cos(x) + 1.5 / (x * x + 1.5 * 1.5);
}

int main(void) {
  double x[3] = {0.3, -0.2, 0.5}, g[3] = {0};
  calls = 0;
  __capsule_autodiff((void *)f, x, g);
  check_cf("the inactive function ran", calls, 3);
  for (int i = 0; i < 3; ++i)
    check_cf("gradient", g[i], df(x[i]));
  for (int k = 0; k < 3; ++k) {
    double v[3] = {0};
    v[k] = 1;
    check_cf("tangent", __capsule_fwddiff((void *)f, x, v), df(x[k]));
  }
  return check_report();
}
