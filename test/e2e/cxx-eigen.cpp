// Eigen 3.4, differentiated through its own code with its SSE2 vectorization on: fixed-size matrices, dynamic products large enough for the blocked GEMM kernel (packing, pbroadcast4's 32-bit lane shuffles), reductions (sum, squaredNorm, norm, maxCoeff and minCoeff, whose SSE max and min Eigen writes in inline assembly, cwiseAbs by masking sign bits), Map over raw arrays, Cholesky (llt, ldlt) and LU (partialPivLu) solves, inverse and determinant; a Gaussian log-likelihood with a dense Cholesky. Gradients and tangents against finite differences. (Checkpointed gradients of Eigen's blocked kernels are refused: interruptible code takes no stack arrays of variable size, which Eigen allocates with alloca, nor inline assembly.)
// RUN: %clangxx -O2 -g %capsule_cflags -I/usr/include/eigen3 %s -o %t2 %capsule_ldflags && %t2
// With AVX2 and FMA: cxx-eigen-avx2.cpp; with AVX-512: cxx-eigen-avx512.cpp.
// The solves alone at -O0 (LU's permutation swaps ints through references):
// RUN: %clangxx -O0 -g -DSOLVES_ONLY %capsule_cflags -I/usr/include/eigen3 %s -o %t0 %capsule_ldflags && %t0
#include <Eigen/Dense>
#include <capsule/capsule.h>
#include "include/check.h"

using Eigen::Map;
using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

constexpr int N = 9;

#ifndef SOLVES_ONLY
static double fixed_size(const double *x) {
  Matrix3d A = Map<const Matrix3d>(x);
  Vector3d v(x[0], x[4], x[8]);
  Matrix3d B = A * A.transpose() + Matrix3d::Identity();
  return v.dot(B * v) + (A.cwiseProduct(B)).sum() + B.inverse().trace();
}
static double fixed_size_fd(double *x, void *) { return fixed_size(x); }

/* 12 x 12: past the size Eigen multiplies coefficient by coefficient. */
static double blocked_product(const double *x) {
  Matrix3d A = Map<const Matrix3d>(x);
  MatrixXd C(12, 12);
  for (int i = 0; i < 12; i++)
    for (int j = 0; j < 12; j++)
      C(i, j) = A(i % 3, j % 3) * (1 + 0.01 * (i + j));
  MatrixXd D = C * C.transpose() * C;
  return D.sum() / 1000;
}
static double blocked_product_fd(double *x, void *) {
  return blocked_product(x);
}

#endif
#ifndef SOLVES_ONLY
static double reductions(const double *x) {
  Map<const VectorXd> v(x, N);
  VectorXd w = v.array().sin().matrix() + 0.5 * v;
  return v.maxCoeff() * w.minCoeff() + v.cwiseAbs().sum() + w.squaredNorm() +
         w.norm() + v.head(4).dot(w.tail(4));
}
static double reductions_fd(double *x, void *) { return reductions(x); }

#endif

#ifndef WITHOUT_SOLVES
/* A symmetric positive definite 4 x 4 system from the inputs. */
static MatrixXd spd(const double *x) {
  MatrixXd M(4, 4);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      M(i, j) = x[(i + 2 * j) % N] * 0.3 + (i == j ? 2.0 : 0.0);
  return M * M.transpose();
}
static double solves(const double *x) {
  MatrixXd S = spd(x);
  VectorXd b(4);
  b << x[0], x[3], x[5], 1.0;
  VectorXd y1 = S.llt().solve(b), y2 = S.ldlt().solve(b);
  VectorXd y3 = S.partialPivLu().solve(b);
  return y1.dot(b) + y2.sum() + y3.squaredNorm() + S.inverse()(1, 2) +
         std::log(S.determinant());
}
static double solves_fd(double *x, void *) { return solves(x); }

/* -log N(y | 0, S) with S = L L^T: 0.5 |L^-1 y|^2 + sum log L_ii. */
static double gaussian(const double *x) {
  MatrixXd S = spd(x);
  VectorXd y(4);
  y << 0.3, -0.2, 0.5, 0.1;
  Eigen::LLT<MatrixXd> L(S);
  VectorXd z = L.matrixL().solve(y);
  return 0.5 * z.squaredNorm() +
         L.matrixL().toDenseMatrix().diagonal().array().log().sum();
}
static double gaussian_fd(double *x, void *) { return gaussian(x); }
#endif


int main() {
  double x[N] = {0.7, -1.3, 2.1, -0.4, -0.9, 1.6, 0.25, -2.2, 1.1};
#ifndef SOLVES_ONLY
  CHECK_GRADIENT_AND_TANGENTS(fixed_size, x, N);
  CHECK_GRADIENT_AND_TANGENTS(blocked_product, x, N);
#endif
#ifndef SOLVES_ONLY
  CHECK_GRADIENT_AND_TANGENTS(reductions, x, N);
#endif
#ifndef WITHOUT_SOLVES
  CHECK_GRADIENT_AND_TANGENTS(solves, x, N);
  CHECK_GRADIENT_AND_TANGENTS(gaussian, x, N);
#endif
  return check_report();
}
