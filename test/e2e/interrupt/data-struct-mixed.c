// Interruptible execution: a struct mixing int, double, float, short, char
// and pointer fields (one pointing at a caller buffer, one at another
// struct) updated through pointers and pointer fields, with a nested struct
// member; the structs, the buffer and the returned value must be identical
// after an interruption at any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct inner {
  short s;
  char c;
  float f;
};

struct record {
  int id;
  double weight;
  double *buf;
  int len;
  struct inner in;
  struct record *next;
  long count;
};

static void touch(struct record *r, int round) {
  for (int i = 0; i < r->len; ++i)
    r->buf[i] = r->buf[i] * r->weight + r->id;
  r->in.s = (short)(r->in.s * 3 + round);
  r->in.c = (char)(r->in.c + 1);
  r->in.f = r->in.f * 0.5f + (float)round;
  r->weight -= 0.125;
  r->count += r->len;
}

double mixed(struct record *head, int rounds) {
  double s = 0;
  for (int k = 0; k < rounds; ++k)
    for (struct record *r = head; r; r = r->next) {
      touch(r, k);
      s += r->buf[r->len - 1] + r->in.f + r->in.s + r->in.c;
      if (r->next && r->count > 10) {
        r->next->id += r->id;
        r->count = 0;
      }
    }
  return s;
}

static double buf[12];
static struct record recs[3];
static void reset(void) {
  for (int i = 0; i < 12; ++i)
    buf[i] = i * 0.5 + 0.25;
  int lens[3] = {4, 3, 5};
  double *at = buf;
  for (int i = 0; i < 3; ++i) {
    memset(&recs[i], 0, sizeof recs[i]);
    recs[i].id = i + 1;
    recs[i].weight = 1.0 - i * 0.25;
    recs[i].buf = at;
    recs[i].len = lens[i];
    at += lens[i];
    recs[i].in.s = (short)(i * 2);
    recs[i].in.c = (char)('a' + i);
    recs[i].in.f = 1.5f * (float)i;
    recs[i].next = i < 2 ? &recs[i + 1] : NULL;
    recs[i].count = 0;
  }
}
DEFINE_RUNNERS(double, mixed, recs, 6)
static const struct region regions[] = {{buf, sizeof buf}, {recs, sizeof recs}};

int main(void) {
  struct program p = {
      "data-struct-mixed", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,       regions,        2,     4096};
  return check_interruptible(&p) != 0;
}
