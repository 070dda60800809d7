//===- plain_kernels.cpp - The kernels as plain C++ (control) -------------===//
//
// kernels.inc without coroutines, compiled by clang++-19 with the same flags
// as coro_kernels.cpp. Compared with the C primal it shows how much of a
// coroutine/primal ratio is the C++ front end rather than CoroSplit.
//===----------------------------------------------------------------------===//
#include "kernels_api.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <math.h>

namespace plain {
#define CS_ROOT
#include "kernels_plain.h"
// After the macros it needs.
#include "kernels.inc"
} // namespace plain

extern "C" {
double csx_plain_rotation(const double *x0, double *work, long n, long l,
                          double phi) {
  return plain::cs_rotation(x0, work, n, l, phi);
}
double csx_plain_rk4(const double *x0, const double *F, double *work, long n,
                     long steps, double dt) {
  return plain::cs_rk4(x0, F, work, n, steps, dt);
}
double csx_plain_rk4_calls(const double *x0, const double *F, double *work,
                           long n, long steps, double dt) {
  return plain::cs_rk4_calls(x0, F, work, n, steps, dt);
}
double csx_plain_tree(const double *x, long n) {
  return plain::cs_tree(x, 0, n);
}
double csx_plain_spin(double limit) { return plain::cs_spin(limit); }
double csx_plain_gmm(int d, int k, int n, const double *alphas,
                     const double *means, const double *icf, const double *x,
                     double wishart_gamma, int wishart_m) {
  return plain::cs_gmm(d, k, n, alphas, means, icf, x, wishart_gamma,
                       wishart_m);
}
}
