// C++17's aligned operators new and delete (`new (std::align_val_t(64)) double[n]`, and implicitly `new` of an `alignas(32)` type, as a std::vector of one allocates) inside differentiated code: they were not allocations to Capsule, and their blocks were refused as memory without tracked derivatives (at -O0: "pointer of unknown origin"). Their shadows come from the shadow heap, as new's do. Reverse and forward mode, -O0 to -O3 with AVX2, and checkpointed (whose arena keeps the alignment).
// RUN: %clangxx -std=c++17 -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clangxx -std=c++17 -O2 %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %clangxx -std=c++17 -O3 -mavx2 -mfma %capsule_cflags %s -o %t3 %capsule_ldflags -lm && %t3
// RUN: %check_checkpointed %clangxx %s %t.ck -std=c++17 -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#include <capsule/capsule.h>
#include <cmath>
#include <cstdint>
#include <new>
#include <vector>
#include "include/check.h"

enum { N = 6 };

struct alignas(32) Packet {
  double v[4];
};

static double buffers(double *x) {
  double *a = new (std::align_val_t(64)) double[N];
  if (reinterpret_cast<std::uintptr_t>(a) % 64)
    return 1e300; // the primal lost its alignment
  for (int i = 0; i < N; i++)
    a[i] = std::exp(x[i]) * x[(i + 1) % N];
  double r = 0;
  for (int i = 0; i < N; i++)
    r += a[i] * a[(i + 2) % N];
  ::operator delete[](a, std::align_val_t(64));
  return r;
}
CHECK_FD_OF(buffers)

static double packets(double *x) {
  std::vector<Packet> ps(N);
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 4; k++)
      ps[i].v[k] = std::sin(x[i] * (k + 1));
  Packet *one = new Packet{{x[0], x[1], x[2], x[3]}};
  double r = 0;
  for (const Packet &p : ps)
    r += p.v[1] * p.v[3] + one->v[1] * p.v[0];
  delete one;
  return r;
}
CHECK_FD_OF(packets)

int main() {
  double x[N] = {0.3, -0.2, 0.5, 0.1, -0.4, 0.25};
  CHECK_GRADIENT_AND_TANGENTS(buffers, x, N);
  CHECK_GRADIENT_AND_TANGENTS(packets, x, N);
  return check_report();
}
