// An LSTM-style cell whose weights are const rows reached through a const array of row pointers, copied into a local array (a memcpy of pointers at -O2): the copied pointers point to memory without shadows and get their places in the sink as shadows (memcpy of null shadows crashed). Gradient with respect to the dup state, against finite differences.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
#include <stdlib.h>
#include <string.h>
#include <capsule/capsule.h>
#include "include/check.h"
enum { H = 3, T = 4 };
/* weights: const, given as an array of row pointers; state: dup */
static double cell(const double *const *W, const double *b, double *h, double *c, const double *x) {
  const double *rows[4 * H];
  for (int r = 0; r < 4 * H; r++) rows[r] = W[r];      /* copies of row pointers */
  double gates[4 * H];
  for (int r = 0; r < 4 * H; r++) {
    double s = b[r];
    for (int k = 0; k < H; k++) s += rows[r][k] * h[k] + rows[r][(k + 1) % H] * x[k];
    gates[r] = r < 3 * H ? 1.0 / (1.0 + exp(-s)) : tanh(s);
  }
  for (int k = 0; k < H; k++) {
    c[k] = gates[H + k] * c[k] + gates[k] * gates[3 * H + k];
    h[k] = gates[2 * H + k] * tanh(c[k]);
  }
  return h[0] + h[1] * h[2];
}
double run(const double *const *W, const double *b, double *state, const double *xs) {
  double s = 0;
  for (int t = 0; t < T; t++) s += cell(W, b, state, state + H, xs + t * H);
  return s;
}
static double Wd[4 * H][H], bd[4 * H], xs[T * H];
static const double *W[4 * H];
static double fd(double *st, void *c) { double tmp[2 * H]; memcpy(tmp, st, sizeof tmp); return run(W, bd, tmp, xs); }
void __capsule_autodiff_v(void *, ...);
int main() {
  for (int r = 0; r < 4 * H; r++) { W[r] = Wd[r]; bd[r] = 0.1 * r - 0.5; for (int k = 0; k < H; k++) Wd[r][k] = sin(r * 1.3 + k); }
  for (int i = 0; i < T * H; i++) xs[i] = cos(i * 0.7);
  double st[2 * H] = {0.1, -0.2, 0.3, 0.0, 0.5, -0.1}, st0[2 * H], dst[2 * H] = {0};
  memcpy(st0, st, sizeof st);
  __capsule_autodiff_v((void *)run, capsule_const, W, capsule_const, bd, capsule_dup, st, dst, capsule_const, xs);
  check_grad_fd("lstm state", dst, fd, 0, st0, 2 * H);
  return check_report();
}
