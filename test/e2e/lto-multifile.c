// Link-time differentiation: the marker calls here name model(), defined in
// another file, which calls helpers from a static library, one of which has
// a custom gradient registered in a third file. Compiled with -flto (full
// and thin) and linked with $(capsule-config --lto-ldflags): plain,
// checkpointed and forward-mode derivatives and an interruptible run, at -O0
// and -O2, against central differences, through memory and tables of
// functions of other files (ThinLTO's link at -O1 at least:
// its backends run no plugin at -O0). Linked without the plugin, the link
// fails naming what to add; without -flto, the compile names the function
// and says to use LTO; a weak function, which ThinLTO does not import, is
// refused at the link with what to do.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for L in full thin; do for O in 0 2; do \
// RUN:   %clang -O$O -g -flto=$L %capsule_cflags -c %s -o %t/main$L$O.o && \
// RUN:   %clang -O$O -g -flto=$L %capsule_cflags -c %S/Inputs/lto/model.c -o %t/model$L$O.o && \
// RUN:   %clang -O$O -g -flto=$L %capsule_cflags -c %S/Inputs/lto/util.c -o %t/util$L$O.o && \
// RUN:   %clang -O$O -g -flto=$L %capsule_cflags -c %S/Inputs/lto/rules.c -o %t/rules$L$O.o && \
// RUN:   rm -f %t/libutil$L$O.a && %llvm_ar rc %t/libutil$L$O.a %t/util$L$O.o && \
// RUN:   LINK=$O && if [ $L$O = thin0 ]; then LINK=1; fi && \
// RUN:   %clang -O$LINK -flto=$L %t/main$L$O.o %t/model$L$O.o %t/rules$L$O.o %t/libutil$L$O.a \
// RUN:     $(%capsule_config --lto-ldflags --ldflags) -o %t/prog$L$O && %t/prog$L$O || exit 1; \
// RUN: done; done
// RUN: not %clang -O2 -flto %t/mainfull2.o %t/modelfull2.o %t/rulesfull2.o %t/libutilfull2.a \
// RUN:   --ld-path=%llvm_bindir/ld.lld $(%capsule_config --ldflags) -o %t/noplugin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: undefined symbol: __capsule_link_with_the_plugin__see_capsule_config_lto_ldflags
// RUN: not %clang -O0 -flto=thin %t/mainthin0.o %t/modelthin0.o %t/rulesthin0.o %t/libutilthin0.a \
// RUN:   $(%capsule_config --lto-ldflags --ldflags) -o %t/thin-O0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THIN-O0
// THIN-O0: undefined symbol: __capsule_link_with_the_plugin_and_at_least_O1__see_capsule_config_lto_ldflags
// RUN: not %clang -O2 -g %capsule_cflags -c %s -o %t/nolto.o 2>&1 | FileCheck %s --check-prefix=NOLTO
// RUN: %clang -O2 -g -flto=thin %capsule_cflags -DWEAK_MODEL -c %s -o %t/weak-main.o
// RUN: %clang -O2 -g -flto=thin %capsule_cflags -DWEAK_MODEL -c %S/Inputs/lto/model.c -o %t/weak-model.o
// RUN: not %clang -O2 -flto=thin %t/weak-main.o %t/weak-model.o %t/rulesthin2.o %t/libutilthin2.a \
// RUN:   $(%capsule_config --lto-ldflags --ldflags) -o %t/weak 2>&1 | FileCheck %s --check-prefix=WEAK
// WEAK: error: {{.*}}'model_weak' has no body in this translation unit and no gradient rule; only functions defined here, libm's and those with rules can be differentiated; with ThinLTO, a function another file defines is differentiated where the link imports it, which it did not here: link with $(capsule-config --lto-ldflags), which lets it import what derivatives need, or with full LTO (-flto=full)
#include <capsule/capsule.h>
#include <math.h>
#include "check.h"
#include "Inputs/lto/model.h"

#define N 4

static double model_fd(double *x, void *ctx) {
  (void)ctx;
  return model(x, N);
}

static double history_fd(double *x, void *ctx) {
  (void)ctx;
  return model_history(x, N);
}

static double table_fd(double *x, void *ctx) {
  (void)ctx;
  return model_table(x, N);
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
  // NOLTO: lto-multifile.c:[[@LINE+1]]:{{[0-9]+}}: error: capsule: malformed call: 'model' has no body in this translation unit and no gradient rule; only functions defined here, libm's and those with rules can be differentiated; for a function defined in another file, compile every file with -flto and link with $(capsule-config --lto-ldflags)
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
  double gh[N] = {0}, gh_cp[N] = {0};
  __capsule_autodiff((void *)model_history, x, gh, N);
  check_grad_fd("gradient through another file's memory", gh, history_fd,
                NULL, x, N);
  __capsule_autodiff_checkpointed((void *)model_history, x, gh_cp, N);
  check_grad_fd("checkpointed through another file's memory", gh_cp,
                history_fd, NULL, x, N);
  double gt[N] = {0};
  __capsule_autodiff((void *)model_table, x, gt, N);
  check_grad_fd("gradient through tables of functions of two files", gt,
                table_fd, NULL, x, N);
#ifdef WEAK_MODEL
  double gw[N] = {0};
  __capsule_autodiff((void *)model_weak, x, gw, N);
#endif
  double s[N] = {0.3, -0.5, 0.8, 0.1};
  uint64_t steps = __capsule_primops((void *)model_step, s, N, 0.01);
  check_cf("an interruptible run across files counts steps", steps > 0, 1);
  return check_report();
}
