// Error: malformed vector-mode calls (enzyme_width) and what vector mode does not handle yet are compile-time errors naming the call or the construct (at -O0 and -O2).
// RUN: not %clang -O0 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t.o 2>&1 | FileCheck %s
int enzyme_dup, enzyme_const, enzyme_width, enzyme_dupv;

typedef struct {
  double d[4];
} four;
typedef double v2d __attribute__((vector_size(16)));
double __enzyme_fwddiff(void *, ...);
four __enzyme_fwddiff_4(void *, ...);

double sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}
double scale(double a, double b) { return a * b; }
double simd(v2d v) { return v[0] * v[1]; }
double inner(double a) {
  // CHECK-DAG: vector-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: cannot differentiate function 'inner'{{.*}}vector mode (enzyme_width) inside differentiated code (nested differentiation) is not supported yet
  four t = __enzyme_fwddiff_4((void *)scale, enzyme_width, 4, a, 1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 1.0, 0.0, 0.0);
  return t.d[0];
}

double use(double *x, double *dx, int n, double a) {
  four t;
  double s = 0;
  // CHECK-DAG: vector-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_width' must be followed by a constant number of tangents from 1 to 64
  t = __enzyme_fwddiff_4((void *)sum, enzyme_width, n, enzyme_dupv, 32, x, dx, enzyme_const, 4);
  // CHECK-DAG: vector-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_width' must be followed by a constant number of tangents from 1 to 64
  t = __enzyme_fwddiff_4((void *)sum, enzyme_width, 65, enzyme_dupv, 32, x, dx, enzyme_const, 4);
  // CHECK-DAG: vector-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_width' appears twice
  t = __enzyme_fwddiff_4((void *)sum, enzyme_width, 4, enzyme_width, 4, enzyme_dupv, 32, x, dx, enzyme_const, 4);
  // CHECK-DAG: vector-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: enzyme_dupv marks argument 1 of 'scale', which is not a pointer: only pointers have shadows laid out a stride apart
  t = __enzyme_fwddiff_4((void *)scale, enzyme_width, 4, enzyme_dupv, 8, a, dx, enzyme_const, a);
  // CHECK-DAG: vector-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'enzyme_dupv' must be followed by the distance in bytes between the shadows of argument 1 of 'sum', an integer
  t = __enzyme_fwddiff_4((void *)sum, enzyme_width, 4, enzyme_dupv, 8.0, x, dx, enzyme_const, 4);
  // CHECK-DAG: vector-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: shadow 4 of argument 1 of 'sum' is missing: an activity marker stands in its place
  t = __enzyme_fwddiff_4((void *)sum, enzyme_width, 4, enzyme_dup, x, dx, dx, dx, enzyme_const, 4);
  // CHECK-DAG: vector-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: argument 2 of 'scale' is active but the call ends before tangent 3
  t = __enzyme_fwddiff_4((void *)scale, enzyme_width, 4, a, 1.0, 0.0, 0.0, 0.0, a, 1.0, 1.0);
  // CHECK-DAG: vector-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: the call's return type (double) does not fit the 4 tangents of the result of 'sum': declare a struct or array of 4 values of its type (double)
  s += __enzyme_fwddiff((void *)sum, enzyme_width, 4, enzyme_dupv, 32, x, dx, enzyme_const, 4);
  // CHECK-DAG: vector-mode.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: vector mode (enzyme_width) of 'simd', which takes or returns SIMD vector values, is not supported yet
  t = __enzyme_fwddiff_4((void *)simd, enzyme_width, 2, enzyme_const, (v2d){1, 2});
  s += __enzyme_fwddiff((void *)inner, a, 1.0);
  return s + t.d[0];
}
