// A struct of doubles and an int passed by value to, and returned by, a function with a loop, in a loop: in checkpointed code the call is split (the callee can yield), the struct is copied into the callee's record, where its type no longer shows; the copy was refused as "cannot tell whether this copy moves floating-point data" (found by capsule-fuzz, long run seed 1099). The copy's kind is now taken from the struct's type when the call is split. Against central differences; checkpointed gradients equal the plain ones.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags -lm
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags -lm
#include "include/check.h"
#include <capsule/capsule.h>
#include <math.h>

void __capsule_autodiff_v(void *, ...);

struct State {
  double a;
  double b[3];
  int k;
};

__attribute__((noinline)) static struct State step(struct State q, double s) {
  // A trip count that depends on the data: the loop can yield.
  for (int i = 0; i < 3 && q.b[i] > -10; i++)
    q.b[i] = q.b[i] * s + sin(q.a + i);
  q.a += s * q.b[2];
  q.k++;
  return q;
}

static double acc;

// Returns its struct as it came, after a loop that can yield: the result is
// copied out of the callee's record.
__attribute__((noinline)) static struct State keep(struct State q, double s) {
  for (int i = 0; i < q.k && acc < 100; i++)
    acc += sin(s * i) * q.b[i % 3];
  return q;
}

static double run(double *x) {
  struct State s = {x[0], {x[1], 0.5, -0.25}, 0};
  for (int i = 0; i < 6; i++)
    s = keep(step(s, x[(i + 1) % 3] * 0.3), x[i % 3]);
  return s.a + s.b[0] * s.b[1] - s.k * s.b[2] + acc;
}

static double runFd(double *x, void *unused) {
  acc = 0;
  return run(x);
}

int main(void) {
  double x[3] = {0.4, -0.7, 1.1}, dx[3] = {0, 0, 0};
  acc = 0;
  __capsule_autodiff_v((void *)run, capsule_dup, x, dx);
  check_grad_fd("struct by value through a resumable call", dx, runFd, 0, x, 3);
  return check_report();
}
