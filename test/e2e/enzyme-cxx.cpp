// Enzyme spellings from C++ (extern "C" declarations, variadic marker, no Capsule header) on a small class-based energy.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <cmath>
#include "include/check.h"

extern "C" {
extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
double __enzyme_autodiff(void *, ...);
}

namespace {
struct Chain {
  const double *pos;
  int n;
  double stiffness;
  double energy() const {
    double e = 0.0;
    for (int i = 0; i + 1 < n; i++) {
      double d = pos[i + 1] - pos[i] - 1.0;
      e += 0.5 * stiffness * d * d + 0.1 * std::cos(pos[i]);
    }
    return e;
  }
};
} // namespace

double chain_energy(const double *pos, int n, double k) {
  Chain c{pos, n, k};
  return c.energy();
}

enum { N = 5 };
static double K = 2.5;
static double P[N] = {0.0, 1.2, 1.9, 3.3, 4.1};
static double pos_fd(double *p, void *) { return chain_energy(p, N, K); }
static double k_fd(double k) { return chain_energy(P, N, k); }

int main() {
  double dp[N] = {0};
  double dk = __enzyme_autodiff((void *)chain_energy, enzyme_dup, P, dp,
                                enzyme_const, (int)N, enzyme_out, K);
  check_grad_fd("dpos", dp, pos_fd, nullptr, P, N);
  check_close("dk (fd)", dk, check_fd1(k_fd, K), CHECK_FD_RTOL, CHECK_FD_ATOL);
  return check_report();
}
