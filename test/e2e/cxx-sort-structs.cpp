// std::sort of a std::vector of {double, double, int} with a lambda
// comparator: the library moves elements with memmove and struct copies.
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <algorithm>
#include <capsule/capsule.h>
#include <cmath>
#include <vector>
#include "include/check.h"

struct Sample {
  double value, weight;
  int id;
};

static double f(const double *x, int n) {
  std::vector<Sample> s(n);
  for (int i = 0; i < n; i++)
    s[i] = {std::sin(x[i]) * 2.0, x[i] * x[i], i};
  std::sort(s.begin(), s.end(),
            [](const Sample &a, const Sample &b) { return a.value < b.value; });
  double r = 0;
  for (int i = 0; i < n; i++)
    r += s[i].value * (i + 1) + s[i].weight * s[i].id;
  return r;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main() {
  int n = 6;
  double x[6] = {0.3, -1.1, 0.8, 2.0, -0.4, 1.3}, dx[6] = {0};
  __capsule_autodiff<void>((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 6);
  return check_report();
}
