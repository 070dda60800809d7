// Interruptible execution: a small stack-machine interpreter whose dispatch
// is a dense switch (a jump table) with fallthrough, and a sparse switch
// (a compare tree) classifying the results; the stack, the output array and
// the returned checksum must be identical after an interruption at any step
// (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

enum { PUSH, ADD, SUB, MUL, DUP, SWAP, OVER, JNZ, DEC, NEG, DROP, HALT };

static int sparse(long v) {
  switch (v % 1000) {
  case 1:
    return 10;
  case 10:
  case 20:
    return 20;
  case 100:
    return 30;
  case -7:
    return 40;
  case 720:
    return 50;
  default:
    return v < 0 ? -1 : 0;
  }
}

long interp(const int *code, long *stack, int *classes) {
  int pc = 0, sp = 0, ncls = 0;
  long check = 0;
  for (;;) {
    int op = code[pc++];
    switch (op) {
    case PUSH:
      stack[sp++] = code[pc++];
      break;
    case ADD:
      stack[sp - 2] += stack[sp - 1];
      --sp;
      break;
    case SUB:
      stack[sp - 2] -= stack[sp - 1];
      --sp;
      break;
    case MUL:
      stack[sp - 2] *= stack[sp - 1];
      --sp;
      break;
    case DUP:
      stack[sp] = stack[sp - 1];
      ++sp;
      break;
    case SWAP: {
      long t = stack[sp - 1];
      stack[sp - 1] = stack[sp - 2];
      stack[sp - 2] = t;
      break;
    }
    case OVER:
      stack[sp] = stack[sp - 2];
      ++sp;
      break;
    case JNZ: {
      int target = code[pc++];
      if (stack[--sp] != 0)
        pc = target;
      break;
    }
    case NEG:
      stack[sp - 1] = -stack[sp - 1];
      /* fall through: NEG then DEC */
    case DEC:
      stack[sp - 1] -= 1;
      break;
    case DROP:
      classes[ncls++] = sparse(stack[--sp]);
      check = check * 7 + classes[ncls - 1];
      break;
    case HALT:
    default:
      return check * 1000 + sp + stack[0];
    }
  }
}

/* acc = 1, n = 6; loop: acc *= n; n -= 1; while n; then a few drops. */
static const int program[] = {PUSH, 1,    PUSH, 6,    /* acc n */
                              SWAP, OVER, MUL,  SWAP, /* acc*n n */
                              DEC,  DUP,  JNZ,  4,    /* loop */
                              DROP, DUP,  DROP, PUSH, 6,    NEG,  DROP,
                              PUSH, 10,   DROP, PUSH, 2001, DROP, PUSH,
                              100,  PUSH, 3,    SUB,  DROP, HALT};
static int code[sizeof program / sizeof program[0]];
static long stack[16];
static int classes[8];
static void reset(void) {
  memcpy(code, program, sizeof code);
  memset(stack, 0, sizeof stack);
  memset(classes, 0, sizeof classes);
}
DEFINE_RUNNERS(long, interp, code, stack, classes)
static const struct region regions[] = {
    {code, sizeof code}, {stack, sizeof stack}, {classes, sizeof classes}};

int main(void) {
  struct program p = {"cf-switch", sizeof(long),  reset,   plain_run,
                      primops_run, interrupt_run, regions, 3,
                      4096};
  return check_interruptible(&p) != 0;
}
