// Eigen 3.4 built for AVX2 and FMA (-mavx2 -mfma, what -march=native gives
// on this machine): dynamic matrices, whose 32-byte alignment Eigen makes
// itself by rounding a malloc'd address as an integer (the pointer is the
// block's address moved by an offset: Support/IntegerAddresses.h), the
// blocked product kernel, whose multiply-add Eigen writes in inline
// assembly (vfmadd231pd), and reductions. Gradients and tangents against
// finite differences. (Triangular solves with AVX are not supported yet:
// docs/limitations.md.)
// REQUIRES: avx2-fma
// RUN: %clangxx -O2 -mavx2 -mfma -g %capsule_cflags -I/usr/include/eigen3 %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -O3 -mavx2 -mfma -g %capsule_cflags -I/usr/include/eigen3 %s -o %t3 %capsule_ldflags && %t3
#include <Eigen/Dense>
#include <capsule/capsule.h>

#include "include/check.h"

using Eigen::Map;
using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr int N = 9;

/* 12 x 12: past the size Eigen multiplies coefficient by coefficient. */
static double products(const double *x) {
  Matrix3d A = Map<const Matrix3d>(x);
  MatrixXd C(12, 12);
  for (int i = 0; i < 12; i++)
    for (int j = 0; j < 12; j++)
      C(i, j) = A(i % 3, j % 3) * (1 + 0.01 * (i + j));
  MatrixXd D = C * C.transpose() * C;
  VectorXd v = Map<const VectorXd>(x, N);
  VectorXd w = C.topLeftCorner(N, N) * v + 0.5 * v;
  return D.sum() / 1000 + w.squaredNorm() + w.dot(v);
}
static double products_fd(double *x, void *) { return products(x); }

int main() {
  double x[N] = {0.7, -1.3, 2.1, -0.4, -0.9, 1.6, 0.25, -2.2, 1.1};
  CHECK_GRADIENT_AND_TANGENTS(products, x, N);
  return check_report();
}
