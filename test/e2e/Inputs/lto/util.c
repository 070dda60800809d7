#include <math.h>
#include "model.h"

double util_bias = 0.25;
double util_weight(int i) { return 1.0 + 0.5 * i; }
double util_act(double x) { return tanh(x) + util_bias * x; }
/* Capsule cannot differentiate inline assembly: rules.c has its rule. */
double util_opaque(double x) {
  double y = x * x * x;
  __asm__ volatile("" : "+x"(y));
  return y;
}
