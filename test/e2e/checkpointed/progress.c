// Progress of a checkpointed gradient: CAPSULE_PROGRESS=always prints a
// line per stage wherever stderr goes; CAPSULE_PROGRESS=1 keeps one live
// line on a terminal (rewritten with \r and erased to its end) and prints
// nothing elsewhere; quiet by default; a bad value stops the program. A
// callback (capsule_set_progress_callback) sees the stages in order, the
// reversed fraction and the steps run again never going back, the time
// left once known, every report at most as often as asked and at each
// change of stage, and the steps the counting run (online, the default, or
// PRIMOPS) has counted so far, growing; removed, it is not called. The gradient is the plain
// one, bit for bit, and central differences'.
// RUN: %clang -O2 -g %capsule_cflags %s -o %t %capsule_ldflags -lm
// RUN: %t callback
// RUN: env CAPSULE_PROGRESS=always %t 2>&1 | FileCheck %s --check-prefix=ALWAYS
// RUN: env CAPSULE_PROGRESS=1 %t 2>&1 | FileCheck %s --check-prefix=QUIET --implicit-check-not=capsule:
// RUN: %t 2>&1 | FileCheck %s --check-prefix=QUIET --implicit-check-not=capsule:
// On a terminal: a pseudo-terminal's output, control characters shown.
// RUN: env CAPSULE_PROGRESS=1 timeout 120 python3 -c 'import pty, sys; pty.spawn(sys.argv[1:])' %t < /dev/null | cat -v | FileCheck %s --check-prefix=LIVE
// RUN: env CAPSULE_PROGRESS=maybe not %t 2>&1 | FileCheck %s --check-prefix=BAD
#include <math.h>
#include <string.h>
#include <capsule/capsule.h>
#include "../include/check.h"

void __capsule_autodiff_v(void *, ...);
void __capsule_autodiff_checkpointed_v(void *, ...);

enum { N = 16, STEPS = 3000 };

double orbit(double *x, int n, int steps) {
  for (int s = 0; s < steps; s++)
    for (int i = 0; i < n; i++)
      x[i] += 0.002 * sin(x[(i + 1) % n] * x[i]);
  double r = 0;
  for (int i = 0; i < n; i++)
    r += x[i] * (1 + i);
  return r;
}

static double orbit_fd(double *x, void *ctx) {
  (void)ctx;
  double y[N];
  memcpy(y, x, sizeof y);
  return orbit(y, N, STEPS);
}

// What the callback saw.
static struct {
  int calls, order_broken, stage;
  double fraction;
  unsigned long long recomputed, steps;
  int left_unknown_after_reversing;
  int counted_on_the_way; // online: reports of the first run's steps so far
} seen;

static int stage_index(const char *stage) {
  static const char *const stages[] = {"counting", "reversing", "finishing",
                                       "done"};
  for (int i = 0; i < 4; i++)
    if (!strcmp(stage, stages[i]))
      return i;
  return -1;
}

static void watch(const capsule_progress_t *p, void *user) {
  check_close("the callback's user pointer", user == &seen, 1, 0, 0);
  int stage = stage_index(p->stage);
  seen.order_broken |= stage < seen.stage || p->fraction < seen.fraction ||
                       p->recomputed_steps < seen.recomputed;
  seen.left_unknown_after_reversing |=
      p->reversed_steps > 0 && p->remaining_seconds < 0;
  if (stage == 0 && p->steps) {
    seen.order_broken |= p->steps <= seen.steps;
    seen.counted_on_the_way++;
  }
  seen.calls++;
  seen.stage = stage;
  seen.fraction = p->fraction;
  seen.recomputed = p->recomputed_steps;
  seen.steps = p->steps;
  check_close("fraction", p->fraction,
              p->steps ? (double)p->reversed_steps / p->steps : 0, 1e-15, 0);
}

static void gradient(double *dx) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.05 * i - 0.3;
  __capsule_autodiff_checkpointed_v((void *)orbit, capsule_dup, x, dx,
                                    capsule_const, N, capsule_const, STEPS);
}

