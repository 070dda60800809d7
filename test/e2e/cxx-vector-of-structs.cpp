// std::vector of a struct holding ints and a std::vector<double>: growing
// it moves the two ints as one untyped 64-bit integer at -O1/-O2 (no TBAA);
// the struct's layout at that offset says they are integers.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// Checkpointed, with a yield point in every loop (CAPSULE_ATOMIC_LOOPS=0):
// the reallocation's copy loop reaches its pointers through phis that resume
// blocks extend (-O2), and the constructor's int arguments are stored from
// memory into the callee's record, where their type is exact (-O0).
// RUN: %check_checkpointed %clangxx %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clangxx %s %t.ck2 -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include <vector>
#include "include/check.h"

struct Layer {
  int in, out;
  std::vector<double> w;
  Layer(int i, int o, double x) : in(i), out(o), w(i * o, x) {}
};

static double f(double x) {
  std::vector<Layer> ls;
  for (int k = 1; k <= 4; k++)
    ls.emplace_back(k, 2, x * k);
  double s = 0;
  for (auto &l : ls)
    for (double v : l.w)
      s += std::sin(v) * l.in + v * v * l.out;
  return s;
}

static double f_fd(double *x, void *) { return f(*x); }

int main() {
  double x = 0.3;
  double dx = __capsule_autodiff<double>((void *)f, capsule_out, x);
  double got[1] = {dx}, at[1] = {x};
  check_grad_fd("df/dx", got, f_fd, nullptr, at, 1);
  return check_report();
}
