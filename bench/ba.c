/*===- ba.c - Benchmark: GradBench bundle adjustment, many tiny gradients -===*
 *
 * The Jacobian of GradBench's "ba" residuals (ba_objective.inc) at the size
 * of its first instance: n=49 cameras, m=7776 points, p=31843 observations.
 * Each observation's two reprojection rows and its weight row are three
 * reverse-mode gradient calls of about a hundred flops each, about 95,000
 * calls per Jacobian: what is measured is the cost of a gradient call
 * itself. The primal is the objective, all residuals; the ratio is
 * Jacobian/objective. The Jacobian of six observations (one through the
 * zero-rotation branch) is checked against complex step first.
 *===----------------------------------------------------------------------===*/
#include "ba_bench.h"

int main(void) {
  const long n = 49, m = 7776, p = 31843;
  char label[96];
  ba_ctx c;

  snprintf(label, sizeof label, "ba n=%ld m=%ld p=%ld", n, m, p);
  ba_setup(&c, n, m, p, 0x243f6a8885a308d3ULL);
  if (ba_verify(&c, label)) {
    printf("%s: Jacobian check FAILED, no timings reported\n", label);
    return 1;
  }
  bench_result res = bench_measure(ba_primal, ba_jacobian, &c);
  bench_print_as(label, "jacobian", &res);
  printf("    %.1f ns per gradient call (3 per observation)\n",
         1e9 * res.gradient_s / (3.0 * (double)p));
  ba_free(&c);
  return 0;
}
