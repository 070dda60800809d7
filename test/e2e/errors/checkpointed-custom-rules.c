// Error: gradient rules of the user's that a checkpointed gradient cannot
// run (checkpointed/custom-rules.c has those it can): rules without bodies
// in the module, whose writes the journal could not see, and augmented
// rules that may write to a shadow (a store, a memset, a shadow handed to a
// function that may write through it), which green runs, running the
// function itself, would not repeat, and rules of a function returning a
// pointer, whose shadow green runs would not get. OpenMP: a call of such a function
// inside a parallel region, and a parallel region inside a rule. Each names
// the call (or the rule's write), the function and the rule.
// RUN: not %clang -O0 -g -fopenmp %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -fopenmp %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>
#include <string.h>

#define OPAQUE(v) __asm__ volatile("" : "+x"(v))

/* The augmented rule is defined elsewhere. */
__attribute__((noinline)) double outside(double x) {
  OPAQUE(x);
  return x;
}
double outside_aug(double x);
static double outside_grad(double x, double d) { return d; }
CAPSULE_GRADIENT(outside, outside_aug, outside_grad);

/* So is the gradient rule. */
__attribute__((noinline)) double outside2(double x) {
  OPAQUE(x);
  return x;
}
static double outside2_aug(double x) { return x; }
double outside2_grad(double x, double d);
CAPSULE_GRADIENT(outside2, outside2_aug, outside2_grad);

/* Augmented rules that write to shadows. */
__attribute__((noinline)) void copy_store(const double *x, double *y) {
  double v = *x;
  OPAQUE(v);
  *y = v;
}
static void copy_store_aug(const double *x, const double *dx, double *y,
                           double *dy) {
  *y = *x;
  // CHECK-DAG: checkpointed-custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'copy_store_aug' interruptible: the augmented rule 'copy_store_aug' of 'copy_store', which a checkpointed gradient runs, may write to a shadow (it stores to it): green runs, which run 'copy_store' itself, would not repeat that; add to the shadows in the gradient rule only
  *dy = 0;
}
static void copy_store_grad(const double *x, double *dx, double *y,
                            double *dy) {
  *dx += *dy;
}
CAPSULE_GRADIENT(copy_store, copy_store_aug, copy_store_grad);

__attribute__((noinline)) void copy_set(const double *x, double *y) {
  double v = *x;
  OPAQUE(v);
  *y = v;
}
static void copy_set_aug(const double *x, const double *dx, double *y,
                         double *dy) {
  *y = *x;
  // CHECK-DAG: checkpointed-custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'copy_set_aug' interruptible: the augmented rule 'copy_set_aug' of 'copy_set', which a checkpointed gradient runs, may write to a shadow (it writes it with a memory intrinsic)
  memset(dy, 0, 8 * sizeof *dy);
}
CAPSULE_GRADIENT(copy_set, copy_set_aug, copy_store_grad);

__attribute__((noinline)) void copy_handed(const double *x, double *y) {
  double v = *x;
  OPAQUE(v);
  *y = v;
}
void clear_shadow(double *d);
static void copy_handed_aug(const double *x, const double *dx, double *y,
                            double *dy) {
  *y = *x;
  // CHECK-DAG: checkpointed-custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'copy_handed_aug' interruptible: the augmented rule 'copy_handed_aug' of 'copy_handed', which a checkpointed gradient runs, may write to a shadow (it hands it to 'clear_shadow')
  clear_shadow(dy);
}
CAPSULE_GRADIENT(copy_handed, copy_handed_aug, copy_store_grad);

/* x^3, called inside a parallel region. */
__attribute__((noinline)) double cube(double x) {
  double r = x * x * x;
  OPAQUE(r);
  return r;
}
static double cube_aug(double x) { return x * x * x; }
static double cube_grad(double x, double d) { return 3 * x * x * d; }
CAPSULE_GRADIENT(cube, cube_aug, cube_grad);

/* A rule whose augmented rule runs a parallel loop. */
__attribute__((noinline)) void twice(double *v) {
  for (int i = 0; i < 64; ++i) {
    double w = 2 * v[i];
    OPAQUE(w);
    v[i] = w;
  }
}
static void twice_aug(double *v, double *dv) {
  // CHECK-DAG: checkpointed-custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'twice_aug' interruptible: an OpenMP parallel region inside a function with a gradient rule of yours, or inside its rules, is not supported in a checkpointed gradient yet
#pragma omp parallel for
  for (int i = 0; i < 64; ++i)
    v[i] *= 2;
}
static void twice_grad(double *v, double *dv) {
  for (int i = 0; i < 64; ++i)
    dv[i] *= 2;
}
CAPSULE_GRADIENT(twice, twice_aug, twice_grad);

/* Returns a pointer: green runs, which call the function itself, would not
 * get the shadow of its result. */
__attribute__((noinline)) double *last_of(double *v) { return v + 3; }
typedef struct {
  double *result, *shadow;
} with_shadow;
static with_shadow last_of_aug(double *v, double *dv) {
  return (with_shadow){v + 3, dv + 3};
}
static void last_of_grad(double *v, double *dv) {}
CAPSULE_GRADIENT(last_of, last_of_aug, last_of_grad);

double simulate(double *p) {
  double y[2], r = 0;
  for (int t = 0; t < 10; ++t) {
    // CHECK-DAG: checkpointed-custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'simulate' interruptible: a call of 'last_of', which has a gradient rule of yours and returns a pointer, inside a checkpointed gradient is not supported yet
    r += *last_of(p);
    // CHECK-DAG: checkpointed-custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'simulate' interruptible: a call of 'outside', which has a gradient rule of yours, inside a checkpointed gradient needs the body of its augmented rule 'outside_aug' in this module
    r += outside(p[0]);
    // CHECK-DAG: checkpointed-custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'simulate' interruptible: a call of 'outside2', which has a gradient rule of yours, inside a checkpointed gradient needs the body of its gradient rule 'outside2_grad' in this module
    r += outside2(p[0]);
    copy_store(p, y);
    copy_set(p, y);
    copy_handed(p, y);
    p[0] = y[0] * 0.5;
    twice(p + 1);
#pragma omp parallel for
    for (int i = 0; i < 4; ++i)
      // CHECK-DAG: checkpointed-custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function '{{.*}}' interruptible: a call of 'cube', which has a gradient rule of yours, inside an OpenMP parallel region of a checkpointed gradient is not supported yet
      p[i + 70] = cube(p[i + 70]);
  }
  return r;
}

void run(double *p, double *dp) {
  __capsule_autodiff_checkpointed((void *)simulate, p, dp);
}
