// Interruptible execution: a recursive-descent parser and evaluator of
// arithmetic expressions (expr -> term -> factor -> expr through
// parentheses and unary minus: mutual recursion through a cursor held in
// memory); the values of several expressions and the returned checksum must
// be identical after an interruption at any step (interrupt_check.h lists
// the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct cursor {
  const char *s;
  int errors;
};

static long expr(struct cursor *c);

static void skip(struct cursor *c) {
  while (*c->s == ' ')
    ++c->s;
}

static long factor(struct cursor *c) {
  skip(c);
  if (*c->s == '-') {
    ++c->s;
    return -factor(c);
  }
  if (*c->s == '(') {
    ++c->s;
    long v = expr(c);
    skip(c);
    if (*c->s == ')')
      ++c->s;
    else
      ++c->errors;
    return v;
  }
  long v = 0;
  if (*c->s < '0' || *c->s > '9')
    ++c->errors;
  while (*c->s >= '0' && *c->s <= '9')
    v = v * 10 + (*c->s++ - '0');
  return v;
}

static long term(struct cursor *c) {
  long v = factor(c);
  for (;;) {
    skip(c);
    char op = *c->s;
    if (op != '*' && op != '/' && op != '%')
      return v;
    ++c->s;
    long r = factor(c);
    if (op == '*')
      v *= r;
    else if (r == 0)
      ++c->errors;
    else
      v = op == '/' ? v / r : v % r;
  }
}

static long expr(struct cursor *c) {
  long v = term(c);
  for (;;) {
    skip(c);
    char op = *c->s;
    if (op != '+' && op != '-')
      return v;
    ++c->s;
    long r = term(c);
    v = op == '+' ? v + r : v - r;
  }
}

long evaluate(const char *text, long *values, int *errors) {
  struct cursor c = {text, 0};
  int i = 0;
  long check = 0;
  while (*c.s) {
    values[i] = expr(&c);
    errors[i] = c.errors;
    check = check * 31 + values[i];
    ++i;
    skip(&c);
    if (*c.s == ';')
      ++c.s;
  }
  return check + i;
}

static char text[128];
static long values[8];
static int errors[8];
static void reset(void) {
  strcpy(text, "1 + 2 * 3; (1 + 2) * 3; -(4 - 10) * -(2); ((((7)))) % 4 + "
               "100 / (3 - 1); 2*3*4*5 - 6/(1+1); 8 / (2 - 2); (1 + ; 42");
  memset(values, 0, sizeof values);
  memset(errors, 0, sizeof errors);
}
DEFINE_RUNNERS(long, evaluate, text, values, errors)
static const struct region regions[] = {
    {text, sizeof text}, {values, sizeof values}, {errors, sizeof errors}};

int main(void) {
  struct program p = {"call-recursive-descent",
                      sizeof(long),
                      reset,
                      plain_run,
                      primops_run,
                      interrupt_run,
                      regions,
                      3,
                      4096 + 1024};
  return check_interruptible(&p) != 0;
}
