// _Thread_local state in differentiated code: a scratch array and a
// pointer into it, written and read inside the function; a thread-local
// pointer the program set to thread-local memory before the call (a
// function's static, and another thread's); the thread-local array passed
// as the dup argument while the function also names it; a checkpointed
// gradient; gradients computed in two threads at once, each with its own
// thread-local memory and adjoints; an OpenMP region whose threads each
// use their thread-local scratch; and reverse over reverse through
// thread-local memory. Thread-local adjoints are thread-local too (the
// shadow globals are), zeroed at every gradient call. Against central
// differences and closed forms, at -O0 to -O3.
// RUN: %clang -O0 -g -fopenmp -pthread %capsule_cflags %s -o %t0 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t0
// RUN: %clang -O1 -g -fopenmp -pthread %capsule_cflags %s -o %t1 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t1
// RUN: %clang -O2 -g -fopenmp -pthread %capsule_cflags %s -o %t2 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t2
// RUN: %clang -O3 -g -fopenmp -pthread %capsule_cflags %s -o %t3 %capsule_ldflags && env OMP_WAIT_POLICY=passive %t3
#include <capsule/capsule.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include "check.h"

#define N 6

static _Thread_local double scratch[N];
static _Thread_local double *cursor;
/* Set by the program, in each thread, to that thread's weights. */
static _Thread_local double *weights;
static _Thread_local double thread_weights[N];

static double through_scratch(double *x) {
  cursor = scratch;
  for (int i = 0; i < N; ++i)
    cursor[i] = sin(x[i]) * x[(i + 1) % N];
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += scratch[i] * scratch[(i + 2) % N] + weights[i] * x[i];
  return s;
}

CHECK_FD_OF(through_scratch)

/* Names the thread-local array and gets it as its argument too. */
static double aliased(double *b) {
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += scratch[i] * b[i] + b[i];
  return s;
}

static _Thread_local double partial[N];

/* Each thread of the team keeps its partial products in its own
 * thread-local array between two steps of its iteration. */
static double team_scratch(double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; ++i) {
    partial[i] = x[i] * x[(i + 1) % N];
    s += partial[i] * cos(partial[i]);
  }
  return s;
}

CHECK_FD_OF(team_scratch)

/* Second derivatives through thread-local memory (without pointers):
 * reverse over reverse of a weighted sum of the gradient. */
static _Thread_local double sines[N];

static double sine_products(double *x) {
  for (int i = 0; i < N; ++i)
    sines[i] = sin(x[i]);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += sines[i] * sines[(i + 1) % N];
  return s;
}

static double gradient_sum(double *x) {
  double dx[N] = {0}, s = 0;
  __capsule_autodiff((void *)sine_products, x, dx);
  for (int i = 0; i < N; ++i)
    s += (i + 1) * dx[i];
  return s;
}

CHECK_FD_OF(gradient_sum)

typedef struct {
  double x[N], dx[N], weights[N];
} thread_work;

static void *gradient_in_thread(void *p) {
  thread_work *w = p;
  for (int i = 0; i < N; ++i)
    thread_weights[i] = w->weights[i]; /* the same values in every thread */
  weights = thread_weights;
  __capsule_autodiff((void *)through_scratch, w->x, w->dx);
  return NULL;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.1 * i;

  double own[N] = {0};
  for (int i = 0; i < N; ++i)
    own[i] = 0.5 * i;
  static _Thread_local double main_weights[N];
  for (int i = 0; i < N; ++i)
    main_weights[i] = own[i];
  weights = main_weights;
  CHECK_GRADIENT_AND_DIRECTION("through_scratch", through_scratch, x, N);

  double dc[N] = {0}, dx[N] = {0};
  __capsule_autodiff((void *)through_scratch, x, dx);
  __capsule_autodiff_checkpointed((void *)through_scratch, x, dc);
  for (int i = 0; i < N; ++i)
    check_close("checkpointed through_scratch", dc[i], dx[i], CHECK_CF_RTOL,
                CHECK_CF_ATOL);

  for (int i = 0; i < N; ++i)
    scratch[i] = 1.5 - 0.25 * i;
  double db[N] = {0};
  __capsule_autodiff((void *)aliased, scratch, db);
  for (int i = 0; i < N; ++i)
    check_close("aliased (closed form)", db[i], 2 * scratch[i] + 1,
                CHECK_CF_RTOL, CHECK_CF_ATOL);

  thread_work work[2];
  pthread_t threads[2];
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < N; ++i) {
      work[k].x[i] = x[i];
      work[k].dx[i] = 0;
      work[k].weights[i] = own[i];
    }
    pthread_create(&threads[k], NULL, gradient_in_thread, &work[k]);
  }
  for (int k = 0; k < 2; ++k)
    pthread_join(threads[k], NULL);
  for (int k = 0; k < 2; ++k)
    check_grad_fd("through_scratch in a thread", work[k].dx,
                  through_scratch_fd, 0, x, N);

  double second[N] = {0};
  __capsule_autodiff((void *)gradient_sum, x, second);
  check_grad_fd("gradient_sum (reverse over reverse)", second, gradient_sum_fd,
                0, x, N);

  for (int t = 1; t <= 3; t += 2) {
    omp_set_num_threads(t);
    CHECK_GRADIENT_AND_DIRECTION("team_scratch", team_scratch, x, N);
  }
  return check_report();
}
