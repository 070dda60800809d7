// std::vector of a struct holding ints and a std::vector<double>: growing
// it moves the two ints as one untyped 64-bit integer at -O1/-O2 (no TBAA);
// the struct's layout at that offset says they are integers.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// With a yield point in every loop, std::vector's reallocation copies a
// struct through a frame as untyped 64-bit words, which checkpointed mode
// cannot type (docs/checkpointing.md): atomic loops only.
// RUN: %check_checkpointed --atomic-loops-only %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
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
