// Error: custom rules that take by value a struct the C ABI passes as
// several arguments, and markers naming a function that takes one
// (lib/Support/SplitArguments.h: its fields would be paired with the wrong
// tangents or shadows, a silently wrong derivative). Refused in the source
// by clang's plugin (capsule-config --cflags; no -g needed), and from debug
// information of the functions' bodies when only the pass is loaded.
// Reverse mode's markers refuse only structs holding pointers (each
// followed by its shadow when unmarked). Accepted, and run by
// custom-struct-arguments.c: a gradient rule taking a struct of
// floating-point numbers (they have no shadows), rules taking a struct's
// fields as arguments of their own, reverse mode's markers of functions
// taking structs of numbers; and a struct of more than 16 bytes is passed
// in memory, as one pointer (forward/vector.c).
// RUN: not %clang -O0 %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -fpass-plugin=%plugin -I%src_root/include -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clangxx -O0 -x c++ %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefixes=CHECK,CXX
#include <capsule/capsule.h>

typedef struct {
  double re, im;
} cplx;
typedef struct {
  double value, tangent;
} dual;

/* A tangent rule pairs every argument with its tangent. */
double norm2(cplx z);
dual norm2_tangent(cplx z, cplx dz) { return (dual){0, 0}; }
// CHECK-DAG: split-struct-arguments.c:[[@LINE+1]]{{.*}}: invalid custom rule '{{.*}}': the tangent rule 'norm2_tangent' takes argument 1 ('cplx') by value, which the C ABI passes as several arguments that Capsule cannot pair with their tangents: take its fields as arguments of their own, each followed by its tangent, or pass it by pointer
CAPSULE_DERIVATIVE(norm2, norm2_tangent);

/* A gradient rule pairs what is not floating point with its shadow. */
typedef struct {
  double *data;
  long n;
} view;
double total(double *data, long n);
double total_aug(view v) { return 0; }
void total_grad(view v, double d) {}
// CHECK-DAG: split-struct-arguments.c:[[@LINE+1]]{{.*}}: invalid custom rule '__enzyme_register_gradient_total': the augmented forward rule 'total_aug' takes argument 1 ('view') by value, which the C ABI passes as several arguments that Capsule cannot pair with their shadows: take its fields as arguments of their own, each followed by its shadow unless it is floating point, or pass it by pointer
void *__enzyme_register_gradient_total[3] = {(void *)total, (void *)total_aug,
                                             (void *)total_grad};

/* An enumeration is an integer, which has a shadow there. */
typedef struct {
  double value;
  enum { EXACT, ROUNDED } how;
} tagged;
double untag(double value, int how);
double untag_aug(tagged t) { return t.value; }
double untag_grad(tagged t, double d) { return d; }
// CHECK-DAG: split-struct-arguments.c:[[@LINE+1]]{{.*}}: invalid custom rule '__enzyme_register_gradient_untag': the augmented forward rule 'untag_aug' takes argument 1 ('tagged') by value, which the C ABI passes as several arguments that Capsule cannot pair with their shadows
void *__enzyme_register_gradient_untag[3] = {(void *)untag, (void *)untag_aug,
                                             (void *)untag_grad};

/* A complex number of doubles is two arguments too. */
double modulus2(double re, double im);
dual modulus2_tangent(_Complex double z, _Complex double dz) {
  return (dual){0, 0};
}
// CHECK-DAG: split-struct-arguments.c:[[@LINE+1]]{{.*}}: invalid custom rule '__enzyme_register_derivative_modulus2': the tangent rule 'modulus2_tangent' takes argument 1 ({{.*}}) by value, which the C ABI passes as several arguments
void *__enzyme_register_derivative_modulus2[2] = {(void *)modulus2,
                                                  (void *)modulus2_tangent};

/* Forward mode pairs the marker's arguments with their tangents as the
 * C ABI passes them. */
__attribute__((noinline)) double norm2_body(cplx z) {
  return z.re * z.re + z.im * z.im;
}
double norm2_direction(cplx z, cplx dz) {
  // CHECK-DAG: split-struct-arguments.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'norm2_body', differentiated in forward mode, takes argument 1 ('cplx') by value, which the C ABI passes as several arguments that Capsule cannot pair with their tangents: pass it by pointer
  return __capsule_fwddiff((void *)norm2_body, z, dz);
}
/* Reverse mode pairs an unmarked pointer with its shadow. */
typedef struct {
  double *first, *second;
} pair_of_arrays;
__attribute__((noinline)) double dot_body(pair_of_arrays p) {
  return p.first[0] * p.second[0];
}
double dot_gradient(pair_of_arrays p) {
  // CHECK-DAG: split-struct-arguments.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'dot_body', differentiated in reverse mode, takes argument 1 ('pair_of_arrays') by value, which the C ABI passes as several arguments that Capsule cannot pair with their shadows: pass it by pointer
  return __capsule_autodiff((void *)dot_body, p);
}

#ifdef __cplusplus
#include <complex>
double cnorm(std::complex<double> z);
dual cnorm_tangent(std::complex<double> z, std::complex<double> dz) {
  return {0, 0};
}
// CXX-DAG: split-struct-arguments.c:[[@LINE+1]]{{.*}}: invalid custom rule '{{.*}}': the tangent rule 'cnorm_tangent' takes argument 1 ('std::complex<double>') by value, which the C ABI passes as several arguments
CAPSULE_DERIVATIVE(cnorm, cnorm_tangent);
#endif

/* Accepted: a struct of doubles in a gradient rule. */
double scaled(cplx z);
double scaled_aug(cplx z) { return 0; }
cplx scaled_grad(cplx z, double d) { return z; }
CAPSULE_GRADIENT(scaled, scaled_aug, scaled_grad);
// CHECK-NOT: 'scaled
