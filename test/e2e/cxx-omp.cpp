// OpenMP in C++ differentiated code: std::vector read and written inside
// parallel loops (its data pointer captured with the vector), a lambda
// called in the loop body, std::accumulate over a thread's chunk, and a
// float captured firstprivate (clang passes it zero-extended in a 64-bit
// word) whose adjoint the team sums. Gradients and a tangent against
// central differences on teams of 1 and 3, at -O0 and -O2; checkpointed
// gradients equal to the plain ones (tools/checkpointed.py).
// Threads wait passively (OMP_WAIT_POLICY): lit runs tests side by side on
// few cores, where spinning teams slow every test down.
// RUN: %clangxx -O0 -g -fopenmp %capsule_cflags %s -o %t0 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t0
// RUN: %clangxx -O2 -g -fopenmp %capsule_cflags %s -o %t2 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t2
// RUN: env OMP_WAIT_POLICY=passive %check_checkpointed %clangxx %s %t.ck0 -O0 -g -fopenmp %capsule_cflags -- %capsule_ldflags
// RUN: env OMP_WAIT_POLICY=passive %check_checkpointed %clangxx %s %t.ck2 -O2 -g -fopenmp %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include <numeric>
#include <omp.h>
#include <vector>
#include "check.h"

constexpr int N = 20;

static double vectors(double *xp) {
  std::vector<double> x(xp, xp + N), y(N);
  auto bump = [](double a, double b) { return std::sin(a) * b + a * a; };
#pragma omp parallel for
  for (int i = 0; i < N; ++i)
    y[i] = bump(x[i], x[(i + 1) % N]);
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
    int t = omp_get_thread_num(), n = omp_get_num_threads();
    int lo = N * t / n, hi = N * (t + 1) / n;
    s += std::accumulate(y.begin() + lo, y.begin() + hi, 0.0,
                         [](double acc, double v) { return acc + v * v; });
  }
  return s;
}

static double vectors_fd(double *x, void *) { return vectors(x); }

static float scaled(const float *x, float scale) {
  float s = 0;
#pragma omp parallel for reduction(+ : s) firstprivate(scale)
  for (int i = 0; i < 16; ++i)
    s += std::sin(x[i]) * scale * scale;
  return s;
}

int main() {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.07 * i;
  for (int threads : {1, 3}) {
    omp_set_num_threads(threads);
    CHECK_GRADIENT_AND_DIRECTION("vectors", vectors, x, N);

    float xf[16], dxf[16] = {0};
    for (int i = 0; i < 16; ++i)
      xf[i] = 0.1f * i;
    float dscale = __capsule_autodiff((void *)scaled, capsule_dup, xf, dxf,
                                      1.5f);
    float want = 0;
    for (int i = 0; i < 16; ++i)
      want += 2 * 1.5f * std::sin(xf[i]);
    check_close("scaled d/dscale (closed form)", dscale, want,
                CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
    for (int i = 0; i < 16; ++i)
      check_close("scaled d/dx (closed form)", dxf[i],
                  std::cos(xf[i]) * 1.5f * 1.5f, CHECK_FLOAT_RTOL,
                  CHECK_FLOAT_ATOL);
  }
  return check_report();
}
