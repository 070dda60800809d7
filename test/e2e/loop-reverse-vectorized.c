// Reverse sweeps whose loops update each shadow element on its own are
// vectorized at -O2 (Reverse/ReverseVectorization.cpp); those of a stencil,
// whose adjoint updates neighbouring elements, are not. The gradients must
// not change either way: elementwise stages at lengths that leave vector
// remainders (1, 2, 3, 37), the same buffer passed for two arguments (the
// vectorized loops' runtime alias checks), and the stencil, each against
// central differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %clang -O2 %capsule_cflags %s -S -emit-llvm -o %t.ll
// RUN: FileCheck %s --check-prefix=STAGES < %t.ll
// RUN: FileCheck %s --check-prefix=STENCIL < %t.ll
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

enum { N = 37 };

// STAGES-LABEL: define internal {{.*}} @stages.capsule.rev.
// STAGES: x double>
// STAGES: {{^}}}
// STENCIL-LABEL: define internal {{.*}} @stencil.capsule.rev.
// STENCIL-NOT: x double>
// STENCIL: {{^}}}

/* Two stages of y <- y + h x .* y, then the weighted sum of y. */
double stages(int n, const double *x, double *y, double *k) {
  for (int s = 0; s < 2; s++) {
    for (int i = 0; i < n; i++)
      k[i] = x[i] * y[i];
    for (int i = 0; i < n; i++)
      y[i] = y[i] + 0.25 * k[i];
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += (1.0 + 0.1 * i) * y[i];
  return sum;
}

double stencil(int n, const double *x, double *y) {
  for (int i = 1; i + 1 < n; i++)
    y[i] = x[i - 1] * x[i] + sin(x[i + 1]);
  double sum = 0;
  for (int i = 1; i + 1 < n; i++)
    sum += y[i] * y[i];
  return sum;
}

static int length;
static double y0_[N];

static double stages_of_x(double *x, void *ctx) {
  (void)ctx;
  double y[N], k[N];
  for (int i = 0; i < length; i++)
    y[i] = y0_[i];
  return stages(length, x, y, k);
}

/* x and y the same buffer: y <- y + h y .* y. */
static double stages_in_place(double *x, void *ctx) {
  (void)ctx;
  double k[N];
  return stages(length, x, x, k);
}

static double stencil_of_x(double *x, void *ctx) {
  (void)ctx;
  double y[N];
  return stencil(length, x, y);
}

int main(void) {
  static const int lengths[] = {1, 2, 3, N};
  double x[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 + 0.3 * sin(1.7 * i);
    y0_[i] = 1.0 - 0.02 * i;
  }
  for (unsigned l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
    length = lengths[l];
    double dx[N] = {0}, y[N], dy[N] = {0}, k[N], dk[N] = {0};
    for (int i = 0; i < length; i++)
      y[i] = y0_[i];
    __capsule_autodiff((void *)stages, capsule_const, length, capsule_dup, x,
                       dx, capsule_dup, y, dy, capsule_dup, k, dk);
    check_grad_fd("stages dx", dx, stages_of_x, 0, x, length);

    double xy[N], dxy[N] = {0};
    for (int i = 0; i < length; i++)
      xy[i] = x[i];
    __capsule_autodiff((void *)stages, capsule_const, length, capsule_dup, xy,
                       dxy, capsule_dup, xy, dxy, capsule_dup, k, dk);
    check_grad_fd("stages in place", dxy, stages_in_place, 0, x, length);

    double ds[N] = {0}, ys[N], dys[N] = {0};
    __capsule_autodiff((void *)stencil, capsule_const, length, capsule_dup, x,
                       ds, capsule_dup, ys, dys);
    check_grad_fd("stencil dx", ds, stencil_of_x, 0, x, length);
  }
  return check_report();
}
