// Inline assembly that does nothing to repeat is accepted in interruptible
// code: a comment (Eigen marks its kernels so) and an empty statement that
// only hides a register value (an index) from the optimizer. The results and memory
// must be identical after an interruption at any step (interrupt_check.h
// lists the checks), and the checkpointed gradient must equal the plain one
// (itself against central differences). Assembly that touches memory or
// reads the clock is refused (errors/interrupt-unsupported.c).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && env CAPSULE_LEAF_STEPS=10 %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && env CAPSULE_LEAF_STEPS=10 %t2
#include <math.h>
#include "check.h"
#include "interrupt_check.h"

#define N 4

double marked(double *x) {
  double s = 0;
  for (int t = 0; t < 30; ++t) {
    __asm__("# begin step");
    int k = t % N;
    __asm__ volatile("" : "+r"(k));
    double v = x[k] * 0.9 + sin(s);
    x[k] = v;
    s += v * v;
    __asm__ volatile("# end step" ::);
  }
  return s;
}

static const double x0[N] = {0.3, -0.2, 0.5, 0.1};
static double x[N];
static void reset(void) { memcpy(x, x0, sizeof x); }
DEFINE_RUNNERS(double, marked, x)
static const struct region regions[] = {{x, sizeof x}};

CHECK_FD_OF(marked)

int main(void) {
  struct program p = {"asm-comments", sizeof(double), reset, plain_run,
                      primops_run,    interrupt_run,  regions, 1,
                      4096};
  int failures = check_interruptible(&p);
  double p0[N], y[N], dx[N] = {0}, dy[N] = {0};
  memcpy(p0, x0, sizeof p0);
  reset();
  __capsule_autodiff((void *)marked, x, dx);
  check_grad_fd("asm plain", dx, marked_fd, 0, p0, N);
  memcpy(y, x0, sizeof y);
  __capsule_autodiff_checkpointed((void *)marked, y, dy);
  check_vec_cf("asm checkpointed vs plain", dy, dx, N);
  return check_report() || failures;
}
