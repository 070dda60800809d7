#include "model.h"

double model(const double *x, int n) {
  double s = util_bias;
  for (int i = 0; i < n; ++i)
    s += util_weight(i) * util_act(x[i]) + util_opaque(x[i]);
  return s;
}

void model_step(double *state, int n, double dt) {
  for (int t = 0; t < 50; ++t)
    for (int i = 0; i < n; ++i)
      state[i] += dt * util_act(state[(i + 1) % n]);
}
