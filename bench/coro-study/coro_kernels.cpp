//===- coro_kernels.cpp - The kernels as step-budgeted C++20 coroutines ---===//
//
// kernels.inc with every function that can yield a coroutine (coro_task.h):
// compiled by clang++-19 -O2 -std=c++20, so CoroSplit lowers them with the
// switch ABI, and their frames come from the LIFO frame stack.
//===----------------------------------------------------------------------===//
#include "coro_task.h"
#include "kernels_api.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <math.h>

namespace cor {
#define CS_PI 3.14159265358979323846
#define CS_ROOT
#define CS_NOINLINE __attribute__((noinline))
#define CS_TASK(T, Name) co::Task<T>
#define CS_CHARGE(C) (co::Budget -= (C))
#define CS_YIELD(C)                                                            \
  do {                                                                         \
    co::Budget -= (C);                                                         \
    co_await co::YieldPoint{};                                                 \
  } while (0)
#define CS_AWAIT(E) (co_await (E))
#define CS_RETURN(V) co_return V
#define CS_RETURN_VOID co_return
#define CS_MALLOC(T, N) (T *)malloc(sizeof(T) * (size_t)(N))
#include "kernels.inc"
} // namespace cor

namespace {
// The frame stack is set up before main, so no kernel pays for it.
struct FrameStackInit {
  FrameStackInit() { co::initFrameStack(16u << 20); }
} Init;

template <typename T> double run(long K, csx_run *R, co::Task<T> Root) {
  csx_run Dummy;
  if (!R)
    R = &Dummy;
  return co::drive(std::move(Root), K, &R->yields, &R->steps);
}
} // namespace

extern "C" {
double csx_coro_rotation(long k, csx_run *r, const double *x0, double *work,
                         long n, long l, double phi) {
  return run(k, r, cor::cs_rotation(x0, work, n, l, phi));
}
double csx_coro_rk4(long k, csx_run *r, const double *x0, const double *F,
                    double *work, long n, long steps, double dt) {
  return run(k, r, cor::cs_rk4(x0, F, work, n, steps, dt));
}
double csx_coro_rk4_calls(long k, csx_run *r, const double *x0, const double *F,
                          double *work, long n, long steps, double dt) {
  return run(k, r, cor::cs_rk4_calls(x0, F, work, n, steps, dt));
}
double csx_coro_tree(long k, csx_run *r, const double *x, long n) {
  return run(k, r, cor::cs_tree(x, 0, n));
}
double csx_coro_spin(long k, csx_run *r, double limit) {
  return run(k, r, cor::cs_spin(limit));
}
double csx_coro_gmm(long k, csx_run *r, int d, int kk, int n,
                    const double *alphas, const double *means,
                    const double *icf, const double *x, double wishart_gamma,
                    int wishart_m) {
  return run(
      k, r,
      cor::cs_gmm(d, kk, n, alphas, means, icf, x, wishart_gamma, wishart_m));
}
}
