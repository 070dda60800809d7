// The stack-overflow guard a gradient arms (runtime/StackGuard.cpp) leaves
// every other segmentation fault to the program: its own SIGSEGV handler,
// installed before the first gradient, still runs for a null write after
// it, and a program without one still dies of SIGSEGV. The gradient itself
// is checked against its closed form.
// RUN: %clang -O1 -g %capsule_cflags %s -o %t %capsule_ldflags -lm
// RUN: not %t own 2>&1 | FileCheck %s --check-prefix=OWN
// OWN: ok gradient
// OWN-NEXT: the program's own handler ran
// RUN: not --crash %t none 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: ok gradient
#include <capsule/capsule.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

double f(double x) { return sin(x) * x; }

static void own_handler(int signal) {
  (void)signal;
  const char text[] = "the program's own handler ran\n";
  write(STDOUT_FILENO, text, sizeof text - 1);
  _exit(7);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "own") == 0)
    signal(SIGSEGV, own_handler);
  double x = 0.8;
  double d = __capsule_autodiff((void *)f, x);
  if (fabs(d - (cos(x) * x + sin(x))) > 1e-14)
    return 1;
  printf("ok gradient\n");
  fflush(stdout);
  volatile int *null = 0;
  *null = 1;
  return 0;
}
