// Checkpointed gradients through Eigen's LU with partial pivoting: the
// blocked factorization of a 24 x 24 matrix (whose panels the unblocked one
// factors), the unblocked one of a 6 x 6 matrix, solves with several
// right-hand sides and a determinant, beside a blocked product and a
// Cholesky solve; at -O0 (blocked kernels too) and -O1. The step
// functions' integer copies of Eigen's sizes and strides, which the split
// turns into byte offsets into records, were refused ("untyped 64-bit
// copy between memories that have adjoints") at every level; at -O0 every
// blocked kernel was. With small leaves, so that stages run again from
// snapshots many times, against the plain gradient (1e-10) and central
// differences. Eigen's `throw std::bad_alloc()` paths draw no warning.
// (Without -g: Eigen's checkpointed code takes a minute to compile.)
// RUN: %clangxx -O0 %capsule_cflags -I/usr/include/eigen3 %s -o %t0 %capsule_ldflags 2>&1 | FileCheck --allow-empty --check-prefix=BUILD %s
// RUN: %clangxx -O1 %capsule_cflags -I/usr/include/eigen3 %s -o %t1 %capsule_ldflags 2>&1 | FileCheck --allow-empty --check-prefix=BUILD %s
// RUN: env CAPSULE_LEAF_STEPS=20000 %t0
// RUN: env CAPSULE_LEAF_STEPS=300 CAPSULE_STRATEGY=treeverse %t1
// BUILD-NOT: warning
// BUILD-NOT: error
#include <Eigen/Dense>
#include <capsule/capsule.h>
#include <cmath>
#include <vector>
#include "check.h"

using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic>;

static double run(const double *p, int n, int steps) {
  Eigen::Map<const Mat> A(p, n, n);
  Mat I = Mat::Identity(n, n);
  Mat X = 0.1 * I + 0.05 * A;
  double LogDet = 0;
  for (int s = 0; s < steps; ++s) {
    Mat Y = A * X;
    Mat B(2 * n, 2 * n), R(2 * n, n);
    B << n * I + 0.1 * Y, 0.1 * Y.transpose(), 0.1 * Y, n * I + 0.2 * X;
    R << Y, X;
    Eigen::PartialPivLU<Mat> LU = B.partialPivLu();
    X = 0.5 * X + 2.0 * LU.solve(R).topRows(n);
    LogDet += std::log(std::abs(LU.determinant()));
    int h = n / 2;
    Mat C = h * Mat::Identity(h, h) + X.topLeftCorner(h, h);
    Mat Z = C.partialPivLu().solve(Y.topRows(h));
    X.bottomRows(h) += 0.1 * Z;
    Mat S = X * X.transpose() + I;
    X = S.llt().solve(X + Y);
  }
  return X.squaredNorm() + X.sum() + 0.01 * LogDet;
}

constexpr int N = 12, Steps = 3;

int main() {
  std::vector<double> p(N * N);
  for (int i = 0; i < N * N; ++i)
    p[i] = 0.5 * std::sin(0.7 * i + 0.3);
  const int Sampled[] = {0, 13, 77, 143};
  CHECK_CHECKPOINTED_GRADIENT(run, p.data(), N * N, Sampled, 4, N, Steps);
  return check_report();
}
