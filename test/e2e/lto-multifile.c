// Link-time differentiation: the marker calls here name model(), defined in
// another file, which calls helpers from a static library, one of which has
// a custom gradient registered in a third file. Compiled with -flto and
// linked with $(capsule-config --lto-ldflags): plain, checkpointed and
// forward-mode derivatives and an interruptible run, at -O0 and -O2, against
// central differences. Linked without the plugin, the link fails naming what
// to add; without -flto, the compile names the function and says to use
// LTO; with ThinLTO, whose backends see one file at a time, the link says
// to use full LTO.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for O in 0 2; do \
// RUN:   %clang -O$O -g -flto %capsule_cflags -c %s -o %t/main$O.o && \
// RUN:   %clang -O$O -g -flto %capsule_cflags -c %S/Inputs/lto/model.c -o %t/model$O.o && \
// RUN:   %clang -O$O -g -flto %capsule_cflags -c %S/Inputs/lto/util.c -o %t/util$O.o && \
// RUN:   %clang -O$O -g -flto %capsule_cflags -c %S/Inputs/lto/rules.c -o %t/rules$O.o && \
// RUN:   rm -f %t/libutil$O.a && %llvm_ar rc %t/libutil$O.a %t/util$O.o && \
// RUN:   %clang -O$O -flto %t/main$O.o %t/model$O.o %t/rules$O.o %t/libutil$O.a \
// RUN:     $(%capsule_config --lto-ldflags --ldflags) -o %t/prog$O && %t/prog$O || exit 1; \
// RUN: done
// RUN: not %clang -O2 -flto %t/main2.o %t/model2.o %t/rules2.o %t/libutil2.a \
// RUN:   --ld-path=%llvm_bindir/ld.lld $(%capsule_config --ldflags) -o %t/noplugin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: undefined symbol: __capsule_link_with_the_plugin__see_capsule_config_lto_ldflags
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t/nolto.o 2>&1 | FileCheck %s --check-prefix=NOLTO
// RUN: %clang -O2 -g -flto=thin %capsule_cflags -c %s -o %t/thin-main.o
// RUN: %clang -O2 -g -flto=thin %capsule_cflags -c %S/Inputs/lto/model.c -o %t/thin-model.o
// RUN: not %clang -O2 -flto=thin %t/thin-main.o %t/thin-model.o %t/rules2.o %t/libutil2.a \
// RUN:   $(%capsule_config --lto-ldflags --ldflags) -o %t/thin 2>&1 | FileCheck %s --check-prefix=THIN
// THIN: error: {{.*}}'model' has no body in this translation unit; only functions defined here can be differentiated; ThinLTO differentiates each file with only what it imports: link with full LTO (-flto=full)
#include <capsule/capsule.h>
#include <math.h>
#include "check.h"
#include "Inputs/lto/model.h"

#define N 4

static double model_fd(double *x, void *ctx) {
  (void)ctx;
  return model(x, N);
}

static double run_steps(double *state, double dt) {
  model_step(state, N, dt);
  return state[0] * state[1] + state[2] - state[3];
}

static double run_steps_fd(double *x, void *ctx) {
  (void)ctx;
  return run_steps(x, 0.01);
}

int main(void) {
  double x[N] = {0.3, -0.5, 0.8, 0.1};
  double g[N] = {0}, gc[N] = {0};
  // NOLTO: lto-multifile.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'model' has no body in this translation unit; only functions defined here can be differentiated; for a function defined in another file, compile every file with -flto and link with $(capsule-config --lto-ldflags)
  __capsule_autodiff((void *)model, x, g, N);
  check_grad_fd("gradient across files", g, model_fd, NULL, x, N);
  /* run_steps overwrites its state: it gets copies. */
  double state[N] = {0.3, -0.5, 0.8, 0.1};
  __capsule_autodiff_checkpointed((void *)run_steps, state, gc, 0.01);
  check_grad_fd("checkpointed across files", gc, run_steps_fd, NULL, x, N);
  for (int k = 0; k < N; ++k) {
    double v[N] = {0};
    v[k] = 1;
    double t = __capsule_fwddiff((void *)model, x, v, N);
    check_close("tangent across files", t, g[k], CHECK_CF_RTOL * 100,
                CHECK_CF_ATOL);
  }
  double s[N] = {0.3, -0.5, 0.8, 0.1};
  uint64_t steps = __capsule_primops((void *)model_step, s, N, 0.01);
  check_cf("an interruptible run across files counts steps", steps > 0, 1);
  return check_report();
}
