// libstdc++ calls that touch no floating-point data, inside differentiated code: std::string built, appended to and compared beside active values (its buffer's pointer stored in a struct with doubles), std::cout << of active values, a std::unordered_map<int, double> (its rehash policy is compiled into the library), function-local statics initialized on first use (__cxa_guard_acquire/release; in checkpointed code too, where their initialization runs as the program's code: interrupt/cxx-static-local.cpp); gradients and tangents against finite differences at -O0 to -O3, and checkpointed.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0 > %t0.out
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1 > %t1.out
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2 > %t2.out
// RUN: %clangxx -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags && %t3 > %t3.out
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// C++20, where the string's members are the program's (libstdc++ uses its
// explicit instantiations only up to C++17): their copies of characters,
// at -O0, and not inlined into f, at -O2.
// RUN: %clangxx -std=c++20 -O0 -g %capsule_cflags %s -o %t20.0 %capsule_ldflags && %t20.0 > %t20.0.out
// RUN: %clangxx -std=c++20 -O2 %capsule_cflags %s -o %t20.2 %capsule_ldflags && %t20.2 > %t20.2.out
#include <capsule/capsule.h>
#include <cmath>
#include <iostream>
#include <string>
#include <unordered_map>
#include "include/check.h"

constexpr int N = 5;

struct Labelled {
  double value;
  std::string label;
  double weight;
};

static double strings(const double *x) {
  Labelled item{x[0] * x[1], "item", x[2]};
  item.label += "-" + std::to_string(N);
  double s = item.value * item.weight;
  if (item.label.size() > 4 && item.label.compare(0, 4, "item") == 0)
    s += x[3] * x[4];
  return s;
}
static double strings_fd(double *x, void *) { return strings(x); }

static double printing(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    s += std::sin(x[i]) * (i + 1);
    std::cout << "step " << i << ": " << s << '\n';
  }
  std::cout << std::endl;
  return s * x[0];
}
static double printing_fd(double *x, void *) { return printing(x); }

static double hashing(const double *x) {
  std::unordered_map<int, double> m;
  for (int i = 0; i < 40; i++)
    m[i % 7] += x[i % N] * (i + 1);
  double s = 0;
  for (const auto &kv : m)
    s += kv.second * kv.second * (kv.first + 1);
  return s / 1000;
}
static double hashing_fd(double *x, void *) { return hashing(x); }

static double table_entry(int k) {
  static const std::string name = std::to_string(42);
  static double scale = 1.0 + name.size();
  return scale * k;
}
static double statics(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++)
    s += x[i] * x[i] * table_entry(i);
  return s;
}
static double statics_fd(double *x, void *) { return statics(x); }


int main() {
  double x[N] = {0.7, -1.3, 2.1, -0.4, 0.9};
  CHECK_GRADIENT_AND_TANGENTS(strings, x, N);
  CHECK_GRADIENT_AND_TANGENTS(printing, x, N);
  CHECK_GRADIENT_AND_TANGENTS(hashing, x, N);
  CHECK_GRADIENT_AND_TANGENTS(statics, x, N);
  return check_report();
}
