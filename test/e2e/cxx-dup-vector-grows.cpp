// A dup object whose std::vector member the differentiated function grows (push_back into a history, as a training step records its losses): the buffers it allocates have shadows the gradient hands to the program in the shadow object, and the shadow object's destructor deletes them. The runtime's shadow blocks carried a header, so that delete aborted ("free(): invalid pointer"); with a shadow vector sized like the primal's, the function's free of the old buffer wrote the runtime's freed mark before the program's block (heap corruption, in a training loop a crash a few steps on). A training loop of 20 steps, each with a fresh shadow object that mirrors the model (the history empty on even steps, on odd ones of the primal history's size and capacity), every gradient against its closed form. Reverse mode at -O0 and -O2; forward mode alike.
// RUN: %clangxx -std=c++17 -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -std=c++17 -O2 %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include <capsule/capsule.h>
#include <vector>
#include "include/check.h"

struct Model {
  std::vector<double> w;
  std::vector<double> history; // grown by every step
};

/* Loss of a step: sum_i (w0 i + w1)^2 over n points, each recorded. */
static double step(Model *m, int n) {
  double l = 0;
  for (int i = 0; i < n; i++) {
    double y = m->w[0] * i + m->w[1];
    m->history.push_back(y);
    l += y * y;
  }
  return l;
}

int main() {
  Model m{{0.5, -0.25}, {}};
  for (int t = 0; t < 20; t++) {
    // A shadow mirrors its primal: on even steps the history starts empty
    // (its shadow too), on odd ones the shadow has the primal's size and
    // capacity, and push_back reallocates both.
    if (t % 2 == 0) {
      m.history.clear();
      m.history.shrink_to_fit();
    }
    Model dm{{0.0, 0.0}, std::vector<double>(t % 2 ? m.history.size() : 0)};
    if (t % 2)
      dm.history.reserve(m.history.capacity());
    double w0 = m.w[0], w1 = m.w[1], dw0 = 0, dw1 = 0;
    for (int i = 0; i < 5; i++) {
      dw0 += 2 * (w0 * i + w1) * i;
      dw1 += 2 * (w0 * i + w1);
    }
    __capsule_autodiff((void *)step, capsule_dup, &m, &dm, capsule_const, 5);
    check_close("dw0", dm.w[0], dw0, CHECK_CF_RTOL, CHECK_CF_ATOL);
    check_close("dw1", dm.w[1], dw1, CHECK_CF_RTOL, CHECK_CF_ATOL);
    m.w[0] -= 0.001 * dm.w[0];
    m.w[1] -= 0.001 * dm.w[1];
    Model tm{{1.0, 0.0}, std::vector<double>(m.history.size())};
    tm.history.reserve(m.history.capacity()); // the tangent along w0
    double t0 = __capsule_fwddiff((void *)step, capsule_dup, &m, &tm,
                                  capsule_const, 5);
    double want = 0;
    for (int i = 0; i < 5; i++)
      want += 2 * (m.w[0] * i + m.w[1]) * i;
    check_close("tangent along w0", t0, want, CHECK_CF_RTOL, CHECK_CF_ATOL);
  } // the shadow objects' destructors delete the buffers the gradient made
  check_close("history", (double)m.history.size(), 20, 0, 0);
  return check_report();
}
