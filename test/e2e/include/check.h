/*===- check.h - Self-checking helpers for the Capsule end-to-end tests ---===*
 *
 * Header-only, C and C++. Every end-to-end test compares each gradient
 * component that Capsule computes with an independent reference computed in
 * the same program by calling the primal normally:
 *
 *   - central finite differences (check_fd_*, check_grad_fd), step
 *     h = CHECK_FD_STEP * max(1, |x_i|) with CHECK_FD_STEP = 1e-6, in double;
 *     the function gets a fresh copy of the input vector for every
 *     evaluation, so it may overwrite it;
 *   - closed forms (check_cf).
 *
 * Tolerance policy (|got - want| <= atol + rtol * |want|):
 *   - against central FD:   rtol 1e-6,  atol 1e-8  (CHECK_FD_RTOL/ATOL);
 *   - against closed forms: rtol 1e-12, atol 1e-15 (CHECK_CF_RTOL/ATOL).
 *   Tests may loosen these only with a stated reason (e.g. float arithmetic,
 *   where the tests use rtol 1e-4 against a double-precision reference).
 *
 * check_ref() compares two references with each other (a closed form with
 * FD); it checks the test itself, not Capsule, and its failures are reported
 * as such.
 *
 * main() ends with `return check_report();`: it prints PASS and returns 0, or
 * prints the number of failed checks and returns 1. A program that ran no
 * check fails too.
 *
 * CHECK_FD_STEP may be overridden with -D to validate the corpus itself
 * (the FD references must not move when the step changes); -DCHECK_VERBOSE
 * also prints the checks that pass. See tools/stubcheck.py.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_E2E_CHECK_H
#define CAPSULE_E2E_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CHECK_FD_STEP
#define CHECK_FD_STEP 1e-6
#endif
#define CHECK_FD_RTOL 1e-6
#define CHECK_FD_ATOL 1e-8
#define CHECK_CF_RTOL 1e-12
#define CHECK_CF_ATOL 1e-15
/* Float tests: float rounding (~6e-8 per operation) against a reference
 * computed in double. */
#define CHECK_FLOAT_RTOL 1e-4
#define CHECK_FLOAT_ATOL 1e-5

#ifdef __cplusplus
#define CHECK_UNUSED_ [[maybe_unused]]
#else
#define CHECK_UNUSED_ __attribute__((unused))
#endif

/* A scalar function of a double vector. x is a private copy: it may be
 * overwritten. ctx passes anything else the function needs. */
typedef double (*check_fn)(double *x, void *ctx);

CHECK_UNUSED_ static int check_failures_ = 0;
CHECK_UNUSED_ static int check_count_ = 0;
CHECK_UNUSED_ static int check_ref_failures_ = 0;

CHECK_UNUSED_ static int check_within_(double got, double want, double rtol,
                                       double atol) {
  double err = fabs(got - want);
  /* Written so that a NaN in got or want fails. */
  return err <= atol + rtol * fabs(want);
}

CHECK_UNUSED_ static int check_close(const char *what, double got,
                                     double want, double rtol, double atol) {
  check_count_++;
  if (check_within_(got, want, rtol, atol)) {
#ifdef CHECK_VERBOSE
    printf("ok %s: got %.17g want %.17g\n", what, got, want);
#endif
    return 1;
  }
  check_failures_++;
  printf("FAIL %s: got %.17g want %.17g (err %.3g, tol %.3g)\n", what, got,
         want, fabs(got - want), atol + rtol * fabs(want));
  fflush(stdout);
  return 0;
}

/* Against a closed form. */
CHECK_UNUSED_ static int check_cf(const char *what, double got, double want) {
  return check_close(what, got, want, CHECK_CF_RTOL, CHECK_CF_ATOL);
}

/* A check of the test's own references (closed form against FD). */
CHECK_UNUSED_ static int check_ref(const char *what, double closed_form,
                                   double fd) {
  if (check_within_(fd, closed_form, CHECK_FD_RTOL, CHECK_FD_ATOL))
    return 1;
  check_ref_failures_++;
  printf("FAIL reference %s: closed form %.17g but FD %.17g (the test itself "
         "is wrong)\n",
         what, closed_form, fd);
  fflush(stdout);
  return 0;
}

