// Interruptible execution: stores that are not aligned to their size (a
// packed struct whose double and long fields straddle 8-byte boundaries,
// and 32-byte vectors stored at odd double offsets) and bit-fields updated
// by read-modify-write; the structs, the buffer and the returned value must
// be identical after an interruption at any step (interrupt_check.h lists
// the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct __attribute__((packed)) packed_rec {
  char tag;
  double d;
  int i;
  short s;
  long l;
};

struct flags {
  unsigned ready : 1;
  unsigned count : 5;
  signed delta : 7;
  unsigned mode : 3;
  unsigned long wide : 40;
};

typedef double v4d __attribute__((vector_size(32)));

double unaligned(struct packed_rec *recs, int n, struct flags *fl,
                 double *buf) {
  double s = 0;
  for (int k = 0; k < n; ++k) {
    recs[k].d = recs[k].d * 1.5 + k;
    recs[k].i += (int)recs[k].d;
    recs[k].l = recs[k].l * 3 + recs[k].i;
    recs[k].s = (short)(recs[k].s + 1);
    s += recs[k].d + (double)recs[k].l;
    fl[k].ready = !fl[k].ready;
    fl[k].count += 3;
    fl[k].delta -= 9;
    fl[k].mode = (unsigned)k & 7;
    fl[k].wide = fl[k].wide * 5 + 1;
    s += fl[k].count + fl[k].delta + (double)fl[k].wide;
  }
  for (int k = 1; k + 4 <= 13; k += 3) {
    v4d v;
    memcpy(&v, buf + k, sizeof v);
    v = v * 2.0 + 1.0;
    memcpy(buf + k, &v, sizeof v);
    s += v[0] + v[3];
  }
  return s;
}

static struct packed_rec recs[9];
static struct flags fl[9];
static double buf[16];
static void reset(void) {
  memset(recs, 0, sizeof recs);
  memset(fl, 0, sizeof fl);
  for (int k = 0; k < 9; ++k) {
    recs[k].tag = (char)k;
    recs[k].d = k * 0.5;
    recs[k].i = k;
    recs[k].s = (short)k;
    recs[k].l = k * 100;
    fl[k].count = (unsigned)k;
    fl[k].delta = k - 4;
    fl[k].wide = (unsigned long)k << 30;
  }
  for (int i = 0; i < 16; ++i)
    buf[i] = i;
}
DEFINE_RUNNERS(double, unaligned, recs, 9, fl, buf)
static const struct region regions[] = {
    {recs, sizeof recs}, {fl, sizeof fl}, {buf, sizeof buf}};

int main(void) {
  struct program p = {
      "data-packed-bitfields", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,           regions,        3,     4096};
  return check_interruptible(&p) != 0;
}
