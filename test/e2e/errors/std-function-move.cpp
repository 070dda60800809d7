// Error: a std::function moved inside differentiated code. libstdc++ moves
// the functor's storage (_Any_data, a union) with a 16-byte memcpy whose
// bytes are the captured values of a small functor (here an active double)
// or a pointer to a large one, decided at run time by the functor's type.
// Taken as the union's layout ({i64, i64}) the copy lost the captured
// double's derivative (0 before); nothing at compile time tells which it
// moves, so it is refused until std::function is handled (issue 18).
// RUN: not %clangxx -O1 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clangxx -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: env CAPSULE_CHECKPOINT_ALL=1 not %clangxx -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: std_function.h:{{[0-9]+}}:{{[0-9]+}}: error: capsule: cannot differentiate function 'pass(std::function<double (double)>)': cannot tell whether this copy moves floating-point data
#include <capsule/capsule.h>
#include <cmath>
#include <functional>
#include <utility>

using Fn = std::function<double(double)>;

__attribute__((noinline)) static Fn pass(Fn f) { return f; }

static double movedCapture(double *x) {
  double scale = x[1];
  Fn f = [scale](double t) { return scale * std::sin(t); };
  Fn g = pass(std::move(f));
  return g(x[0]);
}

int main() {
  double x[2] = {0.4, 0.9}, dx[2] = {0, 0};
  __capsule_autodiff<void>((void *)movedCapture, capsule_dup, x, dx);
  return dx[0] == 0;
}
