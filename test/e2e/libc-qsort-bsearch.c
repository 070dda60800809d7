// The C library's qsort and bsearch with the program's comparators, on
// active data: qsort moves the elements' shadows as it moves the elements
// (built-in rules, runtime/libc/Sort.c), so tangents and adjoints follow
// their values; bsearch's result is an address inside the array, whose
// shadow is the same element of the shadow array. Doubles in either order,
// structs of an integer key and doubles with ties (the gradient's sort must
// order equal keys as the primal's qsort does), pointers kept in the sorted
// structs (their shadows move with them), an index array sorted by the
// active values it indexes, sorts in a loop and in a callee, empty and
// one-element arrays, keys found and not found. Gradient and a tangent per
// input against central differences at -O0 to -O3. An array of doubles
// sorted in place with the adjoints of its sorted contents handed in its
// shadow (a vector-Jacobian product through memory: the forward sweep must
// leave them where they are), and so an array of structs with a pointer
// field (whose shadow pointer must move). Checkpointed gradients of sorts of
// numbers and of structs of numbers, and of bsearch (qsort of elements that
// hold pointers or whose layout is unknown is refused there:
// errors/libc-qsort-unsupported.c).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clang -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clang -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags && %t3
#include <capsule/capsule.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define N 8

static int ascending(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int descending(const void *a, const void *b) {
  return ascending(b, a);
}

/* Sorted values weighted by rank: the derivative of each input is its
 * weight at the rank it sorts to. */
static double sorted_doubles(double *x) {
  double v[N], w[N];
  for (int i = 0; i < N; ++i) {
    v[i] = sin(2 * x[i]) + x[i];
    w[i] = x[i] * x[i];
  }
  qsort(v, N, sizeof v[0], ascending);
  qsort(w, N, sizeof w[0], descending);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += v[i] * v[i] * (i + 1) + w[i] * (N - i) * v[i];
  return s;
}

typedef struct {
  int key;
  double weight;
  double *source; /* an input the weight multiplies, moved with it */
  double scale;
} item;

static int by_key(const void *a, const void *b) {
  return ((const item *)a)->key - ((const item *)b)->key;
}

/* Keys with ties: equal keys keep the order the C library's sort gives
 * them, which the positions' weights make visible. */
static double sorted_structs(double *x) {
  item it[N];
  for (int i = 0; i < N; ++i) {
    it[i].key = (i * 3) % 4;
    it[i].weight = exp(0.3 * x[i]);
    it[i].source = &x[(i + 2) % N];
    it[i].scale = x[i] - 0.5;
  }
  qsort(it, N, sizeof it[0], by_key);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += it[i].weight * *it[i].source * (i + 1) + it[i].scale * it[i].scale * i;
  return s;
}

typedef struct {
  double weight;
  int key;
  double scale;
} keyed;

static int by_keyed(const void *a, const void *b) {
  return ((const keyed *)a)->key - ((const keyed *)b)->key;
}

/* Structs of numbers with ties, for the checkpointed gradient. */
static double sorted_keyed(double *x) {
  keyed k[N];
  for (int i = 0; i < N; ++i) {
    k[i].key = (i * 5) % 3;
    k[i].weight = x[i] * x[(i + 1) % N];
    k[i].scale = sin(x[i]);
  }
  qsort(k, N, sizeof k[0], by_keyed);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += k[i].weight * (i + 1) + k[i].scale * k[i].scale * (N - i);
  return s;
}

static const double *ranked; /* what the index comparator reads */

static int by_ranked_value(const void *a, const void *b) {
  return ascending(&ranked[*(const int *)a], &ranked[*(const int *)b]);
}

/* A permutation found by sorting indices: integers only, so the derivative
 * is of the gathered values. */
static double sorted_indices(double *x) {
  int order[N];
  double v[N];
  for (int i = 0; i < N; ++i) {
    order[i] = i;
    v[i] = cos(x[i]) * x[(i + 1) % N];
  }
  ranked = v;
  qsort(order, N, sizeof order[0], by_ranked_value);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += v[order[i]] * (i + 1);
  return s;
}

__attribute__((noinline)) static void sort_in_callee(double *v, size_t n) {
  qsort(v, n, sizeof *v, descending);
}

/* Sorts of a changing array in a loop, through a callee, and of zero and
 * one elements. */
static double sorts_in_loop(double *x) {
  double v[N];
  for (int i = 0; i < N; ++i)
    v[i] = x[i];
  double s = 0;
  for (int round = 0; round < 3; ++round) {
    sort_in_callee(v, N);
    for (int i = 0; i < N; ++i)
      v[i] = v[i] * (1 + 0.1 * i) + 0.2 * v[(i + round) % N];
    s += v[0] - v[N - 1];
  }
  qsort(v + 2, 1, sizeof *v, ascending);
  qsort(v, 0, sizeof *v, ascending);
  return s + v[2] * v[3];
}

/* Sorts x in place, then scales: out = 2 sort(x) + sort(x)[0]. */
static void sort_in_place(double *x) {
  qsort(x, N, sizeof *x, ascending);
  for (int i = N - 1; i >= 0; --i)
    x[i] = 2 * x[i] + x[0];
}

/* The adjoints of sort_in_place's output, handed in its shadow. */
static double seed(int i) { return 1.0 + 0.5 * i; }

/* sum_i seed(i) out_i(x): its gradient is what sort_in_place's gradient
 * leaves in the shadow. */
static double seeded_sum(double *x, void *ctx) {
  (void)ctx;
  double y[N], s = 0;
  memcpy(y, x, sizeof y);
  sort_in_place(y);
  for (int i = 0; i < N; ++i)
    s += seed(i) * y[i];
  return s;
}

static void check_seeded_sort(const double *x0) {
  double x[N], dx[N];
  memcpy(x, x0, sizeof x);
  for (int i = 0; i < N; ++i)
    dx[i] = seed(i);
  __capsule_autodiff((void *)sort_in_place, x, dx);
  check_grad_fd("qsort in place, seeded", dx, seeded_sum, 0, x0, N);
}

/* Structs with a pointer field sorted in place (the layout is known: the
 * pointer's shadow moves with the element, the weights' adjoints stay):
 * each weight becomes weight * (i + 1) * *source after the sort. */
static void sort_items_in_place(item *it) {
  qsort(it, N, sizeof *it, by_key);
  for (int i = 0; i < N; ++i)
    it[i].weight *= (i + 1) * *it[i].source;
}

/* The items over p: weights p[0..N), sources into p[N..2N). */
static void make_items(item *it, double *p) {
  for (int i = 0; i < N; ++i) {
    it[i].key = (i * 5) % 3;
    it[i].weight = p[i];
    it[i].source = &p[N + (i * 3) % N];
    it[i].scale = 1;
  }
}

static double seeded_items_sum(double *p, void *ctx) {
  (void)ctx;
  item it[N];
  double s = 0;
  make_items(it, p);
  sort_items_in_place(it);
  for (int i = 0; i < N; ++i)
    s += seed(i) * it[i].weight;
  return s;
}

static void check_seeded_item_sort(const double *x0) {
  double p[2 * N], dp[2 * N] = {0}, p0[2 * N];
  item it[N], dit[N];
  for (int i = 0; i < 2 * N; ++i)
    p0[i] = p[i] = x0[i % N] + 0.1 * i;
  make_items(it, p);
  make_items(dit, dp);
  for (int i = 0; i < N; ++i)
    dit[i].weight = seed(i);
  __capsule_autodiff((void *)sort_items_in_place, it, dit);
  for (int i = 0; i < N; ++i)
    dp[i] = dit[i].weight;
  check_grad_fd("qsort of structs in place, seeded", dp, seeded_items_sum, 0,
                p0, 2 * N);
}

/* bsearch of sorted structs, keys found and not: the element found is read
 * through bsearch's result. */
static double searched(double *x) {
  item it[N];
  for (int i = 0; i < N; ++i) {
    it[i].key = 2 * ((i * 5) % N);
    it[i].weight = x[i] * x[(i + 3) % N];
    it[i].source = &x[N - 1 - i];
    it[i].scale = 1;
  }
  qsort(it, N, sizeof it[0], by_key);
  double s = 0;
  for (int k = 0; k < 2 * N; k += 3) {
    item want = {k, 0, 0, 0};
    item *hit = bsearch(&want, it, N, sizeof it[0], by_key);
    s += hit ? hit->weight * (k + 1) + *hit->source : 0.25;
  }
  return s;
}

/* bsearch of doubles for a key computed from the input. */
static double searched_doubles(double *x) {
  static const double table[5] = {-1, 0, 0.5, 1, 2};
  double s = 0;
  for (int i = 0; i < N; ++i) {
    double key = (double)(i % 5) * 0.5 - 0.5;
    const double *hit = bsearch(&key, table, 5, sizeof table[0], ascending);
    s += hit ? x[i] * (1 + (hit - table)) : x[i] * x[i];
  }
  return s;
}

/* The same search in code without qsort, for the checkpointed gradient. */
static double searched_checkpointed(double *x) {
  item it[N];
  for (int i = 0; i < N; ++i) {
    it[i].key = 3 * i;
    it[i].weight = sin(x[i]);
    it[i].source = &x[(i + 1) % N];
    it[i].scale = 1;
  }
  double s = 0;
  for (int k = 0; k < 3 * N; k += 2) {
    item want = {k, 0, 0, 0};
    item *hit = bsearch(&want, it, N, sizeof it[0], by_key);
    if (hit)
      s += hit->weight * *hit->source * (k + 1);
  }
  return s;
}

#define WRAP(F)                                                                \
  static double F##_fd(double *x, void *ctx) { return F(x); }
WRAP(sorted_doubles)
WRAP(sorted_structs)
WRAP(sorted_keyed)
WRAP(sorted_indices)
WRAP(sorts_in_loop)
WRAP(searched)
WRAP(searched_doubles)
WRAP(searched_checkpointed)

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.4 * sin(1.3 * i + 0.2) + 0.05 * i;
  CHECK_GRADIENT_AND_TANGENTS(sorted_doubles, x, N);
  CHECK_GRADIENT_AND_TANGENTS(sorted_structs, x, N);
  CHECK_GRADIENT_AND_TANGENTS(sorted_indices, x, N);
  CHECK_GRADIENT_AND_TANGENTS(sorts_in_loop, x, N);
  CHECK_GRADIENT_AND_TANGENTS(searched, x, N);
  CHECK_GRADIENT_AND_TANGENTS(searched_doubles, x, N);
  check_seeded_sort(x);
  check_seeded_item_sort(x);
  double g[N] = {0};
  __capsule_autodiff_checkpointed((void *)searched_checkpointed, x, g);
  check_grad_fd("bsearch, checkpointed", g, searched_checkpointed_fd, 0, x, N);
  double gd[N] = {0}, gl[N] = {0};
  __capsule_autodiff_checkpointed((void *)sorted_doubles, x, gd);
  check_grad_fd("qsort, checkpointed", gd, sorted_doubles_fd, 0, x, N);
  __capsule_autodiff_checkpointed((void *)sorts_in_loop, x, gl);
  check_grad_fd("qsort in a loop, checkpointed", gl, sorts_in_loop_fd, 0, x, N);
  double gk[N] = {0};
  __capsule_autodiff_checkpointed((void *)sorted_keyed, x, gk);
  check_grad_fd("qsort of structs, checkpointed", gk, sorted_keyed_fd, 0, x, N);
  return check_report();
}
