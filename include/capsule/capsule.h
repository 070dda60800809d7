/*===- capsule.h - Capsule public C API -----------------------------------===*
 *
 * The only header users include. Declares the differentiation markers that
 * the Capsule pass lowers, the activity markers, and the runtime's C API.
 *
 * Marker calls follow Enzyme's C convention; the Enzyme spellings
 * (__enzyme_autodiff, enzyme_dup, ...) are accepted by the pass as aliases.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_CAPSULE_H
#define CAPSULE_CAPSULE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Activity markers. Pass one before an argument of the differentiated
 * function to say how that argument takes part:
 *   capsule_dup       pointer argument followed by its shadow; adjoints are
 *                     accumulated (+=) into the shadow.
 *   capsule_dupnoneed as capsule_dup; the primal result memory is not needed.
 *   capsule_const     the argument is not differentiated.
 *   capsule_out       floating-point argument whose adjoint is returned.
 * Unmarked arguments follow Enzyme's defaults: floating point is out,
 * pointers are dup (the shadow follows), integers are const. */
extern int capsule_dup;
extern int capsule_dupnoneed;
extern int capsule_const;
extern int capsule_out;

/* Plain reverse mode. The marker's return type says what comes back: void,
 * a double (one out argument), or a struct of the out arguments' adjoints in
 * order. A floating-point return value of fn is seeded with 1.0.
 *
 * Any function whose name starts with __capsule_autodiff (or
 * __enzyme_autodiff) is a marker, so C code that needs another return type
 * declares its own, e.g. `void __capsule_autodiff_v(void *, ...);`. C++ code
 * gets the template below: __capsule_autodiff<RT>(fn, args...). */
#ifndef __cplusplus
double __capsule_autodiff(void *fn, ...);
/* Divide-and-conquer checkpointed reverse mode: reserved for the
 * checkpointing work, same signature; the pass reports it as not yet
 * supported. */
double __capsule_autodiff_checkpointed(void *fn, ...);
#endif

/* Statistics of the most recent gradient call and of all calls so far. */
typedef struct capsule_stats {
  uint64_t calls;           /* gradient calls since start (or reset) */
  uint64_t last_tape_bytes; /* peak tape bytes of the most recent call */
  uint64_t peak_tape_bytes; /* peak tape bytes over all calls */
  double last_seconds;      /* wall time of the most recent call */
  double total_seconds;     /* wall time of all calls */
} capsule_stats_t;

void capsule_get_stats(capsule_stats_t *out);
void capsule_reset_stats(void);

/* Tape limit in bytes (0: unlimited). Overrides CAPSULE_TAPE_LIMIT. */
void capsule_set_tape_limit(uint64_t bytes);
uint64_t capsule_tape_limit(void);

#ifdef __cplusplus
}

template <typename RT = double, typename... Args>
RT __capsule_autodiff(void *fn, Args... args);
template <typename RT = double, typename... Args>
RT __capsule_autodiff_checkpointed(void *fn, Args... args);
#endif

#endif /* CAPSULE_CAPSULE_H */
