/*===- gmm.c - Benchmark: ADBench / gradbench GMM objective ---------------===*
 *
 * Gaussian mixture model log-likelihood with the Wishart prior, d=10, k=25,
 * n=1000; gradient with respect to alphas, means and icf (three dup arrays).
 * The gradient is checked once before anything is timed; the program exits
 * non-zero if the check fails.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"
#include "gmm_bench.h"

int main(void) {
  const int d = 10, k = 25, n = 1000;
  char label[96];
  gmm_ctx c;

  snprintf(label, sizeof label, "gmm d=%d k=%d n=%d", d, k, n);
  gmm_setup(&c, d, k, n, 0x9e3779b97f4a7c15ULL);
  if (gmm_verify(&c, label)) {
    printf("%s: gradient check FAILED, no timings reported\n", label);
    return 1;
  }
  bench_result r = bench_measure(gmm_primal, gmm_gradient, &c);
  bench_print(label, &r);
  gmm_free(&c);
  return 0;
}