/* Central difference of f with respect to x[i]. */
CHECK_UNUSED_ static double check_fd_partial(check_fn f, void *ctx,
                                             const double *x, int n, int i) {
  double *tmp = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  double ax = fabs(x[i]);
  double h = CHECK_FD_STEP * (ax > 1.0 ? ax : 1.0);
  double fp, fm;
  memcpy(tmp, x, sizeof(double) * (size_t)n);
  tmp[i] = x[i] + h;
  fp = f(tmp, ctx);
  memcpy(tmp, x, sizeof(double) * (size_t)n);
  tmp[i] = x[i] - h;
  fm = f(tmp, ctx);
  free(tmp);
  return (fp - fm) / (2.0 * h);
}

/* The central difference of f at x[0..n) along the direction v: what a
 * forward-mode tangent with input tangents v computes. */
CHECK_UNUSED_ static double check_fd_along(check_fn f, void *ctx,
                                           const double *x, const double *v,
                                           int n) {
  double *tmp = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  double h = CHECK_FD_STEP, fp, fm;
  int i;
  for (i = 0; i < n; i++)
    tmp[i] = x[i] + h * v[i];
  fp = f(tmp, ctx);
  for (i = 0; i < n; i++)
    tmp[i] = x[i] - h * v[i];
  fm = f(tmp, ctx);
  free(tmp);
  return (fp - fm) / (2.0 * h);
}

CHECK_UNUSED_ static void check_fd_grad(check_fn f, void *ctx,
                                        const double *x, int n, double *g) {
  int i;
  for (i = 0; i < n; i++)
    g[i] = check_fd_partial(f, ctx, x, n, i);
}

/* Compares every component got[0..n) with the FD gradient of f at x. */
CHECK_UNUSED_ static int check_grad_fd_tol(const char *what,
                                           const double *got, check_fn f,
                                           void *ctx, const double *x, int n,
                                           double rtol, double atol) {
  int i, ok = 1;
  char name[256];
  for (i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s[%d]", what, i);
    ok &= check_close(name, got[i], check_fd_partial(f, ctx, x, n, i), rtol,
                      atol);
  }
  return ok;
}

CHECK_UNUSED_ static int check_grad_fd(const char *what, const double *got,
                                       check_fn f, void *ctx, const double *x,
                                       int n) {
  return check_grad_fd_tol(what, got, f, ctx, x, n, CHECK_FD_RTOL,
                           CHECK_FD_ATOL);
}

/* Compares every component got[0..n) with want[0..n) (closed form). */
CHECK_UNUSED_ static int check_vec_cf(const char *what, const double *got,
                                      const double *want, int n) {
  int i, ok = 1;
  char name[256];
  for (i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s[%d]", what, i);
    ok &= check_cf(name, got[i], want[i]);
  }
  return ok;
}

/* Scalar functions of one and two doubles. */
typedef double (*check_fn1)(double);
typedef double (*check_fn2)(double, double);

CHECK_UNUSED_ static double check_fd1(check_fn1 f, double x) {
  double ax = fabs(x);
  double h = CHECK_FD_STEP * (ax > 1.0 ? ax : 1.0);
  return (f(x + h) - f(x - h)) / (2.0 * h);
}

/* Partial of f(x, y) with respect to x (which == 0) or y (which == 1). */
CHECK_UNUSED_ static double check_fd2(check_fn2 f, double x, double y,
                                      int which) {
  double v = which ? y : x;
  double av = fabs(v);
  double h = CHECK_FD_STEP * (av > 1.0 ? av : 1.0);
  if (which)
    return (f(x, y + h) - f(x, y - h)) / (2.0 * h);
  return (f(x + h, y) - f(x - h, y)) / (2.0 * h);
}

/* got = d f / d x at x, against the closed form cf and against FD; also
 * checks that cf and FD agree. */
