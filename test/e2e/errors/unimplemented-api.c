// Error: Enzyme and Capsule API names Capsule does not implement yet, each
// named at compile time (at -O0 and -O2, whether used or only defined):
// markers, activity markers, registrations and annotations other than the
// custom rules and activity ones (custom-rules.c). Activity markers that Enzyme code defines but never uses are
// not errors.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=enzyme_const --implicit-check-not=enzyme_tape
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --implicit-check-not=enzyme_const --implicit-check-not=enzyme_tape
#include <capsule/capsule.h>

int enzyme_dup, enzyme_const, enzyme_runtime_activity, enzyme_tape;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwdsplit(void *, ...);
double __capsule_fwdsplit(void *, ...);
void capsule_config_threads(int);

double square(double x) { return x * x; }
double square_grad(double x, double dret) { return 2 * x * dret; }
double lookup(double x) { return x; }

// CHECK-DAG: unimplemented-api.c:[[@LINE+1]]: '__enzyme_register_splitderivative_square' is an Enzyme API name that Capsule does not implement yet; this registration would be ignored
void *__enzyme_register_splitderivative_square[3] = {
    (void *)square, (void *)square, (void *)square_grad};
// CHECK-DAG: unimplemented-api.c:[[@LINE+1]]: '__enzyme_allocation_like' is an Enzyme API name that Capsule does not implement yet
void *__enzyme_allocation_like[4] = {(void *)lookup, (void *)0, "-1",
                                     (void *)lookup};

// CHECK-DAG: unimplemented-api.c:[[@LINE+1]]: the annotation 'enzyme_nofree' on 'noisy' is an Enzyme API name that Capsule does not implement yet
__attribute__((annotate("enzyme_nofree"))) double noisy(double x) {
  return x;
}

double use(double x, double *p, double *dp) {
  // CHECK-DAG: unimplemented-api.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: '__enzyme_fwdsplit' is an Enzyme API name that Capsule does not implement yet
  double a = __enzyme_fwdsplit((void *)square, x, 1.0);
  // CHECK-DAG: unimplemented-api.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: '__capsule_fwdsplit' is a Capsule API name that Capsule does not implement yet
  double b = a + __capsule_fwdsplit((void *)square, x, 1.0);
  // CHECK-DAG: unimplemented-api.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: 'capsule_config_threads' is a Capsule API name
  capsule_config_threads(2);
  // CHECK-DAG: unimplemented-api.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: 'enzyme_runtime_activity' is an Enzyme API name
  __enzyme_autodiff((void *)square, enzyme_runtime_activity, p, dp);
  return b + noisy(x) + __enzyme_autodiff((void *)square, x);
}
