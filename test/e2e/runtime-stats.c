// Runtime C API: capsule_reset_stats/capsule_get_stats count gradient calls and report consistent tape and time figures; tape limit set/get.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

double f(const double *x, int n) {
  double y = x[0];
  for (int i = 0; i < n; i++)
    y = sin(y) * x[1] + x[0] * 0.01 * (i % 7);
  return y;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  capsule_stats_t st;
  int n = 1000;
  double x[2] = {0.4, 0.9}, dx[2] = {0}, dx2[2] = {0};
  capsule_reset_stats();
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx, capsule_const, n);
  __capsule_autodiff_v((void *)f, capsule_dup, x, dx2, capsule_const, n);
  capsule_get_stats(&st);
  check_grad_fd("dx", dx, f_fd, &n, x, 2);
  check_grad_fd("dx (second call)", dx2, f_fd, &n, x, 2);
  check_close("calls after reset", (double)st.calls, 2.0, 0, 0);
  check_close("peak >= last tape bytes",
              st.peak_tape_bytes >= st.last_tape_bytes, 1, 0, 0);
  check_close("total >= last seconds", st.total_seconds >= st.last_seconds, 1,
              0, 0);
  check_close("last seconds >= 0", st.last_seconds >= 0.0, 1, 0, 0);

  capsule_set_tape_limit((uint64_t)1 << 30);
  check_close("tape limit set", (double)capsule_tape_limit(),
              (double)((uint64_t)1 << 30), 0, 0);
  capsule_set_tape_limit(0);
  check_close("tape limit unlimited", (double)capsule_tape_limit(), 0, 0, 0);
  return check_report();
}
