// std::sort of a std::vector of {double, double, int} with a lambda
// comparator: the library moves elements with memmove and struct copies.
// At -O0 those copies are between the results of the iterators'
// `operator*`, which only the debug type of that function's result types
// (was refused: "cannot tell whether this copy moves floating-point data").
// std::max_element and min_element of a vector grown by push_back: at -O2
// the optimizer keeps, on the path of an empty vector that no run takes, a
// read of the result's field at address 8 (was refused as memory without
// tracked derivatives).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
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

struct Item {
  double score, w;
};

static double extremes(const double *x, int n) {
  std::vector<Item> v;
  for (int i = 0; i < n; ++i)
    v.push_back({x[i], x[i] * x[i]});
  auto byWeight = [](const Item &a, const Item &b) { return a.w < b.w; };
  auto most = std::max_element(v.begin(), v.end(), byWeight);
  auto least = std::min_element(v.begin(), v.end(), byWeight);
  return most->w + 3 * least->score;
}

static double extremes_fd(double *x, void *ctx) {
  return extremes(x, *(int *)ctx);
}

int main() {
  int n = 6;
  double x[6] = {0.3, -1.1, 0.8, 2.0, -0.4, 1.3}, dx[6] = {0};
  __capsule_autodiff<void>((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 6);

  double de[6] = {0};
  __capsule_autodiff<void>((void *)extremes, capsule_dup, x, de, capsule_const,
                           n);
  check_grad_fd("extremes", de, extremes_fd, &n, x, 6);
  double v[6] = {0.5, -0.25, 1, 0.75, -1, 0.125}, dot = 0;
  for (int i = 0; i < n; i++)
    dot += de[i] * v[i];
  check_cf("extremes: tangent",
           __capsule_fwddiff<double>((void *)extremes, capsule_dup, x, v,
                                     capsule_const, n),
           dot);
  return check_report();
}
