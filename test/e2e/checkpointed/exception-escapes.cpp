// An exception thrown inside a gradient's computation leaves the gradient
// call. The plain gradient is abandoned and the next one starts afresh. A
// checkpointed gradient cannot be left that way: its driver is mid-run, and
// the next checkpointed gradient on the thread stops the program with a
// message saying why (docs/checkpointing.md). The throw below is in a
// function whose typed catch a checkpointed build accepts, as a plain build
// does, and drops.
// RUN: %clangxx -O1 -fexceptions -g %capsule_cflags %s -o %t %capsule_ldflags
// RUN: %t plain 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: not %t checkpointed 2>&1 | FileCheck %s --check-prefix=CHECKPOINTED
#include <capsule/capsule.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>
#include "../include/check.h"

static double term(double v) {
  if (std::fabs(v) > 100.0)
    throw std::domain_error("term too big");
  return v * v;
}

double f(const double *x, int n) {
  std::vector<double> v;
  double s = 0;
  for (int i = 0; i < n; i++) {
    try {
      s += term(std::sin(x[i]) * x[i]);
    } catch (const std::out_of_range &) {
      s = -1; /* never taken */
    }
  }
  return s;
}

static double f_fd(double *x, void *ctx) { return f(x, *(int *)ctx); }

__attribute__((noinline)) static void gradient(bool checkpointed, double *x,
                                               double *dx, int n) {
  if (checkpointed)
    __capsule_autodiff_checkpointed<void>((void *)f, capsule_dup, x, dx,
                                          capsule_const, n);
  else
    __capsule_autodiff<void>((void *)f, capsule_dup, x, dx, capsule_const, n);
}

int main(int argc, char **argv) {
  bool checkpointed = argc > 1 && std::strcmp(argv[1], "checkpointed") == 0;
  int n = 4;
  double bad[4] = {0.4, -1.2, 200.5, 1.5}, dbad[4] = {0};
  try {
    gradient(checkpointed, bad, dbad, n);
    std::puts("no exception");
  } catch (const std::domain_error &e) {
    std::printf("caught: %s\n", e.what());
  }
  std::fflush(stdout);
  double x[4] = {0.4, -1.2, 0.7, 1.5}, dx[4] = {0};
  gradient(checkpointed, x, dx, n);
  check_grad_fd("dx", dx, f_fd, &n, x, 4);
  return check_report();
}
// PLAIN: caught: term too big
// PLAIN: PASS (4 checks)

// CHECKPOINTED: caught: term too big
// CHECKPOINTED: capsule: error: __capsule_primops/__capsule_interrupt: called while the interruptible computation of f(double const*, int) is running on this thread; interruptible computations do not nest (if an exception escaped that computation: exceptions may not leave interruptible or checkpointed code)
// CHECKPOINTED-NOT: PASS
