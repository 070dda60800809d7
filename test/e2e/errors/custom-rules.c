// Error: custom rules that do not fit their functions, named with both
// (a rule with the wrong parameters or result, an augmented rule that drops
// the result, a malformed registration, a second rule of one kind for a
// function (which had replaced the first without a word), a function-like
// name Capsule has no
// rule for or of another arity, functions a rule cannot describe yet), and
// rules used where they cannot be: reverse mode through a function with
// only a tangent rule and no body, forward mode through one with only a
// gradient rule, vector mode through a tangent rule, a gradient rule inside
// a checkpointed gradient for a function without a body
// (checkpointed-custom-rules.c has the other cases).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
#include <capsule/capsule.h>

typedef struct {
  double value, tangent;
} dual;

double sq(double x) { return x * x; }
double sq_aug(double x) { return x * x; }
float sq_grad_float(float x, float d) { return 2 * x * d; }
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__enzyme_register_gradient_sq': the gradient rule 'sq_grad_float' takes (float, float), but 'sq' with the augmented forward rule 'sq_aug' needs (double, double)
void *__enzyme_register_gradient_sq[3] = {(void *)sq, (void *)sq_aug,
                                          (void *)sq_grad_float};

void put(double *p, double v) { *p = v; }
void *put_aug(double *p, double *dp, double v) { *p = v; return 0; }
void put_grad(double *p, double *dp, double v, void *tape) { *dp = 0; }
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__enzyme_register_gradient_put': the gradient rule 'put_grad' returns void, but the adjoints of the floating-point arguments of 'put' are double
void *__enzyme_register_gradient_put[3] = {(void *)put, (void *)put_aug,
                                           (void *)put_grad};

double drop(double x) { return x; }
void *drop_aug(double x) { return 0; }
double drop_grad(double x, double d, void *tape) { return d; }
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__enzyme_register_gradient_drop': the augmented forward rule 'drop_aug' returns ptr, without the double result of 'drop' (return it, or {tape, result})
void *__enzyme_register_gradient_drop[3] = {(void *)drop, (void *)drop_aug,
                                            (void *)drop_grad};

// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__enzyme_register_gradient_short': expected {function, augmented forward rule, gradient rule}
void *__enzyme_register_gradient_short[2] = {(void *)sq, (void *)sq_aug};

double sq_tangent_one(double x) { return 2 * x; }
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__enzyme_register_derivative_sq': the tangent rule 'sq_tangent_one' takes (double), but 'sq' needs (double, double) (each argument followed by its tangent)
void *__enzyme_register_derivative_sq[2] = {(void *)sq,
                                            (void *)sq_tangent_one};

double cube(double x) { return x * x * x; }
double cube_tangent_scalar(double x, double dx) { return 3 * x * x * dx; }
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__capsule_register_derivative_{{[0-9]+}}': the tangent rule 'cube_tangent_scalar' returns double, but 'cube' needs a struct of (double, double) ({result, tangent of the result})
CAPSULE_DERIVATIVE(cube, cube_tangent_scalar);

double like(double x) { return x; }
double like2(double x) { return x; }
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__enzyme_function_like_like': 'sinus' is not a math function Capsule differentiates other functions like
void *__enzyme_function_like_like[2] = {(void *)like, "sinus"};
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__capsule_function_like_{{[0-9]+}}': 'like2' has type double (double), but 'pow' takes 2 floating-point arguments of its result's type
CAPSULE_FUNCTION_LIKE(like2, "pow");

typedef struct {
  double a, b, c;
} triple;
double by_value(triple p) { return p.a * p.b * p.c; }
double by_value_aug(triple p, triple dp) { return p.a * p.b * p.c; }
void by_value_grad(triple p, triple dp, double d) {}
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__capsule_register_gradient_{{[0-9]+}}': argument 1 of 'by_value' is a struct passed by value, which rules cannot take yet (pass it by pointer)
CAPSULE_GRADIENT(by_value, by_value_aug, by_value_grad);

/* A pointer result needs its shadow from both rules; a struct result
 * cannot have rules yet. */
double *pointer_only(double *v);
double *pointer_only_aug(double *v, double *dv);
void pointer_only_grad(double *v, double *dv);
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__capsule_register_gradient_{{[0-9]+}}': the augmented forward rule 'pointer_only_aug' returns ptr, but 'pointer_only' returns a pointer, whose shadow the rule must return too ({result, shadow of the result}, or {tape, result, shadow})
CAPSULE_GRADIENT(pointer_only, pointer_only_aug, pointer_only_grad);
double *pointer_only_tangent(double *v, double *dv);
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__capsule_register_derivative_{{[0-9]+}}': the tangent rule 'pointer_only_tangent' returns ptr, but 'pointer_only' needs a struct of (ptr, ptr) ({result, shadow of the result})
CAPSULE_DERIVATIVE(pointer_only, pointer_only_tangent);
typedef struct {
  double re, im;
} cplx;
cplx polar_of(double r, double t);
cplx polar_of_tangent(double r, double dr, double t, double dt);
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__capsule_register_derivative_{{[0-9]+}}': 'polar_of' returns { double, double }, and rules of functions returning structs are not supported yet
CAPSULE_DERIVATIVE(polar_of, polar_of_tangent);

