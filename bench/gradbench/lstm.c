/*===- lstm.c - GradBench lstm: LSTM loss gradient ------------------------===*
 *
 * The loss of bench/lstm.c (lstm_objective.inc) at GradBench's and
 * ADBench's smallest standard instance, l=2 layers, c=1024 characters,
 * b=14; gradient with respect to main_params and extra_params, checked
 * against complex step before anything is timed.
 *===----------------------------------------------------------------------===*/
#include "gradbench.h"

#include "lstm_bench.h"

static int lstm_check(void *p) {
  return lstm_verify(p, "lstm l=2 c=1024 b=14");
}

int main(void) {
  lstm_ctx x;
  lstm_setup(&x, 2, 1024, 14, 0x243f6a8885a308d3ULL);
  int status = gradbench_run("lstm", "l=2,c=1024,b=14", "gradient", lstm_check,
                             lstm_primal, lstm_gradient, &x);
  lstm_free(&x);
  return status;
}
