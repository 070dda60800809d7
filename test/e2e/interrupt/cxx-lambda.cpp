// Interruptible execution: C++ lambdas (capturing by value and by
// reference, a mutable lambda with its own state, a lambda passed to a
// function template, a lambda returning a lambda, and a captureless lambda
// converted to a function pointer), called through a plain wrapper
// function since the marker takes a plain function; the caller's array and
// the returned value must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

template <typename F> static void for_each_index(int n, F f) {
  for (int i = 0; i < n; ++i)
    f(i);
}

template <typename F> static double reduce(const double *a, int n, F f) {
  double acc = a[0];
  for (int i = 1; i < n; ++i)
    acc = f(acc, a[i]);
  return acc;
}

static double apply_ptr(double (*fn)(double), double x) { return fn(x); }

double lambdas(double *a, int n, double scale) {
  double offset = 0.5;
  int touched = 0;
  auto affine = [scale, offset](double x) { return x * scale + offset; };
  for_each_index(n, [&](int i) {
    a[i] = affine(a[i]);
    ++touched;
  });
  auto counter = [k = 0]() mutable { return ++k * 0.1; };
  for (int i = 0; i < n; ++i)
    a[i] += counter();
  auto make_adder = [](double d) { return [d](double x) { return x + d; }; };
  auto add3 = make_adder(3.0);
  for_each_index(n, [&a, &add3](int i) {
    if (i % 2)
      a[i] = add3(a[i]);
  });
  double (*cube)(double) = [](double x) { return x * x * x; };
  double s = reduce(a, n, [](double acc, double x) { return acc + x; });
  double m =
      reduce(a, n, [](double acc, double x) { return acc > x ? acc : x; });
  return s + m * 100 + apply_ptr(cube, offset) + touched;
}

static double a[14];
static void reset(void) {
  for (int i = 0; i < 14; ++i)
    a[i] = i * 0.7 - 4;
}
DEFINE_RUNNERS(double, lambdas, a, 14, 1.5)
static const struct region regions[] = {{a, sizeof a}};

int main() {
  struct program p = {"cxx-lambda", sizeof(double), reset,   plain_run,
                      primops_run,  interrupt_run,  regions, 1,
                      4096};
  return check_interruptible(&p) != 0;
}
