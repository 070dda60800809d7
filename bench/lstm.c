/*===- lstm.c - Benchmark: ADBench / gradbench LSTM loss ------------------===*
 *
 * l=2 layers, c=1024 characters, b=14 (ADBench's smallest standard instance,
 * lstm_l2_c1024; b = 14 in all four ADBench instances), and the largest one,
 * l=4 c=4096, for reference. Gradient with respect to main_params and
 * extra_params (dup); the state is a const input copied into the dup scratch
 * buffer state_work. The gradient is checked once, at the main size, before
 * anything is timed.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"
#include "lstm_bench.h"

static void run(int l, int c, int b, int check) {
  char label[96];
  lstm_ctx x;
  snprintf(label, sizeof label, "lstm l=%d c=%d b=%d", l, c, b);
  lstm_setup(&x, l, c, b, 0x243f6a8885a308d3ULL);
  if (check && lstm_verify(&x, label)) {
    printf("%s: gradient check FAILED, no timings reported\n", label);
    exit(1);
  }
  bench_result r = bench_measure(lstm_primal, lstm_gradient, &x);
  bench_print(label, &r);
  lstm_free(&x);
}

int main(void) {
  run(2, 1024, 14, 1);
  run(4, 4096, 14, 0);
  return 0;
}
