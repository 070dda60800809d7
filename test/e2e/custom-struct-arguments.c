// Custom rules of functions that take small structs by value, which the C
// ABI passes as their fields (errors/split-struct-arguments.c has the
// rules refused for taking such a struct whole): a tangent rule takes the
// fields as arguments of their own, each followed by its tangent; a
// gradient rule may take a struct of floating-point numbers whole, and
// returns the adjoints of its fields, and reverse mode's marker takes a
// struct of floating-point numbers by value. The function's body is opaque
// (inline assembly), so only the rules give its derivative. Gradients and
// tangents against central differences, with clang's plugin and debug
// information (both check the rules' struct arguments) and without either.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clang -O2 -fpass-plugin=%plugin -I%src_root/include -I%src_root/test/e2e/include %s -o %t3 %capsule_ldflags && %t3
#include <capsule/capsule.h>
#include <math.h>
#include "check.h"

#define OPAQUE(v) __asm__ volatile("" : "+x"(v))

typedef struct {
  double re, im;
} cplx;
typedef struct {
  double value, tangent;
} dual;

/* |z|^2 scaled by s. */
__attribute__((noinline)) double norm2(cplx z, double s) {
  double v = (z.re * z.re + z.im * z.im) * s;
  OPAQUE(v);
  return v;
}

/* z = (re, im), each followed by its tangent, then s and its tangent. */
static dual norm2_tangent(double re, double dre, double im, double dim,
                          double s, double ds) {
  double n = re * re + im * im;
  return (dual){n * s, 2 * (re * dre + im * dim) * s + n * ds};
}
CAPSULE_DERIVATIVE(norm2, norm2_tangent);

/* No shadows for floating-point arguments: the struct whole is its two
 * fields; the adjoints come back in order (re, im, s). */
typedef struct {
  double re, im, s;
} norm2_adjoints;
static double norm2_aug(cplx z, double s) {
  return (z.re * z.re + z.im * z.im) * s;
}
static norm2_adjoints norm2_grad(cplx z, double s, double d) {
  return (norm2_adjoints){2 * z.re * s * d, 2 * z.im * s * d,
                          (z.re * z.re + z.im * z.im) * d};
}
CAPSULE_GRADIENT(norm2, norm2_aug, norm2_grad);

static double f(double *x) {
  cplx z = {x[0] * x[1], sin(x[2])};
  cplx w = {x[2], x[0] - x[1]};
  return norm2(z, x[1]) + x[0] * norm2(w, 0.5);
}
CHECK_FD_OF(f)

/* Reverse mode's marker pairs nothing with floating-point arguments: a
 * struct of them by value gets the adjoints of its fields. */
static double through_struct(cplx z) {
  return norm2(z, z.im) + sin(z.re) * z.im;
}
cplx __capsule_autodiff_cplx(void *fn, cplx z);
static double through_struct_fd(double *x, void *ctx) {
  (void)ctx;
  return through_struct((cplx){x[0], x[1]});
}

int main(void) {
  double x[3] = {0.7, -1.3, 0.4};
  CHECK_GRADIENT_AND_TANGENTS(f, x, 3);
  cplx a = __capsule_autodiff_cplx((void *)through_struct, (cplx){x[0], x[1]});
  double g[2] = {a.re, a.im};
  check_grad_fd("struct by value", g, through_struct_fd, 0, x, 2);
  return check_report();
}
