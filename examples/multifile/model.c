#include "model.h"

/* A two-parameter neuron per input, squared error against the targets. */
double loss(const double *params, const double *inputs, const double *targets,
            int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    double y = util_activation(params[0] * inputs[i] + params[1]) *
               util_weight(i, 0);
    sum += (y - targets[i]) * (y - targets[i]);
  }
  return sum;
}
