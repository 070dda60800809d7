// std::shared_ptr and std::weak_ptr owning active data: make_shared puts
// the reference counts in the block with the doubles, and copies, resets
// and weak_ptr::lock update them atomically (integer atomic updates, which
// move no floating-point data). A class of the program's derived from a
// standard exception, thrown where the result is not finite: its
// destructor, which a deleter called through a pointer could reach, calls
// the library's (declared only, it touches no floating-point data; was
// refused as a call without a derivative). Reverse and forward mode, plain
// and checkpointed, with and without threads linked.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g -pthread %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clangxx %s %t.ck2 -O2 -g -pthread %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "include/check.h"

struct Layer {
  double w, b;
};

struct NotFinite : std::runtime_error {
  explicit NotFinite(const std::string &what) : std::runtime_error(what) {}
};

static const int N = 5;

static double f(const double *x) {
  std::vector<std::shared_ptr<Layer>> layers;
  for (int i = 0; i < N; ++i)
    layers.push_back(std::make_shared<Layer>(Layer{x[i], 0.5 * x[i]}));
  std::shared_ptr<Layer> first = layers[0];
  std::weak_ptr<Layer> watch = layers[2];
  layers[2].reset();
  double s = 0;
  for (auto &l : layers)
    if (l)
      s += std::sin(l->w) * l->b;
  if (std::shared_ptr<Layer> alive = watch.lock())
    s += alive->w * 10; // not reached: the last owner is gone
  std::weak_ptr<Layer> kept = first;
  if (std::shared_ptr<Layer> alive = kept.lock())
    s += alive->b * alive->b;
  std::shared_ptr<double> owned(new double(x[1] * 3));
  std::shared_ptr<double> shared = owned;
  owned.reset();
  if (!std::isfinite(s))
    throw NotFinite("the layers' sum is not finite");
  return s * first->w + *shared * x[3];
}

static double f_fd(double *x, void *) { return f(x); }

int main() {
  double x[N] = {0.3, 0.5, 0.7, 0.9, 1.1};
  CHECK_GRADIENT_AND_TANGENTS(f, x, N);
  return check_report();
}
