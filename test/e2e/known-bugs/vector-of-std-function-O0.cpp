// A std::vector of std::function passed by reference, at -O0: crash.
// Known wrong (issue 15, item 9): XFAIL until fixed; lit reports an
// unexpected pass the day it is, and then this line and XFAIL go.
// XFAIL: *
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t %capsule_ldflags -lm && %t
#include <functional>
#include <vector>
#include <capsule/capsule.h>
#include "check.h"
static double run(const std::vector<std::function<double(double)>> &fs, double *x) {
  double s = x[0];
  for (auto &f : fs) s = f(s) + x[1];
  return s;
}
static std::vector<std::function<double(double)>> *gfs;
static double entry(double *x) { return run(*gfs, x); }
static double fd(double *x, void *) { return entry(x); }
int main() {
  std::vector<std::function<double(double)>> fs;
  fs.push_back([](double t) { return sin(t); });
  double c = 0.3;
  fs.push_back([c](double t) { return t * t * c; });
  fs.push_back([](double t) { return exp(-t); });
  gfs = &fs;
  double x[2] = {0.7, 0.2}, dx[2] = {0};
  __capsule_autodiff<void>((void *)run, capsule_const, &fs, capsule_dup, x, dx);
  check_grad_fd("vec fn", dx, fd, 0, x, 2);
  return check_report();
}
