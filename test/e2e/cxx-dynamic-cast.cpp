// dynamic_cast inside differentiated code: the C++ ABI's __dynamic_cast returns its argument moved to the base or derived class asked for (by an offset under multiple inheritance), or null. It was a call without a body (refused, also for a capsule_const object). The result's shadow is the argument's, moved by the same offset. Layers of a model held as base pointers, some of which are also a second base (Scaled) at a nonzero offset; casts that fail return null. Objects dup (their weights differentiated) and const. Reverse and forward mode against central differences, -O0 and -O2, checkpointed.
// RUN: %clangxx -std=c++17 -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clangxx -std=c++17 -O2 %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -std=c++17 -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

struct Layer {
  virtual ~Layer() = default;
  virtual double apply(double v) const = 0;
};
struct Scaled {
  double scale = 1;
  virtual ~Scaled() = default;
};
struct Sine : Layer {
  double w;
  explicit Sine(double w) : w(w) {}
  double apply(double v) const override { return std::sin(w * v); }
};
struct Affine : Layer, Scaled { // Scaled lies at an offset in Affine
  double a, b;
  Affine(double a, double b) : a(a), b(b) { scale = 0.5; }
  double apply(double v) const override { return a * v + b; }
};

static double run(Layer *const *layers, int n, double v) {
  for (int i = 0; i < n; i++) {
    v = layers[i]->apply(v);
    if (auto *s = dynamic_cast<const Scaled *>(layers[i]))
      v *= s->scale;
    if (auto *sine = dynamic_cast<const Sine *>(layers[i]))
      v += 0.1 * sine->w * v;
  }
  return v;
}

/* The weights of a three-layer model, w = x[0..4], applied to 0.7. */
static double model(double *x) {
  Sine s1(x[0]), s2(x[3]);
  Affine a(x[1], x[2]);
  a.scale = x[4];
  Layer *layers[3] = {&s1, &a, &s2};
  return run(layers, 3, 0.7);
}
CHECK_FD_OF(model)

int main() {
  double x[5] = {0.9, 1.3, -0.2, 0.6, 0.8};
  CHECK_GRADIENT_AND_TANGENTS(model, x, 5);

  /* The model as objects: dup (their shadows hold the weights' adjoints)
   * and const (only the input differentiated). */
  Sine s1(0.9), s2(0.6), ds1(0), ds2(0);
  Affine a(1.3, -0.2), da(0, 0);
  a.scale = 0.8;
  da.scale = 0;
  Layer *layers[3] = {&s1, &a, &s2}, *dlayers[3] = {&ds1, &da, &ds2};
  double v = 0.7;
  double dv = __capsule_autodiff((void *)run, capsule_dup, layers, dlayers,
                                 capsule_const, 3, v);
  double want[5];
  check_fd_grad(model_fd, nullptr, x, 5, want);
  check_close("dw sine 1", ds1.w, want[0], CHECK_FD_RTOL, CHECK_FD_ATOL);
  check_close("da", da.a, want[1], CHECK_FD_RTOL, CHECK_FD_ATOL);
  check_close("db", da.b, want[2], CHECK_FD_RTOL, CHECK_FD_ATOL);
  check_close("dw sine 2", ds2.w, want[3], CHECK_FD_RTOL, CHECK_FD_ATOL);
  check_close("dscale", da.scale, want[4], CHECK_FD_RTOL, CHECK_FD_ATOL);
  double h = 1e-6;
  check_close("dv", dv, (run(layers, 3, v + h) - run(layers, 3, v - h)) / (2 * h),
              CHECK_FD_RTOL, CHECK_FD_ATOL);
  double dv_const = __capsule_autodiff((void *)run, capsule_const, layers,
                                       capsule_const, 3, v);
  check_close("dv, const model", dv_const, dv, CHECK_CF_RTOL, CHECK_CF_ATOL);
  return check_report();
}
