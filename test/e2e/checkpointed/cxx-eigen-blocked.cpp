// Checkpointed gradients of Eigen code past its small-matrix paths:
// blocked products (12 x 12, whose kernels take stack buffers, query the
// cache sizes with cpuid once, in a function-local static, and mark their
// loops with assembly comments), a Cholesky factorization and a blocked
// triangular solve, and a function-local static of the program's own (a
// table built on first use) inside the checkpointed code. With small
// leaves, so that stages run again from snapshots many times, against the
// plain gradient (1e-10) and central differences, at -O1, -O2 and -O2 with
// AVX2 and FMA (-O0 and LU: cxx-eigen-lu.cpp). Eigen's `throw
// std::bad_alloc()` paths draw no warning.
// RUN: %clangxx -O1 -g %capsule_cflags -I/usr/include/eigen3 %s -o %t1 %capsule_ldflags 2>&1 | FileCheck --allow-empty --check-prefix=BUILD %s
// RUN: %clangxx -O2 -g %capsule_cflags -I/usr/include/eigen3 %s -o %t2 %capsule_ldflags
// RUN: %clangxx -O2 -g -mavx2 -mfma %capsule_cflags -I/usr/include/eigen3 %s -o %t2a %capsule_ldflags
// RUN: env CAPSULE_LEAF_STEPS=2000 %t1
// RUN: env CAPSULE_LEAF_STEPS=500 %t2
// RUN: env CAPSULE_LEAF_STEPS=500 CAPSULE_STRATEGY=binary %t2a
// BUILD-NOT: warning
#include <Eigen/Dense>
#include <capsule/capsule.h>
#include <array>
#include <vector>
#include "check.h"

using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic>;

/* Built on first use: a static of the program's own inside the
 * checkpointed code. */
static std::array<double, 5> makeTable() {
  std::array<double, 5> t;
  for (int k = 0; k < 5; ++k)
    t[k] = 0.05 + 0.01 * k * std::cos(0.1 * k);
  return t;
}
static double tableScale(int k) {
  static const std::array<double, 5> Table = makeTable();
  return Table[k % Table.size()];
}

static double run(const double *p, int n, int steps) {
  Eigen::Map<const Mat> A(p, n, n);
  Mat X = 0.1 * Mat::Identity(n, n) + 0.05 * A;
  for (int s = 0; s < steps; ++s) {
    Mat Y = A * X;
    Y += tableScale(s) * Mat(Y.transpose());
    Mat S = Y * Y.transpose() + n * Mat::Identity(n, n);
    Mat L = S.llt().matrixL();
    X = L.triangularView<Eigen::Lower>().solve(Y);
  }
  return X.squaredNorm() + X.sum();
}

constexpr int N = 12, Steps = 4;

int main() {
  std::vector<double> p(N * N);
  for (int i = 0; i < N * N; ++i)
    p[i] = 0.5 * std::sin(0.7 * i + 0.3);
  const int Sampled[] = {0, 13, 77, 143};
  CHECK_CHECKPOINTED_GRADIENT(run, p.data(), N * N, Sampled, 4, N, Steps);
  return check_report();
}
