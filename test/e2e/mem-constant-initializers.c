// Local arrays initialized from constants: at -O0 clang copies a char array's initializer (`char name[8] = "weights"`, `unsigned char order[4] = {3, 1, 0, 2}`) out of a constant global with memcpy, which the reverse sweep refused ("cannot tell whether this copy moves floating-point data": byte arrays say nothing of what they hold). A copy out of constant memory without pointers moves no derivative, whatever its bytes are: the destination's adjoints are cleared. That must hold where the constant bytes overwrite an active double (the old value's adjoint must not leak through), and where they land in a struct beside doubles.
// RUN: %clang -O0 %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0g %capsule_ldflags -lm && %t0g
// RUN: %clang -O2 %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O0 %capsule_cflags -- %capsule_ldflags
#include <math.h>
#include <string.h>
#include <capsule/capsule.h>
#include "include/check.h"

/* A permutation and a label kept in local byte arrays. */
static double permuted(double *x) {
  unsigned char order[4] = {3, 1, 0, 2};
  char name[8] = "weights";
  double w[4] = {0.5, 1.5, -2.0, 3.0};
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += w[i] * sin(x[order[i]]) * (name[i] == 'e' ? 2.0 : 1.0);
  return s * s;
}
CHECK_FD_OF(permuted)

/* The bytes of 1.0 copied over a double that held x0^2: the result is
 * x1 + x2 x3, with no derivative in x0. */
static const unsigned char one_bytes[8] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f};
static double overwritten(double *x) {
  double a = x[0] * x[0];
  double b = a * x[2];
  memcpy(&a, one_bytes, sizeof a);
  return a * x[1] + b * x[3] / x[0] / x[0];
}
CHECK_FD_OF(overwritten)

/* A record whose name is copied in beside its active weight. */
typedef struct {
  char name[12];
  double weight;
} Item;
static double records(double *x) {
  Item items[3];
  for (int i = 0; i < 3; i++)
    items[i].weight = x[i] * x[3];
  char first[12] = "alpha";
  memcpy(items[0].name, first, sizeof first);
  memcpy(items[1].name, "beta", 5);
  double s = 0;
  for (int i = 0; i < 3; i++)
    s += items[i].weight * (items[i].name[0] == 'a' ? 3.0 : 1.0);
  return s * x[1];
}
CHECK_FD_OF(records)

int main(void) {
  double x[4] = {0.7, -0.3, 1.2, 0.5};
  CHECK_GRADIENT_AND_TANGENTS(permuted, x, 4);
  CHECK_GRADIENT_AND_TANGENTS(overwritten, x, 4);
  CHECK_GRADIENT_AND_TANGENTS(records, x, 4);
  return check_report();
}
