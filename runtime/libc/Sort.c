/*===- Sort.c - Rules of qsort, and bsearch as an index -------------------===*
 *
 * qsort only moves whole elements, whatever they hold, so its derivative is
 * the same permutation of the elements' shadows (whose layout is the
 * elements'): the tangents move with their values, and the reverse sweep
 * moves each adjoint back to where its value came from. Doubles, structs
 * of doubles and integers, and the shadow pointers of pointer fields all
 * move as bytes. The augmented forward and tangent rules sort with the
 * program's comparator and the C library's qsort and apply the permutation
 * to the data and its shadow; the tape is the permutation. The rules follow
 * the custom-rule convention (every argument followed by its shadow) the
 * pass attaches them with (lib/Support/LibraryRules.cpp).
 *
 * bsearch returns a pointer into its array; the pass rewrites it as that
 * array's address plus an index (lib/Support/SearchCalls.cpp), so the
 * result's shadow is the shadow array's address plus the same index, and
 * the index comes from here.
 *===----------------------------------------------------------------------===*/
#include "../abi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int (*comparator)(const void *, const void *);

/* Where a record of an element of size bytes keeps the element's original
 * position: after the element, aligned. */
static size_t index_offset(size_t size) {
  return (size + sizeof(size_t) - 1) / sizeof(size_t) * sizeof(size_t);
}

/* The element's bytes, then its original position, in a record whose size
 * keeps every record's element aligned as malloc aligns (16 bytes). */
static size_t record_size(size_t size) {
  return (index_offset(size) + sizeof(size_t) + 15) / 16 * 16;
}

static void *checked_malloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    abort();
  return p;
}

/* Sorts base with cmp as qsort does and returns the permutation: element i
 * of the sorted array was element order[i]. The C library sorts records of
 * the elements tagged with their positions: its comparisons, and so the
 * order it gives equal elements, are those of sorting the array itself. */
static size_t *sort_with_order(char *base, size_t n, size_t size,
                               comparator cmp) {
  size_t rsize = record_size(size), at = index_offset(size);
  char *records = checked_malloc(n * rsize);
  for (size_t i = 0; i < n; ++i) {
    memcpy(records + i * rsize, base + i * size, size);
    memcpy(records + i * rsize + at, &i, sizeof i);
  }
  qsort(records, n, rsize, cmp);
  size_t *order = checked_malloc(n * sizeof *order);
  for (size_t i = 0; i < n; ++i) {
    memcpy(base + i * size, records + i * rsize, size);
    memcpy(&order[i], records + i * rsize + at, sizeof *order);
  }
  free(records);
  return order;
}

/* shadow[i] = old shadow[order[i]] (forward), or shadow[order[i]] = old
 * shadow[i] (backward, the inverse). */
static void permute(char *shadow, size_t n, size_t size, const size_t *order,
                    int backward) {
  char *old = checked_malloc(n * size);
  memcpy(old, shadow, n * size);
  for (size_t i = 0; i < n; ++i) {
    if (backward)
      memcpy(shadow + order[i] * size, old + i * size, size);
    else
      memcpy(shadow + i * size, old + order[i] * size, size);
  }
  free(old);
}

void *__capsule_libc_qsort_aug(void *base, void *dbase, size_t n, size_t dn,
                               size_t size, size_t dsize, comparator cmp,
                               void *dcmp) {
  size_t *order = sort_with_order(base, n, size, cmp);
  permute(dbase, n, size, order, 0);
  return order;
}

void __capsule_libc_qsort_grad(void *base, void *dbase, size_t n, size_t dn,
                               size_t size, size_t dsize, comparator cmp,
                               void *dcmp, void *tape) {
  permute(dbase, n, size, tape, 1);
  free(tape);
}

void __capsule_libc_qsort_tan(void *base, void *dbase, size_t n, size_t dn,
                              size_t size, size_t dsize, comparator cmp,
                              void *dcmp) {
  size_t *order = sort_with_order(base, n, size, cmp);
  permute(dbase, n, size, order, 0);
  free(order);
}

/* qsort of elements whose pointer stretches the pass knows: layout[0]
 * stretches, then each one's offset and size (none for numbers). The pass
 * calls this instead of qsort in code it differentiates
 * (lib/Support/SortCalls.cpp). The forward sweep moves only those stretches
 * of the shadow with the elements, the shadow pointers; the adjoints stay,
 * since those a gradient was handed there belong to the sorted contents
 * (and in a checkpointed gradient, to later stages). The reverse sweep moves
 * whole elements back, as qsort's rule does. */
void __capsule_libc_qsort_layout(void *base, size_t n, size_t size,
                                 comparator cmp, const uint64_t *layout) {
  (void)layout;
  qsort(base, n, size, cmp);
}

void *__capsule_libc_qsort_layout_aug(void *base, void *dbase, size_t n,
                                      size_t dn, size_t size, size_t dsize,
                                      comparator cmp, void *dcmp,
                                      const uint64_t *layout, void *dlayout) {
  size_t *order = sort_with_order(base, n, size, cmp);
  if (layout[0] > 0) {
    char *shadow = dbase, *old = checked_malloc(n * size);
    memcpy(old, shadow, n * size);
    for (size_t i = 0; i < n; ++i)
      for (uint64_t k = 0; k < layout[0]; ++k) {
        uint64_t at = layout[1 + 2 * k], bytes = layout[2 + 2 * k];
        memcpy(shadow + i * size + at, old + order[i] * size + at, bytes);
      }
    free(old);
  }
  return order;
}

void __capsule_libc_qsort_layout_grad(void *base, void *dbase, size_t n,
                                      size_t dn, size_t size, size_t dsize,
                                      comparator cmp, void *dcmp,
                                      const uint64_t *layout, void *dlayout,
                                      void *tape) {
  __capsule_libc_qsort_grad(base, dbase, n, dn, size, dsize, cmp, dcmp, tape);
}

void __capsule_libc_qsort_layout_tan(void *base, void *dbase, size_t n,
                                     size_t dn, size_t size, size_t dsize,
                                     comparator cmp, void *dcmp,
                                     const uint64_t *layout, void *dlayout) {
  __capsule_libc_qsort_tan(base, dbase, n, dn, size, dsize, cmp, dcmp);
}

/* The index of what bsearch finds, or -1. */
int64_t __capsule_libc_bsearch_index(const void *key, const void *base,
                                     size_t n, size_t size, comparator cmp) {
  const char *found = bsearch(key, base, n, size, cmp);
  return found ? (int64_t)((found - (const char *)base) / size) : -1;
}

/* Before qsort runs in interruptible code: saves the array for the journal
 * and returns the steps the sort costs, about n log2 n comparisons
 * (runtime/blas/Steps.c has the BLAS routines'). */
int64_t __capsule_libc_qsort_step(void *base, size_t n, size_t size,
                                  comparator cmp) {
  (void)cmp;
  if (__capsule_journal_depth && n && size)
    __capsule_journal_write(base, (uint64_t)n * size);
  int64_t steps = 1;
  for (size_t m = n; m > 1; m /= 2)
    steps += (int64_t)n;
  return steps;
}

int64_t __capsule_libc_qsort_layout_step(void *base, size_t n, size_t size,
                                         comparator cmp,
                                         const uint64_t *layout) {
  (void)layout;
  return __capsule_libc_qsort_step(base, n, size, cmp);
}
