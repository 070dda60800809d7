//===- eigen_gaussian_objective.cpp - The Eigen benchmark's objective ------===//
//
// The negative log-likelihood of n points under a Gaussian N(mu, S) with
// S = A A^T + I (A a dense d x d matrix of parameters), computed as Eigen
// code is written: a dense Cholesky (Eigen::LLT), a triangular solve of all
// centred points at once, the log-determinant from the factor's diagonal.
// Capsule differentiates it through Eigen's own code (bench/eigen-gaussian.c
// times it). C linkage, so the C harness can call both sides.
//===----------------------------------------------------------------------===//
#include <capsule/capsule.h>

#include <Eigen/Dense>

using Eigen::Map;
using Eigen::MatrixXd;
using Eigen::VectorXd;

extern "C" double eigen_gaussian_nll(const double *params, const double *data,
                                     int d, int n) {
  Map<const VectorXd> mu(params, d);
  Map<const MatrixXd> A(params + d, d, d);
  Map<const MatrixXd> X(data, d, n); // one point per column
  MatrixXd S = A * A.transpose();
  S.diagonal().array() += 1.0;
  Eigen::LLT<MatrixXd> L(S);
  MatrixXd Z = L.matrixL().solve(X.colwise() - mu);
  double logdet = 2 * L.matrixL().toDenseMatrix().diagonal().array().log().sum();
  return 0.5 * Z.squaredNorm() + 0.5 * n * logdet;
}

extern "C" void eigen_gaussian_gradient(const double *params, double *dparams,
                                        const double *data, int d, int n) {
  __capsule_autodiff<void>((void *)eigen_gaussian_nll, capsule_dup, params,
                           dparams, capsule_const, data, capsule_const, d,
                           capsule_const, n);
}
