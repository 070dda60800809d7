// Untyped copies in a helper that receives the address of a struct's member
// (`&outer.in`): what the bytes hold is in the layout of the caller's
// struct at the member's offset, not at its start. Copying the first double
// of a member that sits after an integer lost its derivative at -O0 (the
// layout was read at offset 0, an integer, and the copy moved no adjoint:
// 0 for 12); and an integer read out of a member was taken for a double's
// bits (Eigen's sizes inside its solver objects: checkpointed/
// cxx-eigen-blocked.cpp).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O0 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <math.h>
#include <string.h>
#include "include/check.h"

struct Inner {
  double v;
  long n;
};
struct Outer {
  long tag;
  struct Inner in;
  double w[2];
};
struct Nested {
  int kind;
  struct Outer o;
};

/* Copies the first eight bytes: the member's double. */
__attribute__((noinline)) static void copy_first(struct Inner *d,
                                                 const struct Inner *s) {
  memcpy(d, s, 8);
}

/* Copies the second field, the count: eight bytes of integer. */
__attribute__((noinline)) static void copy_count(void *d, const void *s) {
  memcpy(d, s, sizeof(long));
}

/* Copies one double out of an array member, through untyped pointers. */
__attribute__((noinline)) static void copy_bytes8(void *d, const void *s) {
  memcpy(d, s, 8);
}

double f(const double *x) {
  struct Outer a = {1, {x[0] * x[0], 2}, {x[1], 3 * x[2]}};
  struct Outer b = {3, {0, 4}, {0, 0}};
  copy_first(&b.in, &a.in);
  copy_count(&b.in.n, &a.in.n);
  copy_bytes8(&b.w[0], &a.w[1]);
  struct Nested c = {7, {5, {0, 1}, {0, 0}}};
  copy_first(&c.o.in, &b.in);
  copy_bytes8(&c.o.w[1], &b.w[0]);
  return 3 * c.o.in.v + b.in.n * c.o.w[1] + sin(b.w[0]);
}

static double f_fd(double *x, void *ctx) {
  (void)ctx;
  return f(x);
}

int main(void) {
  double x[3] = {2.0, 0.4, -0.7}, dx[3] = {0};
  __capsule_autodiff((void *)f, x, dx);
  /* f = 3 x0^2 + 2 (3 x2) + sin(3 x2) */
  check_close("d/dx0", dx[0], 6 * x[0], 1e-12, 1e-12);
  check_close("d/dx1", dx[1], 0, 1e-12, 1e-12);
  check_close("d/dx2", dx[2], 6 + 3 * cos(3 * x[2]), 1e-12, 1e-12);
  check_grad_fd("dx", dx, f_fd, NULL, x, 3);
  return check_report();
}
