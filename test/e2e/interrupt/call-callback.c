// Interruptible execution: callbacks passed as arguments (map and fold over
// an array with a function-pointer parameter, a closure-like callback with
// a context pointer, and a higher-order helper that forwards its callback
// to another); the mapped array, the context and the returned fold must be
// identical after an interruption at any step (interrupt_check.h lists the
// checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

typedef double (*unary)(double);
typedef double (*fold_fn)(double, double);
typedef double (*ctx_fn)(void *, double);

struct scaler {
  double factor;
  int calls;
};

static double square(double x) { return x * x; }
static double halve(double x) { return x * 0.5; }
static double sum(double a, double x) { return a + x; }
static double maxf(double a, double x) { return a > x ? a : x; }
static double scale(void *ctx, double x) {
  struct scaler *s = (struct scaler *)ctx;
  s->calls += 1;
  s->factor *= 1.01;
  return x * s->factor;
}

__attribute__((noinline)) static void map(double *a, int n, unary f) {
  for (int i = 0; i < n; ++i)
    a[i] = f(a[i]);
}

__attribute__((noinline)) static double fold(const double *a, int n,
                                             double init, fold_fn f) {
  for (int i = 0; i < n; ++i)
    init = f(init, a[i]);
  return init;
}

static void map_ctx(double *a, int n, ctx_fn f, void *ctx) {
  for (int i = 0; i < n; ++i)
    a[i] = f(ctx, a[i]);
}

/* Forwards its callback: map twice. */
static void map_twice(double *a, int n, unary f) {
  map(a, n, f);
  map(a, n, f);
}

double callbacks(double *a, int n, struct scaler *s) {
  map(a, n, square);
  map_twice(a, n, halve);
  map_ctx(a, n, scale, s);
  double t = fold(a, n, 0, sum);
  double m = fold(a, n, -1e300, maxf);
  return t * 1000 + m;
}

static double a[16];
static struct scaler s;
static void reset(void) {
  for (int i = 0; i < 16; ++i)
    a[i] = i * 0.3 - 2;
  s.factor = 1.5;
  s.calls = 0;
}
DEFINE_RUNNERS(double, callbacks, a, 16, &s)
static const struct region regions[] = {{a, sizeof a}, {&s, sizeof s}};

int main(void) {
  struct program p = {
      "call-callback", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,   regions,        2,     4096};
  return check_interruptible(&p) != 0;
}
