// Split mode given a tape it cannot use stops with a clear message instead
// of a wrong gradient or a crash: a null tape, a tape reversed twice, the
// tape of another function, and enzyme_allocated memory too small for the
// tape (a size known only at run time; a constant one is a compile-time
// error, errors/split-mode.c). Each case runs in a process of its own.
// RUN: %clang -O2 -g %capsule_cflags %s -o %t %capsule_ldflags
// RUN: not %t null 2>&1 | FileCheck %s --check-prefix=NULL
// RUN: not %t twice 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not %t other 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: not %t small 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: %t fine | FileCheck %s --check-prefix=FINE
#include <capsule/capsule.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_tape, enzyme_allocated;

static void twice(double *y, const double *x) { y[0] = 2 * x[0] * x[0]; }
static void thrice(double *y, const double *x) { y[0] = 3 * x[0]; }

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "fine";
  double x = 1.5, dx = 0, y, dy = 1;
  void *tape = __capsule_augmentfwd((void *)twice, &y, &dy, &x, &dx);
  // NULL: capsule: __enzyme_reverse (__capsule_reverse) got a null tape
  if (!strcmp(mode, "null"))
    __capsule_reverse((void *)twice, &y, &dy, &x, &dx, (void *)0);
  // TWICE: capsule: __enzyme_reverse (__capsule_reverse) got a tape that is not one __enzyme_augmentfwd returned, or one already reversed
  if (!strcmp(mode, "twice")) {
    __capsule_reverse((void *)twice, &y, &dy, &x, &dx, tape);
    tape = __capsule_augmentfwd((void *)thrice, &y, &dy, &x, &dx);
    __capsule_reverse((void *)thrice, &y, &dy, &x, &dx, tape);
    __capsule_reverse((void *)thrice, &y, &dy, &x, &dx, tape);
  }
  // OTHER: capsule: __enzyme_reverse (__capsule_reverse) got the tape of __enzyme_augmentfwd of another function, or of the same function with other activities
  if (!strcmp(mode, "other"))
    __capsule_reverse((void *)thrice, &y, &dy, &x, &dx, tape);
  // SMALL: capsule: enzyme_allocated gives 4 bytes for the tape of split mode; it needs 8 (__enzyme_augmentsize)
  if (!strcmp(mode, "small")) {
    int bytes = argc > 2 ? atoi(argv[2]) : 4;
    void *memory = malloc(8);
    __capsule_augmentfwd((void *)twice, enzyme_allocated, bytes, enzyme_tape,
                         memory, &y, &dy, &x, &dx);
  }
  // FINE: dx 6
  __capsule_reverse((void *)twice, &y, &dy, &x, &dx, tape);
  printf("dx %g\n", dx);
  return 0;
}
