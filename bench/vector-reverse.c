/*===- vector-reverse.c - Benchmark: Jacobians by reverse vector mode ------===*
 *
 * The Jacobian of the state of a Lorenz-96 system after RK4 integration
 * (rk4_objective.inc, n = 32, 200 steps) with respect to its initial state,
 * row by row in reverse mode: n gradient calls of width 1, each seeded with
 * one row of the identity in the final state's shadow, against n/8 calls of
 * width 8 (enzyme_width, eight rows per call, one forward sweep each). The
 * two Jacobians are compared before timing (each row of width 1 is a
 * gradient the other benchmarks check against complex step); the program
 * exits non-zero if they differ. Both are timed against the primal too.
 *===----------------------------------------------------------------------===*/
#include "bench_util.h"
#include "rk4_bench.h"

#define LANES 8
extern int enzyme_const_return;

typedef struct jacobian_ctx {
  rk4_ctx c;
  double *rows1, *rows8; /* n x n each */
  double *d_x0, *d_F, *d_work; /* LANES shadows each, a stride apart */
} jacobian_ctx;

/* Rows first to first + lanes - 1 of the Jacobian into rows (n x n), by one
 * call of width `lanes` (1 or LANES). */
static void jacobian_rows(jacobian_ctx *j, long first, int lanes,
                          double *rows) {
  rk4_ctx *c = &j->c;
  long n = c->n;
  memset(j->d_x0, 0, sizeof(double) * (size_t)(LANES * n));
  memset(j->d_F, 0, sizeof(double) * LANES);
  memset(j->d_work, 0, sizeof(double) * (size_t)(LANES * 6 * n));
  for (int k = 0; k < lanes; k++)
    j->d_work[k * 6 * n + first + k] = 1; /* the final state is work[0, n) */
  if (lanes == 1)
    __capsule_autodiff_v((void *)rk4_objective, enzyme_const_return,
                         capsule_dup, c->x0, j->d_x0, capsule_dup, c->F,
                         j->d_F, capsule_dup, c->work, j->d_work,
                         capsule_const, c->n, capsule_const, c->steps,
                         capsule_const, c->dt);
  else
    __capsule_autodiff_v((void *)rk4_objective, enzyme_const_return,
                         capsule_width, LANES, capsule_dupv,
                         n * sizeof(double), c->x0, j->d_x0, capsule_dupv,
                         sizeof(double), c->F, j->d_F, capsule_dupv,
                         6 * n * sizeof(double), c->work, j->d_work,
                         capsule_const, c->n, capsule_const, c->steps,
                         capsule_const, c->dt);
  for (int k = 0; k < lanes; k++)
    memcpy(rows + (first + k) * n, j->d_x0 + k * n,
           sizeof(double) * (size_t)n);
}

static void jacobian_by_rows(void *p) {
  jacobian_ctx *j = p;
  for (long i = 0; i < j->c.n; i++)
    jacobian_rows(j, i, 1, j->rows1);
}

static void jacobian_by_lanes(void *p) {
  jacobian_ctx *j = p;
  for (long i = 0; i < j->c.n; i += LANES)
    jacobian_rows(j, i, LANES, j->rows8);
}

int main(void) {
  const long n = 32, steps = 200;
  jacobian_ctx j;
  char label[96];
  snprintf(label, sizeof label, "rk4 Lorenz-96 n=%ld steps=%ld Jacobian", n,
           steps);
  rk4_setup(&j.c, n, steps, 0.01, 0x2545F4914F6CDD1DULL);
  int fails = rk4_verify(&j.c, "rk4 Lorenz-96 gradient");
  j.rows1 = bench_alloc(n * n);
  j.rows8 = bench_alloc(n * n);
  j.d_x0 = bench_alloc(LANES * n);
  j.d_F = bench_alloc(LANES);
  j.d_work = bench_alloc(LANES * 6 * n);
  jacobian_by_rows(&j);
  jacobian_by_lanes(&j);
  double worst = bench_worst_rel_diff(j.rows8, j.rows1, n * n, 1.0);
  int bad = !(worst <= 1e-12);
  printf("verify %s: width %d against rows of width 1, largest difference "
         "%.1e: %s\n",
         label, LANES, worst, bad ? "FAILED" : "passed");
  fails += bad;
  if (!fails) {
    bench_result r = bench_measure(rk4_primal, jacobian_by_rows, &j);
    bench_print_as(label, "32 rows of width 1", &r);
    r = bench_measure(rk4_primal, jacobian_by_lanes, &j);
    bench_print_as(label, "4 calls of width 8", &r);
    r = bench_measure(jacobian_by_rows, jacobian_by_lanes, &j);
    bench_print_pair(label, "width 1", "width 8", &r);
  }
  free(j.rows1);
  free(j.rows8);
  free(j.d_x0);
  free(j.d_F);
  free(j.d_work);
  rk4_free(&j.c);
  return fails != 0;
}
