// Custom rules of every kind across files, with full and thin LTO: the
// marker here names model() (Inputs/lto-rules/model.c), whose helpers
// (helpers.c) have rules in a third file (rules.c): an inactive function,
// one differentiated like log1p, an inactive global and a gradient rule;
// model.c registers a rule for a static function of its own. Every rule
// differs from its function's derivative, so the gradient's closed form
// holds only if each was applied. At -O0 and -O2.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for L in full thin; do for O in 0 2; do \
// RUN:   %clang -O$O -g -flto=$L %capsule_cflags -c %s -o %t/main.o && \
// RUN:   for F in model helpers rules; do \
// RUN:     %clang -O$O -g -flto=$L %capsule_cflags -c %S/Inputs/lto-rules/$F.c -o %t/$F.o || exit 1; \
// RUN:   done && \
// RUN:   %clang -O2 -flto=$L %t/main.o %t/model.o %t/helpers.o %t/rules.o \
// RUN:     $(%capsule_config --lto-ldflags --ldflags) -o %t/prog && %t/prog || exit 1; \
// RUN: done; done
#include <capsule/capsule.h>
#include "check.h"

double model(double x);

int main(void) {
  const double xs[] = {0.5, -1.25, 2.0};
  for (int k = 0; k < 3; ++k) {
    double x = xs[k];
    double g = __capsule_autodiff((void *)model, x);
    /* 3 from 3x, 0 from stopped and gain, 1/(1+x) from like_log1p, 1 from
     * clipped, 4x from sq. */
    check_cf("each file's rules applied", g, 3 + 1 / (1 + x) + 1 + 4 * x);
  }
  return check_report();
}