double twice(double x) { return 2 * x; }
double twice_aug(double x) { return 2 * x; }
double twice_grad_a(double x, double d) { return 2 * d; }
double twice_grad_b(double x, double d) { return 3 * d; }
dual twice_tan_a(double x, double dx) { return (dual){2 * x, 2 * dx}; }
dual twice_tan_b(double x, double dx) { return (dual){2 * x, 3 * dx}; }
void *__enzyme_register_gradient_twice_a[3] = {(void *)twice, (void *)twice_aug,
                                               (void *)twice_grad_a};
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__enzyme_register_gradient_twice_b': 'twice' already has a gradient rule ('twice_grad_a'); a function has one of each kind, registered once
void *__enzyme_register_gradient_twice_b[3] = {(void *)twice, (void *)twice_aug,
                                               (void *)twice_grad_b};
void *__enzyme_register_derivative_twice_a[2] = {(void *)twice,
                                                 (void *)twice_tan_a};
// CHECK-DAG: custom-rules.c:[[@LINE+1]]: invalid custom rule '__enzyme_register_derivative_twice_b': 'twice' already has a tangent rule ('twice_tan_a'); a function has one of each kind, registered once
void *__enzyme_register_derivative_twice_b[2] = {(void *)twice,
                                                 (void *)twice_tan_b};

/* Defined elsewhere, with a rule for one mode only. */
double only_tangent(double x);
dual only_tangent_rule(double x, double dx);
CAPSULE_DERIVATIVE(only_tangent, only_tangent_rule);
double only_gradient(double x);
double only_gradient_aug(double x);
double only_gradient_rule(double x, double d);
CAPSULE_GRADIENT(only_gradient, only_gradient_aug, only_gradient_rule);

double uses_tangent_only(double x) {
  // CHECK-DAG: custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'uses_tangent_only': 'only_tangent' has a tangent rule (forward mode) but no gradient rule, and no body here to differentiate in reverse mode; register one (__enzyme_register_gradient or CAPSULE_GRADIENT)
  return only_tangent(x) * 2;
}
double uses_gradient_only(double x) {
  // CHECK-DAG: custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'uses_gradient_only': 'only_gradient' has a gradient rule (reverse mode) but no tangent rule, and no body here to differentiate in forward mode; register one (__enzyme_register_derivative or CAPSULE_DERIVATIVE)
  return only_gradient(x) * 2;
}
// CHECK-DAG: custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot make function 'uses_gradient_rule' interruptible: a call of 'only_gradient', which has a gradient rule of yours, inside a checkpointed gradient needs the body of the function 'only_gradient' in this module (link with LTO if it is in another file): the schedule re-executes it, and the journal must see what it writes
double uses_gradient_rule(double x) { return only_gradient(x) + 1; }

int enzyme_width;
typedef struct {
  double lane[2];
} lanes;
lanes __enzyme_fwddiff(void *, ...);

/* A tangent rule that writes through a pointer: called once per lane it
 * would repeat its primal effect. (Rules of functions without pointers
 * run once per lane: test/e2e/vector-rules.c.) */
void scale_in_place(double *x);
void scale_in_place_rule(double *x, double *dx);
CAPSULE_DERIVATIVE(scale_in_place, scale_in_place_rule);

double uses_tangent_rule(double x) {
  // CHECK-DAG: custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'uses_tangent_rule': vector mode (enzyme_width) through the tangent rule of 'scale_in_place', which takes or returns pointers, is not supported yet
  scale_in_place(&x);
  return x;
}
/* The same rule reached through a pointer. */
void (*volatile scaler)(double *) = scale_in_place;
double uses_rule_through_pointer(double x) {
  // CHECK-DAG: custom-rules.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'uses_rule_through_pointer': vector mode (enzyme_width) through the tangent rule of 'scale_in_place', which takes or returns pointers, is not supported yet
  scaler(&x);
  return x;
}

void run(double x) {
  __capsule_autodiff((void *)uses_tangent_only, x);
  __capsule_fwddiff((void *)uses_gradient_only, x, 1.0);
  __enzyme_fwddiff((void *)uses_tangent_rule, enzyme_width, 2, x, 1.0, 2.0);
  __enzyme_fwddiff((void *)uses_rule_through_pointer, enzyme_width, 2, x, 1.0,
                   2.0);
  __capsule_autodiff_checkpointed((void *)uses_gradient_rule, x);
}
