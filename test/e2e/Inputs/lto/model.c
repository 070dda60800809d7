#include <math.h>
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

/* Memory of this file that the function writes and reads back: under
 * ThinLTO its derivative runs in the marker's file, which sees the buffer
 * only as a symbol of another file. */
static double history[4];
double model_history(const double *x, int n) {
  for (int i = 0; i < n; ++i)
    history[i] = sin(x[i]) * x[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += history[i] * history[i];
  return s;
}

/* Indirect calls through a table of this file and one of another: under
 * ThinLTO the link must import every function they may reach. */
static double twice(double x) { return 2 * x; }
static double (*const local_ops[2])(double) = {twice, util_act};
double model_table(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += util_ops[i % 2](x[i]) * local_ops[(i / 2) % 2](x[i]);
  return s;
}

#ifdef WEAK_MODEL
/* ThinLTO does not import a weak function: another definition may win. */
__attribute__((weak)) double model_weak(const double *x, int n) {
  return x[0] * n;
}
#endif
