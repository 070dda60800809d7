// Shadows that do not share their primal's alignment modulo 16. Eigen peels a loop to the primal's 16-byte boundary and then loads aligned packets; the derivative did the same on the shadow, with an aligned SSE load that faulted (forward mode through Matrix3d::llt() at -O0, whose LLT object is aligned to 8 on the stack while its tangent slot need not be at the same place modulo 16; reverse and forward mode through reductions of Maps whose shadows the program passes at 8 modulo 16). Shadow accesses assume a double's alignment now. Against central differences, at -O0 with SSE2 and at -O2 with AVX2.
// RUN: %clangxx -O0 -g -I/usr/include/eigen3 %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clangxx -O2 -mavx2 -mfma -I/usr/include/eigen3 %capsule_cflags %s -o %t2a %capsule_ldflags -lm && %t2a
#include <Eigen/Dense>
#include <capsule/capsule.h>
#include "include/check.h"

using namespace Eigen;

static double solve(double *x) {
  Vector3d a(x[0], x[1], x[2]), b(x[3], x[4], x[5]);
  Matrix3d M = a * b.transpose() + Matrix3d::Identity() * 3.0;
  return M.llt().solve(b).sum();
}
CHECK_FD_OF(solve)

enum { N = 13 };

/* Reductions over a Map of the input: sums of products and a norm. */
static double reduce(double *x) {
  Map<VectorXd> v(x, N);
  return v.dot(v.cwiseProduct(v)) + v.norm() * v.sum() + v.squaredNorm();
}
CHECK_FD_OF(reduce)

int main() {
  double x[6] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  CHECK_GRADIENT_AND_TANGENTS(solve, x, 6);

  // The input 16-byte aligned, its shadow at 8 modulo 16.
  alignas(16) double y[N], dy_store[N + 1] = {0}, t_store[N + 1];
  double *dy = dy_store + 1;
  for (int i = 0; i < N; i++)
    y[i] = 0.3 + 0.05 * i * (i % 3 == 0 ? -1 : 1);
  __capsule_autodiff((void *)reduce, capsule_dup, y, dy);
  check_grad_fd("reduce, shadow at 8 mod 16", dy, reduce_fd, nullptr, y, N);
  for (int j = 0; j < N; j++) {
    double *t = t_store + 1;
    for (int i = 0; i < N; i++)
      t[i] = i == j;
    check_close("reduce tangent, shadow at 8 mod 16",
                __capsule_fwddiff((void *)reduce, capsule_dup, y, t),
                check_fd_partial(reduce_fd, nullptr, y, N, j), CHECK_FD_RTOL,
                CHECK_FD_ATOL);
  }
  return check_report();
}
