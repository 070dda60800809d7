// A struct of two pointers returned in registers, one with a shadow (into a dup array) and one without (into a const array), in either order, whose fields are both read: the field without a shadow gets its place in the sink, in reverse and in forward mode (a null shadow crashed reverse mode at -O2, and C++'s std::span at -O0 under nesting). Against closed forms and finite differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags -lm && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
#include <capsule/capsule.h>
#include "check.h"

void __capsule_autodiff_v(void *, ...);

typedef struct {
  const double *a, *b;
} pair;

static const double c[2] = {1.5, 2.0};

__attribute__((noinline)) static pair pick(const double *x, const double *k,
                                           long i) {
  pair r = {x + i, k + i};
  return r;
}

/* The field without a shadow first: the shadow aggregate is built from
 * one that has none. */
__attribute__((noinline)) static pair pick_const_first(const double *x,
                                                       const double *k,
                                                       long i) {
  pair r = {k + i, x + i};
  return r;
}

static double f(const double *x, const double *k) {
  pair r = pick(x, k, 1), s = pick_const_first(x, k, 0);
  return *r.a * *r.b * *r.a + *s.a * *s.b;
}

static double f_ctx(double *x, void *ctx) { return f(x, ctx); }

int main(void) {
  double x[2] = {0.3, -0.8}, dx[2] = {0}, v[2] = {0.5, 1.0};
  double want[2] = {c[0], 2 * x[1] * c[1]};
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, c);
  check_grad_cf_fd("reverse", dx, want, f_ctx, (void *)c, x, 2);
  check_cf("forward",
           __capsule_fwddiff((void *)f, capsule_dup, x, v, capsule_const, c),
           want[0] * v[0] + want[1] * v[1]);
  return check_report();
}
