/*===- kernels_api.h - The C++ variants of the study's kernels, for C -----===*
 *
 * coro_kernels.cpp (C++20 coroutines) and plain_kernels.cpp (the same source
 * without coroutines, the control for C against C++ code generation) export
 * these. A coroutine entry runs the kernel to its end with k steps of budget
 * per resumption (k <= 0: never yields), and reports the yields and the
 * steps charged.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_CORO_STUDY_KERNELS_API_H
#define CAPSULE_CORO_STUDY_KERNELS_API_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct csx_run {
  long yields; /* suspensions before the end */
  long steps;  /* budget charged over the whole run */
} csx_run;

double csx_plain_rotation(const double *x0, double *work, long n, long l,
                          double phi);
double csx_plain_rk4(const double *x0, const double *F, double *work, long n,
                     long steps, double dt);
double csx_plain_rk4_calls(const double *x0, const double *F, double *work,
                           long n, long steps, double dt);
double csx_plain_tree(const double *x, long n);
double csx_plain_spin(double limit);
double csx_plain_gmm(int d, int k, int n, const double *alphas,
                     const double *means, const double *icf, const double *x,
                     double wishart_gamma, int wishart_m);

double csx_coro_rotation(long k, csx_run *r, const double *x0, double *work,
                         long n, long l, double phi);
double csx_coro_rk4(long k, csx_run *r, const double *x0, const double *F,
                    double *work, long n, long steps, double dt);
double csx_coro_rk4_calls(long k, csx_run *r, const double *x0, const double *F,
                          double *work, long n, long steps, double dt);
double csx_coro_tree(long k, csx_run *r, const double *x, long n);
double csx_coro_spin(long k, csx_run *r, double limit);
double csx_coro_gmm(long k, csx_run *r, int d, int kk, int n,
                    const double *alphas, const double *means,
                    const double *icf, const double *x, double wishart_gamma,
                    int wishart_m);

#ifdef __cplusplus
}
#endif

#endif /* CAPSULE_CORO_STUDY_KERNELS_API_H */
