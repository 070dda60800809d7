// C++ thread_local state in differentiated code: an array, and a
// std::vector whose dynamic initialisation (through clang's thread-local
// wrapper, registering its destructor with __cxa_thread_atexit) first runs
// inside the derivative: the gradient in the main thread, a tangent in a
// new one (each thread constructs its own). Against central differences,
// at -O0 and -O2. (A vector already constructed before the derivative
// holds heap memory it has no shadow for: refused at run time with a
// message, as for any global holding such a pointer.)
// RUN: %clangxx -O0 -g -pthread %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g -pthread %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include <capsule/capsule.h>
#include <cmath>
#include <thread>
#include <vector>
#include "check.h"

constexpr int N = 5;
thread_local double sines[N];
thread_local std::vector<double> products(N);

static double f(double *x) {
  for (int i = 0; i < N; ++i) {
    sines[i] = std::sin(x[i]);
    products[i] = sines[i] * x[(i + 1) % N];
  }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += products[i] * sines[(i + 2) % N];
  return s;
}

static double f_fd(double *x, void *) { return f(x); }

int main() {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.1 * i;
  double dx[N] = {0};
  __capsule_autodiff((void *)f, x, dx); // constructs products
  check_grad_fd("f", dx, f_fd, nullptr, x, N);
  double v[N] = {0.5, -0.25, 1, 0, 0.75}, dv = 0, tangent = 0;
  for (int i = 0; i < N; ++i)
    dv += v[i] * check_fd_partial(f_fd, nullptr, x, N, i);
  std::thread([&] { tangent = __capsule_fwddiff((void *)f, x, v); }).join();
  check_close("f (tangent)", tangent, dv, CHECK_FD_RTOL, CHECK_FD_ATOL);
  return check_report();
}
