// Interruptible execution: std::vector growing on the heap inside the
// function (push_back from empty through several reallocations, resize up
// and down, a vector of vectors, insert and erase in the middle), with the
// results copied to the caller before the vectors are destroyed; the
// caller's array and the returned value must be identical after an
// interruption at any step (interrupt_check.h lists the checks).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"
#include <vector>

long vectors(const int *in, int n, long *out, int out_len) {
  std::vector<long> v;
  for (int i = 0; i < n; ++i)
    v.push_back(in[i] * 3L);
  size_t cap_growth = v.capacity();
  v.resize(v.size() + 5, 7);
  v.insert(v.begin() + 2, 99);
  v.erase(v.begin() + 5);
  std::vector<std::vector<double>> rows;
  for (int r = 0; r < 4; ++r) {
    rows.push_back(std::vector<double>());
    for (int c = 0; c <= r * 2; ++c)
      rows.back().push_back(v[(r + c) % v.size()] * 0.5);
  }
  rows[1].resize(1);
  rows[2].resize(12, 1.5);
  double s = 0;
  for (const auto &row : rows)
    for (double d : row)
      s += d;
  v.resize(out_len < (int)v.size() ? out_len : v.size());
  for (int i = 0; i < out_len; ++i)
    out[i] = i < (int)v.size() ? v[i] : -1;
  return (long)(s * 10) + (long)cap_growth * 1000 + (long)v.size();
}

static int in[21];
static long out[24];
static void reset(void) {
  for (int i = 0; i < 21; ++i)
    in[i] = (i * 7) % 10 - 2;
  memset(out, 0, sizeof out);
}
DEFINE_RUNNERS(long, vectors, in, 21, out, 24)
static const struct region regions[] = {{in, sizeof in}, {out, sizeof out}};

int main() {
  struct program p = {"cxx-vector", sizeof(long),  reset,   plain_run,
                      primops_run,  interrupt_run, regions, 2,
                      8192};
  return check_interruptible(&p) != 0;
}
