// With -flto, a rule registered in one file for a function another file
// defines and calls: the compile of that file may inline the function
// into its caller, directly or through a function it inlines, before the
// link reads the rule, and the link differentiated the inlined body, the
// rule ignored without a word (reverse and forward, -O1 and above, full
// and thin LTO). The link now refuses it (the first such function stops
// the link), naming the function, the one
// inlined and what to do; at -O0 nothing is inlined and the rules apply.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for L in full thin; do for P in MODEL DAMPED; do \
// RUN:   %clang -O2 -g -flto=$L %capsule_cflags -DMODEL -c %s -o %t/model$L.o && \
// RUN:   %clang -O2 -g -flto=$L %capsule_cflags -DONLY_$P -c %s -o %t/main$L.o && \
// RUN:   not %clang -O2 -flto=$L %t/model$L.o %t/main$L.o $(%capsule_config --lto-ldflags --ldflags) -o %t/prog 2>&1 | FileCheck %s --check-prefix=$P || exit 1; \
// RUN: done; done
// RUN: %clang -O0 -g -flto %capsule_cflags -DMODEL -c %s -o %t/model0.o
// RUN: %clang -O0 -g -flto %capsule_cflags -c %s -o %t/main0.o
// RUN: %clang -O0 -flto %t/model0.o %t/main0.o $(%capsule_config --lto-ldflags --ldflags) -o %t/prog0 && %t/prog0

double scale3(double x);
double damped(double x);

#ifdef MODEL
double scale3(double x) { return 3 * x; }
double via(double x) { return scale3(x) + 1; }
// MODEL: lto-rule-inlined.c:[[@LINE+1]]:{{[0-9]+}}: in function model {{.*}}: capsule: cannot differentiate function 'model': the compile of its file inlined 'scale3' into it before the link read the rule another file registers for 'scale3', which would be ignored; register the rule in the file that defines 'scale3', or declare it noinline
double model(double x) { return via(x) * x; }
double damped(double x) { return x * x; }
// DAMPED: lto-rule-inlined.c:[[@LINE+1]]:{{[0-9]+}}: in function useDamped {{.*}}: capsule: cannot differentiate function 'useDamped': the compile of its file inlined 'damped' into it
double useDamped(double x) { return damped(x) + x; }
#else
#include <capsule/capsule.h>
#include "../include/check.h"

double model(double x);
double useDamped(double x);

// The derivative of scale3 is said to be 0.5, and damped inactive.
double s_aug(double x) { return scale3(x); }
double s_grad(double x, double d) { return 0.5 * d; }
void *__enzyme_register_gradient_s[3] = {(void *)scale3, (void *)s_aug,
                                         (void *)s_grad};
typedef struct {
  double v, t;
} dual;
dual s_tan(double x, double dx) { return (dual){scale3(x), 0.5 * dx}; }
void *__enzyme_register_derivative_s[2] = {(void *)scale3, (void *)s_tan};
void *__enzyme_inactivefn_damped[1] = {(void *)damped};

int main(void) {
  double x = 1.25;
#ifndef ONLY_DAMPED
  // model = (3x + 1) x with d(3x)/dx said to be 0.5.
  check_cf("model's gradient", __capsule_autodiff((void *)model, x),
           0.5 * x + 3 * x + 1);
  check_cf("model's tangent", __capsule_fwddiff((void *)model, x, 1.0),
           0.5 * x + 3 * x + 1);
#endif
#ifndef ONLY_MODEL
  check_cf("useDamped's gradient", __capsule_autodiff((void *)useDamped, x),
           1);
#endif
  return check_report();
}
#endif
