// Error: Enzyme's result markers used wrongly are compile-time errors naming the marker and the call (at -O0 and -O2).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
int enzyme_dup, enzyme_const, enzyme_out, enzyme_primal_return, enzyme_noret,
    enzyme_const_return, enzyme_active_return, enzyme_dup_return;

typedef struct {
  double value, dx;
} with_primal;
double __enzyme_autodiff(void *, ...);
with_primal __enzyme_autodiff_p(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(double x, double y) { return x * y; }
void g(double *p) { p[0] *= 2.0; }
int count(double x) { return x > 0; }

double use(double x, double *p, double *dp) {
  double s = 0;
  // CHECK-DAG: result-markers.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_primal_return' and 'enzyme_noret' contradict each other
  s += __enzyme_autodiff((void *)f, enzyme_primal_return, enzyme_noret, x, x);
  // CHECK-DAG: result-markers.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_const_return' and 'enzyme_active_return' both mark the result; use one
  s += __enzyme_autodiff((void *)f, enzyme_const_return, enzyme_active_return, x, x);
  // CHECK-DAG: result-markers.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_primal_return' asks for the result of 'g', which returns nothing
  __enzyme_autodiff((void *)g, enzyme_primal_return, p, dp);
  // CHECK-DAG: result-markers.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_active_return' marks the result of 'count' active, but it is not a floating-point value
  s += __enzyme_autodiff((void *)count, enzyme_active_return, enzyme_const, x);
  // CHECK-DAG: result-markers.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: the call's return type (double) does not fit what 'enzyme_primal_return' makes it return: the result of 'f' followed by its derivatives ({ double, { double, double } })
  s += __enzyme_autodiff((void *)f, enzyme_primal_return, x, x);
  // CHECK-DAG: result-markers.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: the call's return type ({ double, double }) does not fit what 'enzyme_primal_return' makes it return: the result of 'f' followed by its derivatives ({ double, { double, double } })
  with_primal r = __enzyme_autodiff_p((void *)f, enzyme_primal_return, x, x);
  // CHECK-DAG: result-markers.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_dup_return' asks for the shadow of the result of 'f', which reverse mode does not give
  s += __enzyme_autodiff((void *)f, enzyme_dup_return, x, x);
  // CHECK-DAG: result-markers.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_active_return' marks the result active, which forward mode does not have
  s += __enzyme_fwddiff((void *)f, enzyme_active_return, x, 1.0, x, 0.0);
  return s + r.value;
}