CHECK_UNUSED_ static int check_scalar(const char *what, double got,
                                      check_fn1 f, double x, double cf) {
  char name[256];
  double fd = check_fd1(f, x);
  int ok = check_ref(what, cf, fd);
  ok &= check_cf(what, got, cf);
  snprintf(name, sizeof name, "%s (fd)", what);
  ok &= check_close(name, got, fd, CHECK_FD_RTOL, CHECK_FD_ATOL);
  return ok;
}

/* Both partials of f(x, y): got_x, got_y against closed forms and FD. */
CHECK_UNUSED_ static int check_scalar2(const char *what, double got_x,
                                       double got_y, check_fn2 f, double x,
                                       double y, double cf_x, double cf_y) {
  char name[256];
  int ok = 1, k;
  for (k = 0; k < 2; k++) {
    double got = k ? got_y : got_x, cf = k ? cf_y : cf_x;
    double fd = check_fd2(f, x, y, k);
    snprintf(name, sizeof name, "%s d/d%s", what, k ? "y" : "x");
    ok &= check_ref(name, cf, fd);
    ok &= check_cf(name, got, cf);
    snprintf(name, sizeof name, "%s d/d%s (fd)", what, k ? "y" : "x");
    ok &= check_close(name, got, fd, CHECK_FD_RTOL, CHECK_FD_ATOL);
  }
  return ok;
}

/* Against FD and a closed form for a vector gradient: got[i] against cf[i]
 * and against FD of f at x; cf against FD. */
CHECK_UNUSED_ static int check_grad_cf_fd(const char *what, const double *got,
                                          const double *cf, check_fn f,
                                          void *ctx, const double *x, int n) {
  int i, ok = 1;
  char name[256];
  for (i = 0; i < n; i++) {
    double fd = check_fd_partial(f, ctx, x, n, i);
    snprintf(name, sizeof name, "%s[%d]", what, i);
    ok &= check_ref(name, cf[i], fd);
    ok &= check_cf(name, got[i], cf[i]);
    snprintf(name, sizeof name, "%s[%d] (fd)", what, i);
    ok &= check_close(name, got[i], fd, CHECK_FD_RTOL, CHECK_FD_ATOL);
  }
  return ok;
}

/* Forward mode. A vector function of a double vector: writes its m outputs
 * to out. x is a private copy: it may be overwritten. */
typedef void (*check_vfn)(double *x, double *out, void *ctx);
/* Central difference of the m outputs of f along direction v at x, with
 * step h = CHECK_FD_STEP * max(1, max_i |x_i|) (v of order 1). */
CHECK_UNUSED_ static void check_fd_jvp(check_vfn f, void *ctx, const double *x,
                                       const double *v, int n, int m,
                                       double *jv) {
  double *tmp = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  double *fp = (double *)malloc(sizeof(double) * (size_t)(m > 0 ? m : 1));
  double *fm = (double *)malloc(sizeof(double) * (size_t)(m > 0 ? m : 1));
  double scale = 1.0, h;
  int i;
  for (i = 0; i < n; i++)
    scale = fabs(x[i]) > scale ? fabs(x[i]) : scale;
  h = CHECK_FD_STEP * scale;
  for (i = 0; i < n; i++)
    tmp[i] = x[i] + h * v[i];
  f(tmp, fp, ctx);
  for (i = 0; i < n; i++)
    tmp[i] = x[i] - h * v[i];
  f(tmp, fm, ctx);
  for (i = 0; i < m; i++)
    jv[i] = (fp[i] - fm[i]) / (2.0 * h);
  free(tmp);
  free(fp);
  free(fm);
}
/* Compares got[0..m), a Jacobian-vector product J(x) v, with FD. */
CHECK_UNUSED_ static int check_jvp_fd(const char *what, const double *got,
                                      check_vfn f, void *ctx, const double *x,
                                      const double *v, int n, int m) {
  double *jv = (double *)malloc(sizeof(double) * (size_t)(m > 0 ? m : 1));
  int i, ok = 1;
  char name[256];
  check_fd_jvp(f, ctx, x, v, n, m, jv);
  for (i = 0; i < m; i++) {
    snprintf(name, sizeof name, "%s[%d]", what, i);
    ok &= check_close(name, got[i], jv[i], CHECK_FD_RTOL, CHECK_FD_ATOL);
  }
  free(jv);
  return ok;
}
/* Gradient (reverse mode) and tangents (forward mode, one call per input)
 * of F(const double *x) at x[0..n), n <= 64, against central differences of
 * F##_fd, a check_fn computing the same. A macro, since a marker call names
 * the function it differentiates; the file includes capsule/capsule.h. */
