/*===- mlp.c - Benchmark: multilayer perceptron loss ----------------------===*
 *
 * Two tanh hidden layers of 128, 64 inputs, 10 outputs, a batch of 64;
 * mean squared error; gradient with respect to all weights and biases (one
 * dup array). The gradient is checked once before anything is timed.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"
#include "mlp_bench.h"

int main(void) {
  const int i = 64, h = 128, o = 10, m = 64;
  char label[96];
  mlp_ctx c;

  snprintf(label, sizeof label, "mlp %d-%d-%d-%d batch=%d", i, h, h, o, m);
  mlp_setup(&c, i, h, o, m, 0x243f6a8885a308d3ULL);
  if (mlp_verify(&c, label)) {
    printf("%s: gradient check FAILED, no timings reported\n", label);
    return 1;
  }
  bench_result r = bench_measure(mlp_primal, mlp_gradient, &c);
  bench_print(label, &r);
  mlp_free(&c);
  return 0;
}