int main(int argc, char **argv) {
  double x0[N], x[N], plain[N] = {0}, dx[N] = {0};
  capsule_config_leaf_steps(2000); // many stages, many steps run again
  for (int i = 0; i < N; i++)
    x0[i] = 0.05 * i - 0.3;
  memcpy(x, x0, sizeof x);
  __capsule_autodiff_v((void *)orbit, capsule_dup, x, plain, capsule_const, N,
                       capsule_const, STEPS);
  check_grad_fd("plain gradient", plain, orbit_fd, 0, x0, N);

  if (argc > 1 && !strcmp(argv[1], "callback")) {
    capsule_set_progress_callback(watch, &seen, 0);
    gradient(dx);
    check_close("every report seen in order", seen.order_broken, 0, 0, 0);
    check_close("time left known once a stage is reversed",
                seen.left_unknown_after_reversing, 0, 0, 0);
    check_close("last stage done", seen.stage, 3, 0, 0);
    check_close("all reversed", seen.fraction, 1, 0, 0);
    check_close("steps run again", seen.recomputed > 0, 1, 0, 0);
    check_close("a report per stage at least", seen.calls > 4, 1, 0, 0);
    check_close("the online first run's steps counted as it goes",
                seen.counted_on_the_way > 1, 1, 0, 0);
    // Offline, PRIMOPS reports as it counts too: a reported green run goes
    // in pieces of α steps.
    memset(&seen, 0, sizeof seen);
    capsule_config_strategy("binary");
    memset(dx, 0, sizeof dx);
    gradient(dx);
    capsule_config_strategy("online");
    check_close("PRIMOPS counted as it goes", seen.counted_on_the_way > 1, 1,
                0, 0);
    check_close("every report seen in order, offline", seen.order_broken, 0,
                0, 0);
    for (int i = 0; i < N; i++)
      check_cf("checkpointed (offline, reported) equals plain", dx[i],
               plain[i]);
    // At most every hour: only the four changes of stage.
    memset(&seen, 0, sizeof seen);
    capsule_set_progress_callback(watch, &seen, 3600);
    memset(dx, 0, sizeof dx);
    gradient(dx);
    check_close("reports at changes of stage only", seen.calls, 4, 0, 0);
    memset(&seen, 0, sizeof seen);
    capsule_set_progress_callback(NULL, NULL, 0);
    memset(dx, 0, sizeof dx);
    gradient(dx);
    check_close("no reports after removal", seen.calls, 0, 0, 0);
  } else {
    gradient(dx);
  }
  for (int i = 0; i < N; i++)
    check_cf("checkpointed equals plain", dx[i], plain[i]);
  return check_report();
}

// ALWAYS: capsule: gradient of orbit: counting steps
// ALWAYS-NEXT: capsule: gradient of orbit: reversing, 0.0% of [[STEPS:[0-9]+]] steps reversed, 0.00x run again, {{.*}} elapsed, time left not yet known
// ALWAYS-NEXT: capsule: gradient of orbit: reversed; running it once more to leave memory as it ends, {{.*}} elapsed
// ALWAYS-NEXT: capsule: gradient of orbit: done in {{[0-9.]+}} s; [[STEPS]] steps, {{[1-9][0-9.]*}}x of them run again
// ALWAYS-NEXT: PASS
// QUIET: PASS
// LIVE: ^M^{{\[\[}}Kcapsule: gradient of orbit: counting steps^M^{{\[\[}}Kcapsule: gradient of orbit: reversing, 0.0% of {{.*}}^M^{{\[\[}}Kcapsule: gradient of orbit: reversed; {{.*}}^M^{{\[\[}}Kcapsule: gradient of orbit: done in {{.*}} run again^M
// LIVE: PASS
// BAD: capsule: invalid CAPSULE_PROGRESS value 'maybe': expected 1, yes, true or on for a live line on a terminal, always for lines wherever stderr goes, or 0, no, false or off
