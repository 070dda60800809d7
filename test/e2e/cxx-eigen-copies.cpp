// Copies of Eigen's dynamic matrices (MatrixXd B = A; a copy returned
// from a function) in a file that does little else: DenseStorage's copy
// constructor copies its buffer with an untyped memcpy of pointers it
// loads from and stores to its m_data field, which nothing in the
// constructor types. The field's TBAA tag names it, and the module's other
// loads of that field access doubles. Was refused at -O2 ("cannot tell
// whether this copy moves floating-point data") unless other code of the
// file happened to lend evidence. Gradients and tangents against central
// differences, as C++17 and C++20, and checkpointed.
// RUN: %clangxx -O2 -g %capsule_cflags -I/usr/include/eigen3 %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -std=c++20 -O2 %capsule_cflags -I/usr/include/eigen3 %s -o %t20 %capsule_ldflags && %t20
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -I/usr/include/eigen3 -- %capsule_ldflags
#include <capsule/capsule.h>
#include <Eigen/Dense>

#include "include/check.h"

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr int N = 4;

__attribute__((noinline)) static MatrixXd shifted(const MatrixXd &m) {
  MatrixXd copy = m;
  copy.diagonal().array() += 1;
  return copy;
}

static double copies(const double *x) {
  MatrixXd a(N, N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      a(i, j) = x[i] * x[j] + (i == j);
  MatrixXd b = a;
  b(0, 0) += x[1];
  MatrixXd c = shifted(b);
  VectorXd v = c.col(1);
  return b.sum() + a.norm() + c(2, 3) * v.squaredNorm();
}
CHECK_FD_OF(copies)

int main() {
  double x[N] = {0.1, -0.2, 0.3, 0.45};
  CHECK_GRADIENT_AND_TANGENTS(copies, x, N);
  return check_report();
}
