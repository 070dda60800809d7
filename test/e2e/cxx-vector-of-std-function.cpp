// A const std::vector of std::function (lambdas, one capturing a double by value) applied in turn: at -O0 the range-for iterator lives in a stack slot with a shadow, so the const vector's element pointers are stored into shadowed memory and loaded back; their shadow is the sink, not null (a crash before).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include "check.h"
#include <capsule/capsule.h>
#include <functional>
#include <vector>
static double run(const std::vector<std::function<double(double)>> &fs,
                  double *x) {
  double s = x[0];
  for (auto &f : fs)
    s = f(s) + x[1];
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
