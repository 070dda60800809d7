// Interruptible execution: strings in caller buffers and stack arrays
// (libc's read-only strlen, strcmp, strncmp, memcmp and strchr next to a
// hand-written copy, reverse and tokenizer writing char arrays); the
// buffers and the returned value must be identical after an interruption
// at any step (interrupt_check.h lists the checks).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

static void copy(char *dst, const char *src) {
  while ((*dst++ = *src++))
    ;
}

static void reverse(char *s) {
  size_t n = strlen(s);
  for (size_t i = 0; i < n / 2; ++i) {
    char t = s[i];
    s[i] = s[n - 1 - i];
    s[n - 1 - i] = t;
  }
}

long strings(const char *text, char *out, int *word_lens) {
  char work[64];
  copy(work, text);
  long score = 0;
  int words = 0;
  char *p = work;
  while (*p) {
    char *sp = strchr(p, ' ');
    if (sp)
      *sp = 0;
    word_lens[words++] = (int)strlen(p);
    if (strcmp(p, "banana") < 0)
      score += 1;
    if (strncmp(p, "ch", 2) == 0)
      score += 10;
    reverse(p);
    if (!sp)
      break;
    *sp = '_';
    p = sp + 1;
  }
  copy(out, work);
  score += memcmp(out, text, 3) > 0 ? 100 : 200;
  return score * 100 + words;
}

static char text[64], out[64];
static int word_lens[10];
static void reset(void) {
  memset(text, 0, sizeof text);
  strcpy(text, "apple cherry banana kiwi chestnut fig date");
  memset(out, '#', sizeof out);
  memset(word_lens, 0, sizeof word_lens);
}
DEFINE_RUNNERS(long, strings, text, out, word_lens)
static const struct region regions[] = {
    {text, sizeof text}, {out, sizeof out}, {word_lens, sizeof word_lens}};

int main(void) {
  struct program p = {
      "data-strings", sizeof(long), reset, plain_run, primops_run,
      interrupt_run,  regions,      3,     4096};
  return check_interruptible(&p) != 0;
}
