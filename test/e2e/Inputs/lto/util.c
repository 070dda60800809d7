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

/* Callbacks that another file calls through this table (model_table),
 * and nothing else names. */
static double util_square(double x) { return x * x; }
static double util_cube(double x) { return x * x * x; }
double (*const util_ops[2])(double) = {util_cube, util_square};
