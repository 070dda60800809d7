/*===- Scratch.c - Memory for the BLAS rules' copies ----------------------===*
 *
 * The rules' copies come and go in last-in first-out order, once per call:
 * a few freed blocks are kept per thread for the next calls, so a gradient
 * in a loop neither calls malloc nor faults fresh pages in (large blocks
 * would come from mmap each time). The kept blocks live as long as the
 * thread. Compiled as bodies for nested derivatives (CAPSULE_RULE_BODIES),
 * the rules take plain heap blocks instead (Blas.h).
 *===----------------------------------------------------------------------===*/
#include "Blas.h"

#include <stdlib.h>

#ifndef CAPSULE_RULE_BODIES
enum { KeptBlocks = 16 };
typedef struct {
  size_t capacity;
  size_t serial; /* when it was handed out; keeps the data 16-byte aligned */
} block_header;
static __thread block_header *kept[KeptBlocks];
static __thread int kept_count;
/* Blocks handed out so far, and while tapes are kept, the serial number of
 * the first block handed out since: the older ones are tapes. */
static __thread size_t handed_out;
static __thread size_t keeping_since;

void *__capsule_blas_scratch_alloc(size_t bytes) {
  block_header *h = NULL;
  for (int i = kept_count - 1; i >= 0 && !h; --i)
    if (kept[i]->capacity >= bytes) {
      h = kept[i];
      kept[i] = kept[--kept_count];
    }
  if (!h) {
    h = malloc(sizeof *h + (bytes ? bytes : 1));
    if (!h)
      abort();
    h->capacity = bytes;
  }
  h->serial = ++handed_out;
  return h + 1;
}

void __capsule_blas_keep_tapes(int keep) {
  keeping_since = keep ? handed_out + 1 : 0;
}

void __capsule_blas_scratch_free(void *p) {
  if (!p)
    return;
  block_header *h = (block_header *)p - 1;
  /* A rule's temporaries go as usual; the tapes stay for the next lane. */
  if (keeping_since && h->serial < keeping_since)
    return;
  if (kept_count < KeptBlocks)
    kept[kept_count++] = h;
  else
    free(h);
}
#endif

double *__capsule_blas_vector_copy(int n, const double *x, int inc) {
  double *copy = __capsule_blas_scratch_alloc(sizeof(double) * (n > 0 ? n : 1));
  if (n > 0)
    cblas_dcopy(n, x, inc, copy, 1);
  return copy;
}

double *__capsule_blas_matrix_copy(int order, int rows, int cols,
                                   const double *a, int ld) {
  long size = (long)rows * cols;
  double *copy =
      __capsule_blas_scratch_alloc(sizeof(double) * (size > 0 ? size : 1));
  /* Line by line: rows of a row-major matrix, columns of a column-major
   * one. With BLAS rather than memcpy: nested derivatives then know that
   * the copy moves doubles. */
  int lines = order == RowMajor ? rows : cols;
  int length = order == RowMajor ? cols : rows;
  for (int l = 0; l < lines && length > 0; ++l)
    cblas_dcopy(length, a + (long)l * ld, 1, copy + (long)l * length, 1);
  return copy;
}
