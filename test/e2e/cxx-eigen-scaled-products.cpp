// Eigen products with a scalar factor and a transpose (`0.5 * A * B.transpose()`, `s * B * B.transpose()`), of Maps and of owned matrices: Eigen's product evaluator copies the nested Map's data pointer into the lazy product expression as an i64, beside the expression's double factor. The copy was left an integer copy (the expression object mixes doubles with pointers), so the pointer's shadow was not copied: with Maps the gradient crashed on a null shadow at -O1 and above, with owned matrices it was refused ("pointer of unknown origin ... stored into memory that has adjoints"). The struct layout at the copied bytes says a pointer now. Reverse and forward mode against central differences, at -O0 and -O2.
// RUN: %clangxx -O0 -g %capsule_cflags -I/usr/include/eigen3 %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags -I/usr/include/eigen3 %s -o %t2 %capsule_ldflags && %t2
#include <Eigen/Dense>
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

using namespace Eigen;

static double maps(double *x) {
  Map<const MatrixXd> A(x, 4, 2), B(x + 8, 4, 2);
  MatrixXd C = 0.5 * A * B.transpose();
  return C.sum() + C(1, 2) * C(3, 0);
}
CHECK_FD_OF(maps)

static double owned(double *x) {
  MatrixXd A = Map<const MatrixXd>(x, 4, 2), B = Map<const MatrixXd>(x + 8, 4, 2);
  MatrixXd C = 0.5 * A * B.transpose();
  return C.cwiseProduct(C).sum();
}
CHECK_FD_OF(owned)

static double gram(double *x) {
  MatrixXd B = Map<const MatrixXd>(x, 8, 8);
  MatrixXd C = 0.3 * B * B.transpose();
  return C.cwiseProduct(C).sum() + C.trace();
}
CHECK_FD_OF(gram)

int main() {
  double x[64];
  for (int i = 0; i < 64; ++i)
    x[i] = std::sin(1.0 + 0.25 * i);
  CHECK_GRADIENT_AND_TANGENTS(maps, x, 16);
  CHECK_GRADIENT_AND_TANGENTS(owned, x, 16);
  CHECK_GRADIENT_AND_TANGENTS(gram, x, 64);
  return check_report();
}
