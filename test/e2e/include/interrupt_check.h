/*===- interrupt_check.h - Checks of interruptible execution for e2e tests -===*
 *
 * A test program describes one computation (how to reset its inputs, how to
 * run it plainly, through __capsule_primops and through
 * __capsule_interrupt, and which memory it can observe) and calls
 * check_interruptible(), which checks against the uninterrupted run:
 *   1. __capsule_primops's count equals the steps every interrupted and
 *      resumed run ends with, and chains of capsule_resume_for add up to it;
 *   2. for every k (all of [0, n+1] when n is small, else the boundaries and
 *      200 pseudo-random k): interrupt at k and resume gives a bit-identical
 *      result and observable memory;
 *   3. nested: interrupt at k1, resume_for to k2, resume to the end;
 *   4. re-execution: resuming the same capsule twice, and three capsules
 *      alive at once resumed and released in LIFO order;
 *   5. the newest capsule's journal stays within a bound on the memory the
 *      program writes (not the number of writes).
 * It prints every failure and returns the number of failures.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_TEST_INTERRUPT_CHECK_H
#define CAPSULE_TEST_INTERRUPT_CHECK_H

#include <capsule/capsule.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

struct region {
  const void *at;
  size_t bytes;
};

struct program {
  const char *name;
  size_t result_bytes;
  void (*reset)(void);
  void (*plain)(void *result);
  uint64_t (*primops)(void);
  capsule_t *(*interrupt)(uint64_t k);
  const struct region *regions;
  size_t region_count;
  uint64_t journal_bound; /* bytes */
};

/* Runners for `RT FN(args)` and `void FN(args)`. */
#define DEFINE_CAPSULE_RUNNERS(FN, ...)                                        \
  static uint64_t primops_run(void) {                                          \
    return __capsule_primops((void *)FN, __VA_ARGS__);                         \
  }                                                                            \
  static capsule_t *interrupt_run(uint64_t k) {                                \
    return __capsule_interrupt((void *)FN, k, __VA_ARGS__);                    \
  }
#define DEFINE_RUNNERS(RT, FN, ...)                                            \
  static void plain_run(void *plain_result_) {                                 \
    RT plain_value_ = FN(__VA_ARGS__);                                         \
    memcpy(plain_result_, &plain_value_, sizeof plain_value_);                 \
  }                                                                            \
  DEFINE_CAPSULE_RUNNERS(FN, __VA_ARGS__)
#define DEFINE_VOID_RUNNERS(FN, ...)                                           \
  static void plain_run(void *plain_result_) {                                 \
    (void)plain_result_;                                                       \
    FN(__VA_ARGS__);                                                           \
  }                                                                            \
  DEFINE_CAPSULE_RUNNERS(FN, __VA_ARGS__)

struct check_state {
  const struct program *p;
  unsigned char ref_result[64];
  unsigned char *ref_memory;
  size_t memory_bytes;
  uint64_t steps;
  int failures;
};

static void check_fail(struct check_state *s, const char *what, uint64_t k1,
                       uint64_t k2) {
  if (s->failures++ < 20)
    printf("FAIL %s: %s (k=%llu, %llu)\n", s->p->name, what,
           (unsigned long long)k1, (unsigned long long)k2);
}

static void check_memory(struct check_state *s, const char *what, uint64_t k1,
                         uint64_t k2) {
  size_t at = 0;
  for (size_t i = 0; i < s->p->region_count; ++i) {
    const struct region *r = &s->p->regions[i];
    if (memcmp(s->ref_memory + at, r->at, r->bytes) != 0)
      check_fail(s, what, k1, k2);
    at += r->bytes;
  }
}

static uint64_t last_run_steps(void) {
  capsule_interrupt_stats_t st;
  capsule_get_interrupt_stats(&st);
  return st.last_run_steps;
}

/* Resumes c to the end and checks result, memory and step count. */
static void check_resume(struct check_state *s, capsule_t *c, uint64_t k1,
                         uint64_t k2) {
  unsigned char result[64] = {0};
  capsule_resume(c, result);
  if (memcmp(result, s->ref_result, s->p->result_bytes) != 0)
    check_fail(s, "result differs from the uninterrupted run", k1, k2);
  check_memory(s, "memory differs from the uninterrupted run", k1, k2);
  if (last_run_steps() != s->steps)
    check_fail(s, "steps at the end differ from __capsule_primops", k1, k2);
  capsule_interrupt_stats_t st;
  capsule_get_interrupt_stats(&st);
  if (st.newest_journal_bytes > s->p->journal_bound)
    check_fail(s, "journal larger than the bound", k1, st.newest_journal_bytes);
}

static uint64_t next_random(uint64_t *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return *state >> 33;
}

