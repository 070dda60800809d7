// Enzyme's result markers from C: enzyme_primal_return returns f's result before its adjoints ({result, {adjoints}}) or its tangent ({result, tangent}); enzyme_const_return leaves the result unseeded (reverse) or its tangent out (forward); enzyme_noret, enzyme_active_return and enzyme_dup_return as Enzyme reads them; in registers, in memory (sret) and for float. Against closed forms, at -O0 to -O2 and checkpointed.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <math.h>

#include "check.h"

int enzyme_dup, enzyme_const, enzyme_out, enzyme_primal_return, enzyme_noret,
    enzyme_const_return, enzyme_active_return, enzyme_dup_return;

typedef struct {
  double value, dx;
} value_dx;
typedef struct {
  double value;
  struct {
    double dx, dy;
  } d;
} value_dxdy;
typedef struct {
  float value, dx;
} value_dx_f;

double __enzyme_autodiff(void *, ...);
value_dx __enzyme_autodiff_vd(void *, ...);
value_dxdy __enzyme_autodiff_vdd(void *, ...);
value_dx_f __enzyme_autodiff_vdf(void *, ...);
void __enzyme_autodiff_v(void *, ...);
double __enzyme_fwddiff(void *, ...);
value_dx __enzyme_fwddiff_vd(void *, ...);

static double f(double x, double y) { return x * y + sin(x); }
static float ff(float x) { return x * x * x; }
static double norm2(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += p[i] * p[i];
  return s;
}

int main(void) {
  double x = 0.8, y = -1.5;

  value_dx one = __enzyme_autodiff_vd((void *)f, enzyme_primal_return,
                                      enzyme_out, x, enzyme_const, y);
  check_cf("primal and one adjoint: value", one.value, f(x, y));
  check_cf("primal and one adjoint: dx", one.dx, y + cos(x));

  value_dxdy two = __enzyme_autodiff_vdd((void *)f, enzyme_primal_return, x, y);
  check_cf("primal and two adjoints: value", two.value, f(x, y));
  check_cf("primal and two adjoints: dx", two.d.dx, y + cos(x));
  check_cf("primal and two adjoints: dy", two.d.dy, x);

  double noret = __enzyme_autodiff((void *)f, enzyme_noret,
                                   enzyme_active_return, x, enzyme_const, y);
  check_cf("noret, active result", noret, y + cos(x));

  value_dx_f fl = __enzyme_autodiff_vdf((void *)ff, enzyme_primal_return, 1.5f);
  check_close("float: value", fl.value, 1.5 * 1.5 * 1.5, CHECK_FLOAT_RTOL,
              CHECK_FLOAT_ATOL);
  check_close("float: dx", fl.dx, 3 * 1.5 * 1.5, CHECK_FLOAT_RTOL,
              CHECK_FLOAT_ATOL);

  // Only the result: no out argument.
  double p[3] = {1, 2, 3}, dp[3] = {0, 0, 0};
  double value = __enzyme_autodiff((void *)norm2, enzyme_primal_return,
                                   enzyme_dup, p, dp, enzyme_const, 3);
  check_cf("primal only: value", value, 14.0);
  for (int i = 0; i < 3; i++)
    check_cf("primal only: shadow", dp[i], 2 * p[i]);

  // An unseeded result: nothing flows back.
  double unseeded = __enzyme_autodiff((void *)f, enzyme_const_return, x,
                                      enzyme_const, y);
  check_cf("const result: no adjoint", unseeded, 0.0);
  double dq[3] = {1, 1, 1};
  __enzyme_autodiff_v((void *)norm2, enzyme_const_return, enzyme_dup, p, dq,
                      enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    check_cf("const result: shadow unchanged", dq[i], 1.0);

  // Forward mode.
  value_dx t = __enzyme_fwddiff_vd((void *)f, enzyme_primal_return,
                                   enzyme_dup_return, x, 1.0, y, 0.5);
  check_cf("forward: value", t.value, f(x, y));
  check_cf("forward: tangent", t.dx, (y + cos(x)) * 1.0 + x * 0.5);
  double tangent = __enzyme_fwddiff((void *)f, enzyme_noret, enzyme_dup_return,
                                    x, 1.0, y, 0.0);
  check_cf("forward: tangent only", tangent, y + cos(x));
  double tp[3] = {1, 0, 0};
  double primal = __enzyme_fwddiff((void *)norm2, enzyme_const_return,
                                   enzyme_primal_return, enzyme_dup, p, tp,
                                   enzyme_const, 3);
  check_cf("forward, const result: value", primal, 14.0);
  return check_report();
}
