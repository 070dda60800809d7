// Eigen with EIGEN_USE_BLAS: its products go to the Fortran interface of BLAS (dgemm_, dgemv_), which Eigen's blas.h declares as functions returning int, as f2c does. A routine Capsule has rules for, declared with an int result, was a function without a body ("call to a function without a body and without a known derivative ('dgemv_')"); such declarations are now the subroutines they are, returning 0. Reverse and forward mode against central differences, -O0 and -O2.
// RUN: %clangxx -O0 -g -DEIGEN_USE_BLAS %capsule_cflags -I/usr/include/eigen3 %s -o %t0 %capsule_ldflags -lopenblas
// RUN: env OPENBLAS_NUM_THREADS=1 %t0
// RUN: %clangxx -O2 -DEIGEN_USE_BLAS %capsule_cflags -I/usr/include/eigen3 %s -o %t2 %capsule_ldflags -lopenblas
// RUN: env OPENBLAS_NUM_THREADS=1 %t2
#include <Eigen/Dense>
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

using namespace Eigen;

/* A Gram matrix and a matrix-vector product of a 6x6 matrix: dgemm_ and
 * dgemv_. */
static double products(double *x) {
  Map<const MatrixXd> A(x, 6, 6);
  MatrixXd B = A * A.transpose();
  VectorXd v = A * Map<const VectorXd>(x + 36, 6);
  return B.squaredNorm() + v.dot(v);
}
CHECK_FD_OF(products)

int main() {
  double x[42];
  for (int i = 0; i < 42; i++)
    x[i] = std::sin(0.3 * i + 1);
  CHECK_GRADIENT_AND_TANGENTS(products, x, 42);
  return check_report();
}
