// std::vector<double> inside f: construct from a range, push_back (reallocating), range-for update, std::accumulate, std::inner_product, copy assignment (into an empty vector and over a shorter one).
// At -O1 the copy assignment is not inlined: its copies move between buffers nothing in it types but the debug type of the vector's elements (was refused).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -O2 -fno-exceptions -g %capsule_cflags %s -o %t2n %capsule_ldflags && %t2n
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clangxx %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include <numeric>
#include <vector>
#include "include/check.h"

double f(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::vector<double> w; /* grows by reallocation: 1, 2, 4, 8 */
  for (int i = 0; i < n; i++)
    w.push_back(v[i] * v[(i + 1) % n]);
  for (double &e : v)
    e = std::sin(e);
  std::vector<double> copy, over(2, 1.0);
  copy = w;
  over = v;
  double s = std::accumulate(copy.begin(), copy.end(), 0.0);
  s += over[2] * over[3];
  s += std::inner_product(v.begin(), v.end(), w.begin(), 0.0);
  return s * s * 0.1 + v.back();
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main() {
  int n = 7;
  double x[7] = {0.5, -0.8, 1.1, 0.3, -0.4, 0.9, 1.3}, dx[7] = {0};
  __capsule_autodiff<void>((void *)f, capsule_dup, x, dx, capsule_const, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 7);
  return check_report();
}
