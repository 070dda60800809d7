// Interruptible execution: std::function holding lambdas with small and
// large captures (the large one lives on the heap), a plain function and a
// functor, copied, reassigned and stored in a std::vector, called from a
// plain wrapper; the caller's array and the returned value must be
// identical after an interruption at any step (interrupt_check.h lists the
// checks).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"
#include <functional>
#include <vector>

static double halve(double x) { return x * 0.5; }

struct Poly {
  double c0, c1, c2;
  double operator()(double x) const { return c0 + x * (c1 + x * c2); }
};

double functions(double *a, int n) {
  double big[6] = {1, 2, 3, 4, 5, 6};
  double k = 0.25;
  std::vector<std::function<double(double)>> fs;
  fs.push_back([k](double x) { return x + k; });
  fs.push_back([big](double x) { /* 48-byte capture: heap */
                                 double s = 0;
                                 for (double b : big)
                                   s += b * x;
                                 return s;
  });
  fs.push_back(halve);
  fs.push_back(Poly{1, -0.5, 0.125});
  std::function<double(double)> copy = fs[1];
  fs.push_back(copy);
  fs[0] = [&k](double x) { return x * k; };
  for (int i = 0; i < n; ++i) {
    a[i] = fs[i % fs.size()](a[i]);
    k += 0.125;
  }
  double s = 0;
  for (auto &f : fs)
    s += f(1.0);
  return s;
}

static double a[15];
static void reset(void) {
  for (int i = 0; i < 15; ++i)
    a[i] = i * 0.4 - 2;
}
DEFINE_RUNNERS(double, functions, a, 15)
static const struct region regions[] = {{a, sizeof a}};

int main() {
  struct program p = {
      "cxx-std-function", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,      regions,        1,     8192};
  return check_interruptible(&p) != 0;
}
