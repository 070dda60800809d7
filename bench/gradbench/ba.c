/*===- ba.c - GradBench ba: bundle adjustment Jacobian --------------------===*
 *
 * The residuals and Jacobian of bench/ba.c (ba_bench.h) at the size of
 * GradBench's first instance: n=49 cameras, m=7776 points, p=31843
 * observations, about 95,000 reverse-mode calls per Jacobian; six
 * observations' blocks are checked against complex step first.
 *===----------------------------------------------------------------------===*/
#include "gradbench.h"

#include "ba_bench.h"

static int ba_check(void *p) { return ba_verify(p, "ba n=49 m=7776 p=31843"); }

int main(void) {
  ba_ctx c;
  ba_setup(&c, 49, 7776, 31843, 0x243f6a8885a308d3ULL);
  int status = gradbench_run("ba", "n=49,m=7776,p=31843", "jacobian", ba_check,
                             ba_primal, ba_jacobian, &c);
  ba_free(&c);
  return status;
}
