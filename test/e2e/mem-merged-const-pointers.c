// Pointers to memory without adjoints (a const argument's data, a constant
// global) merged by a select or a phi with pointers that have shadows (a
// global, the dup argument), then read through: `s = k < 0 ? c[2] : s` at
// -O2 loads through `select(k < 0, &c[2], &s)`. The merged pointer's shadow
// was null on the const side and the reverse sweep crashed (found by
// capsule-fuzz, seed 12); now the const side's adjoints go to the sink.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

static double level;
static int calls;
static const double table[4] = {0.25, -0.5, 0.75, 1.5};

double f(const double *x, int n, const double *c) {
  level = 0.5 * x[0];
  double r = 0.0;
  for (int i = 0; i < n; i++) {
    // a select between a const argument's element and a global
    level = (calls < (int)(6.0 * tanh(x[i]))) ? c[i % 4] : level;
    // a phi between a constant global's element, the dup argument and a
    // global, read in the loop
    const double *p = &level;
    if (x[i] < -0.5)
      p = &table[i % 4];
    else if (x[i] > 0.8)
      p = &x[(i + 1) % n];
    r += *p * sin(x[i]) + level * level;
    calls = (calls + 1) % 3;
  }
  return r;
}

static double f_fd(double *x, void *ctx) {
  calls = 0;
  return f(x, 6, (const double *)ctx);
}

int main(void) {
  double c[4] = {0.3, -1.2, 0.9, 0.45};
  double x[6] = {0.9, -0.7, 1.3, 0.2, -1.1, 0.1};
  double dx[6] = {0};
  calls = 0;
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, 6,
                       capsule_const, c);
  check_grad_fd("dx", dx, f_fd, c, x, 6);
  return check_report();
}
