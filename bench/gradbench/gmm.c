/*===- gmm.c - GradBench gmm: Gaussian mixture model gradient -------------===*
 *
 * The objective of bench/gmm.c (gmm_objective.inc: the log-likelihood with
 * the Wishart prior) at GradBench's and ADBench's d=10, k=25, n=1000;
 * gradient with respect to alphas, means and icf, checked against complex
 * step before anything is timed.
 *===----------------------------------------------------------------------===*/
#include "gradbench.h"

#include "gmm_bench.h"

static int gmm_check(void *p) { return gmm_verify(p, "gmm d=10 k=25 n=1000"); }

int main(void) {
  gmm_ctx c;
  gmm_setup(&c, 10, 25, 1000, 0x9e3779b97f4a7c15ULL);
  int status = gradbench_run("gmm", "d=10,k=25,n=1000", "gradient", gmm_check,
                             gmm_primal, gmm_gradient, &c);
  gmm_free(&c);
  return status;
}
