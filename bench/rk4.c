/*===- rk4.c - Benchmark: RK4 integration of Lorenz-96 --------------------===*
 *
 * n = 10 variables, F = 8, dt = 0.01, 1000 steps (10 time units, chaotic);
 * objective sum_i (1 + i/n) x_i(T)^2; gradient with respect to the initial
 * state and the forcing F (dup arrays; the scratch buffer is dup too). The
 * gradient is checked once before anything is timed.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"
#include "rk4_bench.h"

int main(void) {
  const long n = 10, steps = 1000;
  const double dt = 0.01;
  char label[96];
  rk4_ctx c;

  snprintf(label, sizeof label, "rk4 lorenz96 n=%ld steps=%ld dt=%g", n, steps,
           dt);
  rk4_setup(&c, n, steps, dt, 0xb7e151628aed2a6bULL);
  if (rk4_verify(&c, label)) {
    printf("%s: gradient check FAILED, no timings reported\n", label);
    return 1;
  }
  bench_result r = bench_measure(rk4_primal, rk4_gradient, &c);
  bench_print(label, &r);
  rk4_free(&c);
  return 0;
}
