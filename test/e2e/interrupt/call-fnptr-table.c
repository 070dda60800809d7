// Interruptible execution: calls through function pointers taken from a
// global table of operations indexed by an opcode array, from a struct
// field, and chosen at run time by a conditional; the accumulator trace and
// the returned value must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

typedef double (*binop)(double, double);

static double op_add(double a, double b) { return a + b; }
static double op_sub(double a, double b) { return a - b; }
static double op_mul(double a, double b) { return a * b; }
static double op_div(double a, double b) { return b != 0 ? a / b : a; }
static double op_max(double a, double b) {
  double m = a;
  for (int i = 0; i < 3; ++i) /* a callee with a loop of its own */
    m = m > b ? m : b + i * 0.0;
  return m;
}

static binop table[] = {op_add, op_sub, op_mul, op_div, op_max};

struct stage {
  binop fn;
  double operand;
};

double run_ops(const int *ops, const double *args, int n, double *trace) {
  double acc = 1;
  struct stage st = {op_mul, 0.5};
  for (int i = 0; i < n; ++i) {
    binop f = table[ops[i] % 5];
    acc = f(acc, args[i]);
    binop g = acc > 10 ? op_sub : op_add;
    acc = g(acc, 1.25);
    if (i % 4 == 3) {
      acc = st.fn(acc, st.operand);
      st.fn = st.fn == op_mul ? op_max : op_mul;
      st.operand += 0.5;
    }
    trace[i] = acc;
  }
  return acc;
}

static int ops[30];
static double args[30], trace[30];
static void reset(void) {
  for (int i = 0; i < 30; ++i) {
    ops[i] = (i * 7 + 3) % 11;
    args[i] = (i % 5) * 0.75 - 1;
    trace[i] = 0;
  }
}
DEFINE_RUNNERS(double, run_ops, ops, args, 30, trace)
static const struct region regions[] = {
    {ops, sizeof ops}, {args, sizeof args}, {trace, sizeof trace}};

int main(void) {
  struct program p = {
      "call-fnptr-table", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,      regions,        3,     4096};
  return check_interruptible(&p) != 0;
}
