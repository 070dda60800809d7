// The runtime links into a C program through the C driver alone (it needs no
// libstdc++), defines no enzyme_* marker a program may define itself, and its
// ABI, statistics and settings work from C.
//
// RUN: %clang -O1 -Wall -I%src_root/include -I%src_root/runtime %s -o %t \
// RUN:   %capsule_ldflags
// RUN: %t | FileCheck %s
// CHECK:      markers 1 2 3 4
// CHECK-NEXT: records intact
// CHECK-NEXT: calls=2 last=800 peak=80000
//
// RUN: CAPSULE_STATS=1 %t 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// STATS:      capsule: gradient call 1: peak tape 78.12 KiB (80000 bytes),
// STATS-SAME: {{ [0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9] s$}}
// STATS-NEXT: capsule: gradient call 2: peak tape 800 B (800 bytes),
// STATS-SAME: {{ [0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9] s$}}
//
// RUN: CAPSULE_TAPE_LIMIT=10K %t >/dev/null 2>%t.err; test $? -eq 3
// RUN: FileCheck --check-prefix=LIMIT %s < %t.err
// LIMIT:      capsule: the gradient's tape needs more than the limit of
// LIMIT-SAME: 10.0 KiB (10240 bytes) set by CAPSULE_TAPE_LIMIT; raise it, e.g.
// LIMIT-SAME: CAPSULE_TAPE_LIMIT=20K, or call capsule_set_tape_limit(){{$}}
//
// RUN: CAPSULE_TAPE_LIMIT=lots %t >/dev/null 2>%t.err; test $? -eq 2
// RUN: FileCheck --check-prefix=BADLIMIT %s < %t.err
// BADLIMIT:      capsule: invalid CAPSULE_TAPE_LIMIT value 'lots': expected a
// BADLIMIT-SAME: byte count such as 1048576, 512M, 2G or 'unlimited'{{$}}
#include "abi.h"
#include <capsule/capsule.h>

#include <stdio.h>
#include <string.h>

// A program may define the Enzyme marker names itself.
int enzyme_dup;

// The inline push and pop of generated code, as abi.h describes them.
static void *push(uint64_t N) {
  capsule_tape_state *T = &__capsule_tape;
  if ((uint64_t)(T->chunk_end - T->top) < N)
    return __capsule_tape_push_slow(N);
  void *Record = T->top;
  T->top += N;
  return Record;
}

static void *pop(uint64_t N) {
  capsule_tape_state *T = &__capsule_tape;
  if (T->top == T->chunk_begin)
    return __capsule_tape_pop_slow(N);
  T->top -= N;
  return T->top;
}

// One gradient call whose forward sweep records Count values.
static int gradientCall(int Count) {
  __capsule_gradient_begin();
  for (int I = 0; I < Count; ++I) {
    double Value = I;
    memcpy(push(sizeof(Value)), &Value, sizeof(Value));
  }
  __capsule_gradient_forward_done();
  int Intact = 1;
  for (int I = Count - 1; I >= 0; --I) {
    double Value;
    memcpy(&Value, pop(sizeof(Value)), sizeof(Value));
    Intact &= Value == I;
  }
  __capsule_gradient_end();
  return Intact;
}

int main(void) {
  printf("markers %d %d %d %d\n", capsule_dup, capsule_dupnoneed, capsule_const,
         capsule_out);
  int Intact = gradientCall(10000) & gradientCall(100);
  printf("records %s\n", Intact ? "intact" : "damaged");
  capsule_stats_t Stats;
  capsule_get_stats(&Stats);
  printf("calls=%llu last=%llu peak=%llu\n", (unsigned long long)Stats.calls,
         (unsigned long long)Stats.last_tape_bytes,
         (unsigned long long)Stats.peak_tape_bytes);
  return 0;
}