static void check_single(struct check_state *s, uint64_t k, int twice) {
  s->p->reset();
  capsule_t *c = s->p->interrupt(k);
  if (!c) {
    check_memory(s, "memory differs after a run that ended", k, 0);
    if (last_run_steps() != s->steps)
      check_fail(s, "steps of a run that ended differ", k, 0);
    if (k <= s->steps && k == 0)
      check_fail(s, "interrupt at 0 did not stop", k, 0);
    return;
  }
  if (capsule_steps(c) < k || capsule_steps(c) > s->steps)
    check_fail(s, "capsule steps outside [k, n]", k, capsule_steps(c));
  check_resume(s, c, k, 0);
  if (twice)
    check_resume(s, c, k, 1);
  capsule_release(c);
}

static void check_nested(struct check_state *s, uint64_t k1, uint64_t k2) {
  s->p->reset();
  capsule_t *c1 = s->p->interrupt(k1);
  if (!c1)
    return;
  uint64_t at1 = capsule_steps(c1);
  capsule_t *c2 = k2 > at1 ? capsule_resume_for(c1, k2 - at1) : NULL;
  if (c2) {
    if (capsule_steps(c2) < k2)
      check_fail(s, "nested capsule steps below k2", k1, k2);
    check_resume(s, c2, k1, k2);
    capsule_release(c2);
  }
  check_resume(s, c1, k1, k2);
  capsule_release(c1);
}

/* Three live capsules, resumed newest first, each released after. */
static void check_lifo(struct check_state *s, uint64_t k, uint64_t d) {
  s->p->reset();
  capsule_t *c[3] = {s->p->interrupt(k), NULL, NULL};
  int live = c[0] ? 1 : 0;
  while (live > 0 && live < 3 && (c[live] = capsule_resume_for(c[live - 1], d)))
    ++live;
  for (int i = live - 1; i >= 0; --i) {
    check_resume(s, c[i], k, (uint64_t)i);
    capsule_release(c[i]);
  }
}

/* Chains of resume_for with step l add up to n. */
static void check_chain(struct check_state *s, uint64_t l) {
  s->p->reset();
  capsule_t *stack[4096];
  int depth = 0;
  capsule_t *c = s->p->interrupt(l);
  while (c && depth < 4096) {
    stack[depth++] = c;
    c = capsule_resume_for(c, l);
  }
  if (!c && last_run_steps() != s->steps)
    check_fail(s, "chained capsule_resume_for ends at another step count", l,
               last_run_steps());
  if (!c)
    check_memory(s, "memory differs after a chain of resumes", l, 0);
  while (depth > 0)
    capsule_release(stack[--depth]);
}

static int check_interruptible(const struct program *p) {
  struct check_state s = {p, {0}, NULL, 0, 0, 0};
  for (size_t i = 0; i < p->region_count; ++i)
    s.memory_bytes += p->regions[i].bytes;
  s.ref_memory = (unsigned char *)malloc(s.memory_bytes + 1);
  p->reset();
  p->plain(s.ref_result);
  size_t at = 0;
  for (size_t i = 0; i < p->region_count; ++i) {
    memcpy(s.ref_memory + at, p->regions[i].at, p->regions[i].bytes);
    at += p->regions[i].bytes;
  }
  p->reset();
  s.steps = p->primops();
  check_memory(&s, "memory differs after __capsule_primops", 0, 0);
  p->reset();
  if (p->primops() != s.steps)
    check_fail(&s, "__capsule_primops is not deterministic", 0, 0);
  if (s.steps == 0)
    check_fail(&s, "__capsule_primops counted no steps", 0, 0);

  uint64_t n = s.steps;
  if (n <= 300) {
    for (uint64_t k = 0; k <= n + 1; ++k)
      check_single(&s, k, k % 7 == 0);
  } else {
    uint64_t fixed[] = {0, 1, 2, n / 2, n - 2, n - 1, n, n + 1};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; ++i)
      check_single(&s, fixed[i], 1);
    uint64_t seed = 42;
    for (int i = 0; i < 200; ++i)
      check_single(&s, next_random(&seed) % (n + 1), i % 10 == 0);
  }
  uint64_t seed = 7;
  for (int i = 0; i < 20; ++i) {
    uint64_t a = next_random(&seed) % (n + 1), b = next_random(&seed) % (n + 1);
    check_nested(&s, a < b ? a : b, a < b ? b : a);
  }
  check_lifo(&s, n / 4, n / 4 + 1);
  check_chain(&s, n / 50 + 1);
  check_chain(&s, n / 3 + 1);

  printf("%s: %llu steps, %d failures\n", p->name, (unsigned long long)n,
         s.failures);
  free(s.ref_memory);
  return s.failures;
}

#ifdef __cplusplus
}
#endif

#endif /* CAPSULE_TEST_INTERRUPT_CHECK_H */
