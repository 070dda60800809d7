// Eigen's geometry module: rotations composed as quaternions (AngleAxisd
// products, Quaterniond products and conjugates, toRotationMatrix, rotating
// a vector). With SSE2, Eigen's quaternion product (Geometry_SIMD.h) adds
// and subtracts lanes by flipping the sign bit of one lane of a pair
// (paddsub: an xor with {-0.0, 0.0}); with SSE3 it is addsubpd. The per-lane
// sign flip is now the floating-point negation of that lane (was refused:
// "floating-point value reinterpreted as bits; its derivative would be
// lost"), and addsubpd the subtraction and addition it is (was refused as
// a call without a known derivative, 'llvm.x86.sse3.addsub.pd'). Gradients
// and tangents against central differences, -O1 to -O3, with SSE2 and with
// AVX2, and checkpointed.
// RUN: %clangxx -O1 -g %capsule_cflags -I/usr/include/eigen3 %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags -I/usr/include/eigen3 %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -O3 -mavx2 -mfma %capsule_cflags -I/usr/include/eigen3 %s -o %t3 %capsule_ldflags && %t3
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -I/usr/include/eigen3 -- %capsule_ldflags
#include <capsule/capsule.h>
#include <Eigen/Geometry>

#include "include/check.h"

using Eigen::AngleAxisd;
using Eigen::Quaterniond;
using Eigen::Vector3d;

// Yaw, pitch and roll composed; the quaternion's coefficients weighted.
static double composed(const double *a) {
  Quaterniond q = AngleAxisd(a[0], Vector3d::UnitZ()) *
                  AngleAxisd(a[1], Vector3d::UnitY()) *
                  AngleAxisd(a[2], Vector3d::UnitX());
  return q.x() + 2 * q.y() + 3 * q.z() + 4 * q.w();
}

// A point rotated by a quaternion built from parameters, then by the
// conjugate of another; its distance to a target.
static double rotated(const double *a) {
  Quaterniond p(a[0], a[1], a[2], 1.0);
  p.normalize();
  Quaterniond r = AngleAxisd(a[2], Vector3d(1, 2, 2).normalized()) * p;
  Vector3d x = (r.conjugate() * p).toRotationMatrix() * Vector3d(0.5, -1, 2);
  Vector3d y = r * x;
  return (y - Vector3d(1, 1, 1)).squaredNorm();
}

static double composedFd(double *a, void *) { return composed(a); }
static double rotatedFd(double *a, void *) { return rotated(a); }

template <double (*f)(const double *)>
static void check(const char *what, check_fn fd) {
  double a[3] = {0.3, -0.4, 0.9}, da[3] = {0, 0, 0};
  __capsule_autodiff<void>((void *)f, capsule_dup, a, da);
  check_grad_fd(what, da, fd, nullptr, a, 3);
  double v[3] = {0.5, -1.25, 0.75}, dot = 0;
  for (int i = 0; i < 3; i++)
    dot += da[i] * v[i];
  check_close(what, __capsule_fwddiff<double>((void *)f, capsule_dup, a, v),
              dot, 1e-12, 1e-14);
}

int main() {
  check<composed>("composed", composedFd);
  check<rotated>("rotated", rotatedFd);
  return check_report();
}
