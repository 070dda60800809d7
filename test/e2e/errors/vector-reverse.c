// Error: what reverse vector mode (enzyme_width in __enzyme_autodiff) does
// not handle yet, and malformed calls, are compile-time errors naming the
// call or the construct (at -O0 and -O2): rules of functions with pointers
// (the user's and qsort's built-in one take one shadow per argument; BLAS's
// work: vector-reverse-blas.c), SIMD values, a function with such a rule
// as the root, checkpointed gradients and split mode, and a result type
// without room for the lanes.
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <stdlib.h>

int enzyme_dup, enzyme_const, enzyme_width, enzyme_dupv, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __capsule_autodiff_checkpointed(void *, ...);

/* A rule of the user's. */
__attribute__((noinline)) void square_into(const double *x, double *y) {
  *y = *x * *x;
}
static void *square_aug(const double *x, double *dx, double *y, double *dy) {
  *y = *x * *x;
  return 0;
}
static void square_grad(const double *x, double *dx, double *y, double *dy,
                        void *tape) {
  *dx += 2 * *x * *dy;
  *dy = 0;
}
void *__enzyme_register_gradient_square[3] = {
    (void *)square_into, (void *)square_aug, (void *)square_grad};

static void with_rule(const double *x, double *y) {
  // CHECK-DAG: vector-reverse.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'with_rule': vector mode (enzyme_width) in reverse mode through the gradient rule of 'square_into', which takes or returns pointers or keeps a tape, is not supported yet
  square_into(x, y);
  y[1] = x[1];
}

static int ascending(const void *a, const void *b) {
  double u = *(const double *)a, v = *(const double *)b;
  return (u > v) - (u < v);
}
/* The same rule reached through a pointer. */
static void (*volatile squarer)(const double *, double *) = square_into;
static void through_pointer(const double *x, double *y) {
  // CHECK-DAG: vector-reverse.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'through_pointer': vector mode (enzyme_width) in reverse mode through the gradient rule of 'square_into', which takes or returns pointers or keeps a tape, is not supported yet
  squarer(x, y);
}

static double with_qsort(const double *x) {
  double v[3] = {x[0], x[1] * x[1], x[0] * x[1]};
  // CHECK-DAG: vector-reverse.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'with_qsort': vector mode (enzyme_width) in reverse mode through the built-in rule of the library routine 'qsort' is not supported yet
  qsort(v, 3, sizeof v[0], ascending);
  return v[0] + 2 * v[1] + 3 * v[2];
}

typedef double v2d __attribute__((vector_size(16)));
static double simd(const double *x) {
  // CHECK-DAG: vector-reverse.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'simd': vector mode (enzyme_width) of code with SIMD vector values is not supported yet
  v2d v = {x[0], x[1]};
  v = v * v;
  return v[0] + v[1];
}

typedef struct {
  double d[2];
} two;
two __enzyme_autodiff_two(void *, ...) __asm__("__enzyme_autodiff");
static double scale(double a, double b) { return a * b; }

void use(const double *x, double *dx, double *y, double *dy, double a) {
  __enzyme_autodiff((void *)with_rule, enzyme_width, 2, enzyme_dupv, 16, x, dx,
                    enzyme_dupv, 16, y, dy);
  __enzyme_autodiff((void *)through_pointer, enzyme_width, 2, enzyme_dupv, 16,
                    x, dx, enzyme_dupv, 16, y, dy);
  __enzyme_autodiff((void *)with_qsort, enzyme_width, 2, enzyme_dupv, 16, x,
                    dx);
  __enzyme_autodiff((void *)simd, enzyme_width, 2, enzyme_dupv, 16, x, dx);
  // CHECK-DAG: vector-reverse.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'use': vector mode (enzyme_width) in reverse mode of 'square_into', which has a gradient rule and takes or returns pointers or keeps a tape, is not supported yet
  __enzyme_autodiff((void *)square_into, enzyme_width, 2, enzyme_dupv, 8, x,
                    dx, enzyme_dupv, 8, y, dy);
  // CHECK-DAG: vector-reverse.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_width' asks for vector mode, which checkpointed gradients do not support yet; call __capsule_autodiff_checkpointed once per seed
  __capsule_autodiff_checkpointed((void *)with_qsort, enzyme_width, 2,
                                  enzyme_dupv, 16, x, dx);
  // CHECK-DAG: vector-reverse.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_width' asks for vector mode, which split mode (__enzyme_augmentfwd, __enzyme_reverse) does not support yet; call the halves once per seed
  __enzyme_augmentfwd((void *)with_qsort, enzyme_width, 2, enzyme_dupv, 16, x,
                      dx);
  // CHECK-DAG: vector-reverse.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: the call returns one floating-point value but vector mode gives 2 adjoints of each out argument of 'scale'; declare the marker to return a struct with an array of 2 values per out argument
  a = __enzyme_autodiff_d((void *)scale, enzyme_width, 2, enzyme_out, a,
                          enzyme_const, 2.0);
  // CHECK-DAG: vector-reverse.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: the call's return type does not fit the 2 adjoints of each of the 2 out arguments of 'scale': use void or a struct with, per out argument, an array of 2 values of its type
  two t = __enzyme_autodiff_two((void *)scale, enzyme_width, 2, a, a);
  dx[0] = a + t.d[0];
}