#define CHECK_GRADIENT_AND_TANGENTS(F, x, n)                                   \
  do {                                                                         \
    double check_dx_[64] = {0};                                                \
    int check_i_;                                                              \
    __capsule_autodiff((void *)F, capsule_dup, x, check_dx_);                  \
    check_grad_fd(#F, check_dx_, F##_fd, 0, x, n);                             \
    for (check_i_ = 0; check_i_ < (n); check_i_++) {                           \
      double check_t_[64] = {0};                                               \
      check_t_[check_i_] = 1;                                                  \
      check_close(#F " tangent",                                               \
                  __capsule_fwddiff((void *)F, capsule_dup, x, check_t_),      \
                  check_fd_partial(F##_fd, 0, x, n, check_i_), CHECK_FD_RTOL,  \
                  CHECK_FD_ATOL);                                              \
    }                                                                          \
  } while (0)

/* The same against a closed form: ref(x, i) is the partial derivative of F
 * in x[i]; the tolerances rtol and atol (CHECK_FLOAT_RTOL and
 * CHECK_FLOAT_ATOL for float code against a double-precision form). */
#define CHECK_GRADIENT_AND_TANGENTS_CF(F, x, n, ref, rtol, atol)               \
  do {                                                                         \
    double check_dx_[64] = {0};                                                \
    int check_i_;                                                              \
    __capsule_autodiff((void *)F, capsule_dup, x, check_dx_);                  \
    for (check_i_ = 0; check_i_ < (n); check_i_++) {                           \
      double check_t_[64] = {0};                                               \
      check_t_[check_i_] = 1;                                                  \
      check_close(#F " gradient", check_dx_[check_i_], ref(x, check_i_), rtol, \
                  atol);                                                       \
      check_close(#F " tangent",                                               \
                  __capsule_fwddiff((void *)F, capsule_dup, x, check_t_),      \
                  ref(x, check_i_), rtol, atol);                               \
    }                                                                          \
  } while (0)

/* F##_fd, the check_fn evaluating F(double *x) that the macros below
 * compare F's derivatives with. */
#define CHECK_FD_OF(F)                                                         \
  static double F##_fd(double *x, void *ctx) {                                 \
    (void)ctx;                                                                 \
    return F(x);                                                               \
  }

/* Gradient (reverse mode) of F(double *x) at x[0..n), n <= 64, against
 * central differences of F##_fd, and its tangent along one fixed direction
 * (forward mode) against the differences' sum along it; what is a string
 * literal. A macro, as above. */
#define CHECK_GRADIENT_AND_DIRECTION(what, F, x, n)                            \
  do {                                                                         \
    double check_x_[64], check_g_[64] = {0}, check_v_[64], check_dv_ = 0;      \
    int check_i_;                                                              \
    for (check_i_ = 0; check_i_ < (n); check_i_++) {                           \
      check_x_[check_i_] = (x)[check_i_];                                      \
      check_v_[check_i_] = 0.1 * ((check_i_ * 7) % 11) - 0.5;                  \
      check_dv_ += check_v_[check_i_] *                                        \
                   check_fd_partial(F##_fd, 0, x, n, check_i_);                \
    }                                                                          \
    __capsule_autodiff((void *)F, check_x_, check_g_);                         \
    check_grad_fd(what, check_g_, F##_fd, 0, x, n);                            \
    check_close(what " (tangent)",                                             \
                __capsule_fwddiff((void *)F, check_x_, check_v_), check_dv_,   \
                CHECK_FD_RTOL, CHECK_FD_ATOL);                                 \
  } while (0)

/* Runs F(args) interrupted at about COUNT points spread over its TOTAL
 * steps, each capsule resumed twice to the end; both runs must return
 * PLAIN bit for bit, and at least MIN_TAKEN capsules must have been taken
 * inside the run. A macro, since the marker names its function; the file
 * includes capsule/capsule.h. */
#define CHECK_RESUMED_RUNS(F, plain, total, count, min_taken, ...)             \
  do {                                                                         \
    int check_taken_ = 0;                                                      \
    uint64_t check_l_;                                                         \
    for (check_l_ = 1; check_l_ < (total);                                     \
         check_l_ += (total) / (count) + 1) {                                  \
      capsule_t *check_cap_ =                                                  \
          __capsule_interrupt((void *)F, check_l_, __VA_ARGS__);               \
      double check_r1_ = 0, check_r2_ = 0;                                     \
      if (!check_cap_)                                                         \
        continue;                                                              \
      ++check_taken_;                                                          \
      capsule_resume(check_cap_, &check_r1_);                                  \
      capsule_resume(check_cap_, &check_r2_);                                  \
      capsule_release(check_cap_);                                             \
      check_cf("a resumed run of " #F " equals the plain one bit for bit",     \
               check_r1_ == (plain) && check_r2_ == (plain), 1);               \
    }                                                                          \
    check_cf("capsules taken inside the run of " #F,                           \
             check_taken_ >= (min_taken), 1);                                  \
  } while (0)

/* The gradient of F(p, ...) with respect to the N doubles at P:
 * checkpointed against plain (relative 1e-10), and plain against central
 * differences of F at the K entries the array SAMPLED lists (P is
 * restored). A macro, since the markers name their function; the file
 * includes capsule/capsule.h. */
#define CHECK_CHECKPOINTED_GRADIENT(F, p, n, sampled, k, ...)                  \
  do {                                                                         \
    double *check_g_ = (double *)calloc((n), sizeof(double));                  \
    double *check_gc_ = (double *)calloc((n), sizeof(double));                 \
    int check_i_;                                                              \
    __capsule_autodiff((void *)F, (p), check_g_, __VA_ARGS__);                 \
    __capsule_autodiff_checkpointed((void *)F, (p), check_gc_, __VA_ARGS__);   \
    for (check_i_ = 0; check_i_ < (n); check_i_++)                             \
      check_close("checkpointed against plain", check_gc_[check_i_],           \
                  check_g_[check_i_], 1e-10, 1e-12);                           \
    for (check_i_ = 0; check_i_ < (k); check_i_++) {                           \
      int check_j_ = (sampled)[check_i_];                                      \
      double check_e_ = 1e-6, check_saved_ = (p)[check_j_], check_up_;         \
      (p)[check_j_] = check_saved_ + check_e_;                                 \
      check_up_ = F((p), __VA_ARGS__);                                         \
      (p)[check_j_] = check_saved_ - check_e_;                                 \
      check_close("plain against central differences", check_g_[check_j_],     \
                  (check_up_ - F((p), __VA_ARGS__)) / (2 * check_e_), 1e-6,    \
                  1e-8);                                                       \
      (p)[check_j_] = check_saved_;                                            \
    }                                                                          \
    free(check_g_);                                                            \
    free(check_gc_);                                                           \
  } while (0)

CHECK_UNUSED_ static int check_report(void) {
  if (check_failures_ == 0 && check_ref_failures_ == 0 && check_count_ > 0) {
    printf("PASS (%d checks)\n", check_count_);
    return 0;
  }
  if (check_count_ == 0)
    printf("FAIL: no check ran\n");
  else
    printf("%d of %d checks FAILED\n", check_failures_, check_count_);
  if (check_ref_failures_)
    printf("%d reference checks FAILED (the test itself is wrong)\n",
           check_ref_failures_);
  return 1;
}

#endif /* CAPSULE_E2E_CHECK_H */
