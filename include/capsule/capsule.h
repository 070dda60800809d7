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
 * pointers are dup (the shadow follows), integers are const.
 * In forward mode (__capsule_fwddiff) a floating-point argument marked
 * capsule_dup, or unmarked, is followed by its tangent; a dup pointer's
 * shadow holds the tangents of the memory it points to, on entry and, for
 * what fn writes, overwritten on return. */
extern int capsule_dup;
extern int capsule_dupnoneed;
extern int capsule_const;
extern int capsule_out;

/* Vector mode: `capsule_width, N` anywhere in the call gives every value N
 * tangents (forward mode) or N adjoints (reverse mode). A dup pointer is
 * then followed by N shadows, or marked `capsule_dupv, stride, p, dp` with
 * its N shadows at dp, dp + stride, ... (bytes). Forward mode: an active
 * floating-point argument is followed by N tangents; the result's N
 * tangents come back as a struct or array of N values of its type. Reverse
 * mode: an active result is seeded with 1 in every lane; the N adjoints of
 * each out argument come back as an array of N values of its type, in a
 * struct with one array per out argument. */
extern int capsule_width;
extern int capsule_dupv;
extern int capsule_dupnoneedv;

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
/* Divide-and-conquer checkpointed reverse mode (docs/checkpointing.md): the
 * same signature, markers and results as __capsule_autodiff; only time and
 * memory differ. Function names starting with __capsule_autodiff_checkpointed
 * are this marker. */
double __capsule_autodiff_checkpointed(void *fn, ...);
/* Forward mode: returns the tangent of fn's result (a directional
 * derivative) given the tangents of its arguments; dup pointers' shadows
 * receive the tangents of what fn writes. Function names starting with
 * __capsule_fwddiff (or __enzyme_fwddiff) are this marker. */
double __capsule_fwddiff(void *fn, ...);
#endif

/* Split mode, Enzyme's __enzyme_augmentfwd and __enzyme_reverse: a gradient
 * in two halves, with the program's own code between them.
 *   void *tape = __capsule_augmentfwd((void *)fn, args...);
 * runs fn on its arguments (marked and followed by shadows as for
 * __capsule_autodiff) and returns the tape; declared to return a struct
 * {void *tape; T result;} it returns fn's result too.
 *   __capsule_reverse((void *)fn, args..., [dresult,] tape);
 * takes the same arguments, the adjoint of fn's floating-point result and
 * the tape, adds the adjoints into the shadows and returns those of the out
 * arguments as __capsule_autodiff does; the tape is then gone. What fn
 * needs from memory is on the tape, so the program may change it between
 * the halves. `capsule_allocated, n, capsule_tape, mem` before the
 * arguments keeps the tape in the n bytes at mem instead (n from
 * __capsule_augmentsize((void *)fn, markers...)). Function names starting
 * with these (or __enzyme_augmentfwd, __enzyme_reverse,
 * __enzyme_augmentsize) are the markers. */
extern int capsule_tape;
extern int capsule_allocated;
#ifndef __cplusplus
void *__capsule_augmentfwd(void *fn, ...);
double __capsule_reverse(void *fn, ...);
int __capsule_augmentsize(void *fn, ...);
#endif

/* Statistics of the most recent gradient call and of all calls so far. The
 * seconds are measured only while timing is on (CAPSULE_STATS=1, or
 * capsule_set_timing(1)), and stay 0 otherwise: reading the clock would cost
 * a tiny gradient call more than its derivative does. */
typedef struct capsule_stats {
  uint64_t calls;           /* gradient calls since start (or reset) */
  uint64_t last_tape_bytes; /* peak tape bytes of the most recent call */
  uint64_t peak_tape_bytes; /* peak tape bytes over all calls */
  double last_seconds;      /* wall time of the most recent timed call */
  double total_seconds;     /* wall time of all timed calls */
} capsule_stats_t;

void capsule_get_stats(capsule_stats_t *out);
void capsule_reset_stats(void);
/* Times gradient calls from now on (non-zero) or stops (0; CAPSULE_STATS=1
 * keeps timing on). */
void capsule_set_timing(int on);

/* Tape limit in bytes (0: unlimited). Overrides CAPSULE_TAPE_LIMIT. */
void capsule_set_tape_limit(uint64_t bytes);
uint64_t capsule_tape_limit(void);

/* Interruptible execution: run a function for a number of steps, capture
 * the rest of its execution as a capsule, and continue it later, as often as
 * wanted (docs/interrupt.md). fn must be defined in the module; its
 * arguments follow as they would in a call.
 *
 * A step is the model cost of the code executed (docs/interrupt.md); a run
 * stops at the first yield point at which at least l steps are done, so a
 * capsule may hold slightly more than l steps (capsule_steps says how many).
 * Capsules are snapshots of all memory the instrumented code writes; they
 * are released in LIFO order, and only the newest live capsule may be
 * resumed. */
/* The checkpoint schedule of __capsule_autodiff_checkpointed. Each call
 * overrides the environment variable of the same meaning (CAPSULE_STRATEGY,
 * CAPSULE_SPLIT, CAPSULE_CRITERION, CAPSULE_SNAPSHOTS, CAPSULE_REPS,
 * CAPSULE_LEAF_STEPS, CAPSULE_MEMORY_LIMIT); 0 for a count means automatic.
 * Names are "binary" | "treeverse" | "online", "bisection" | "binomial" and
 * "space" | "time" | "log"; an invalid one stops the program with a message.
 * capsule_config_reset() forgets the calls. */
void capsule_config_strategy(const char *name);
void capsule_config_split(const char *name);
void capsule_config_criterion(const char *name);
void capsule_config_snapshots(uint64_t d);
void capsule_config_reps(uint64_t t);
void capsule_config_leaf_steps(uint64_t alpha);
void capsule_config_memory_limit(uint64_t bytes);
void capsule_config_reset(void);

/* Progress of checkpointed gradients (docs/checkpointing.md). With
 * CAPSULE_PROGRESS=1 a live line on stderr, when it is a terminal, says
 * what a checkpointed gradient does, how much of its reverse sweep is done,
 * how many steps it ran again and about how long is left;
 * CAPSULE_PROGRESS=always prints it as whole lines wherever stderr goes.
 * A callback receives the same figures, at most every interval_seconds
 * (and at each change of stage); null removes it. */
typedef struct capsule_progress {
  const char *function;     /* the differentiated function */
  const char *stage;        /* "counting", "reversing", "finishing" (memory
                               left as the run leaves it) or "done" */
  uint64_t steps;           /* the run's steps (while counting: those
                               counted so far) */
  uint64_t reversed_steps;  /* steps whose adjoints are done */
  uint64_t recomputed_steps; /* steps run again, untaped, so far */
  double fraction;          /* reversed_steps / steps */
  double elapsed_seconds;   /* since the gradient began */
  double remaining_seconds; /* an estimate; negative while unknown */
} capsule_progress_t;
typedef void (*capsule_progress_fn)(const capsule_progress_t *progress,
                                    void *user);
void capsule_set_progress_callback(capsule_progress_fn fn, void *user,
                                   double interval_seconds);

/* Loop-iteration checkpointing, the classic tools' way (Tapenade's
 * binomial-ckp, revolve): called at the top of a loop's body inside a
 * checkpointed gradient's computation, it makes each call an iteration
 * boundary and those boundaries the only split points; every iteration is
 * one leaf and the iterations are scheduled with the binomial split under
 * CAPSULE_SNAPSHOTS (docs/checkpointing.md). Without it nothing changes;
 * elsewhere (plain gradients, primal code) it does nothing. */
void capsule_checkpoint_iteration(void);

/* Replay of non-deterministic calls (docs/checkpointing.md). Resuming a
 * capsule, and so every recomputation of a checkpointed gradient, runs code
 * again; calls whose results are not a function of the program's memory
 * would return other values the second time. Capsule records the results
 * of such calls on their first execution and replays them afterwards, so a
 * checkpointed gradient equals the plain one bit for bit: rand, random,
 * drand48 and kin, rand_r, clock, time, gettimeofday, clock_gettime,
 * getchar, getc, fgetc, fread, std::random_device and the std::chrono
 * clocks. A program adds a function of its own (a library's generator, a
 * sensor) once, at file scope, in each file that calls it:
 *   CAPSULE_REPLAY(my_generator);
 * Its results (void, integer, float or double) are replayed; what it writes
 * through pointers is not restored or replayed, and the function itself runs
 * once per recorded call, uninstrumented. */
#define CAPSULE_REPLAY(fn)                                                     \
  __attribute__((used)) static void *const __capsule_replay_##fn = (void *)(fn)

/* Custom derivatives and activity (docs/user-guide.md, "Custom
 * derivatives"), at file scope, after the functions they name. Enzyme's
 * spellings (__enzyme_register_gradient_NAME and kin) work too.
 *   CAPSULE_GRADIENT(fn, augment, gradient)  reverse mode uses the rule:
 *       augment(args) runs fn's effect and returns its result and/or a
 *       tape ({result, shadow} or {tape, result, shadow} for a pointer
 *       result); gradient(args, dresult, tape) returns the adjoints of fn's
 *       floating-point arguments and accumulates into the shadows of its
 *       pointer arguments. Every argument that is not floating point is
 *       followed by its shadow in both.
 *   CAPSULE_DERIVATIVE(fn, tangent)  forward mode uses tangent(x, dx, ...),
 *       every argument followed by its tangent, which returns
 *       {result, tangent of the result} for a floating-point result and
 *       {result, shadow of the result} for a pointer.
 *   CAPSULE_INACTIVE_FUNCTION(fn)  fn runs; no derivative flows through it.
 *   CAPSULE_INACTIVE_GLOBAL(g)     g has no derivative.
 *   CAPSULE_FUNCTION_LIKE(fn, "log1p")  fn is differentiated as that libm
 *       function, whatever its body.
 * CAPSULE_INACTIVE, on a function or a global (a definition, or a
 * declaration the file uses), does what the two INACTIVE forms do. With
 * capsule-config --cflags, Enzyme's attributes work too:
 * __attribute__((enzyme_inactive)), [[enzyme::inactive]],
 * __attribute__((enzyme_function_like("log1p"))). */
#define CAPSULE_CONCAT_(a, b) a##b
#define CAPSULE_CONCAT(a, b) CAPSULE_CONCAT_(a, b)
#define CAPSULE_REGISTRATION_(kind)                                            \
  __attribute__((used)) static void *CAPSULE_CONCAT(__capsule_##kind##_,       \
                                                    __COUNTER__)[]
#define CAPSULE_GRADIENT(fn, augment, gradient)                                \
  CAPSULE_REGISTRATION_(register_gradient) = {(void *)(fn), (void *)(augment), \
                                              (void *)(gradient)}
#define CAPSULE_DERIVATIVE(fn, tangent)                                        \
  CAPSULE_REGISTRATION_(register_derivative) = {(void *)(fn), (void *)(tangent)}
#define CAPSULE_INACTIVE_FUNCTION(fn)                                          \
  CAPSULE_REGISTRATION_(inactive_fn) = {(void *)(fn)}
#define CAPSULE_INACTIVE_GLOBAL(g)                                             \
  CAPSULE_REGISTRATION_(inactive_global) = {(void *)&(g)}
#define CAPSULE_FUNCTION_LIKE(fn, name)                                        \
  CAPSULE_REGISTRATION_(function_like) = {(void *)(fn), (void *)(name)}
#define CAPSULE_INACTIVE __attribute__((annotate("capsule_inactive")))

typedef struct capsule_s capsule_t;
/* Runs fn(args) to the end and returns its step count. */
uint64_t __capsule_primops(void *fn, ...);
/* Runs the first l steps of fn(args); NULL if it ended first. */
capsule_t *__capsule_interrupt(void *fn, uint64_t l, ...);
/* Continues c for l more steps: a new capsule (c stays valid), or NULL if
 * the computation ended. */
capsule_t *capsule_resume_for(capsule_t *c, uint64_t l);
/* Continues c to the end; stores fn's return value in *result (if fn
 * returns one and result is not NULL). */
void capsule_resume(capsule_t *c, void *result);
/* Releases c; it must be the newest live capsule. */
void capsule_release(capsule_t *c);
/* Steps from the start of fn to the point c captured. */
uint64_t capsule_steps(const capsule_t *c);

/* What the interruption machinery holds on this thread. */
typedef struct capsule_interrupt_stats {
  uint64_t live_capsules;        /* capsules not yet released */
  uint64_t journal_bytes;        /* old contents saved for live capsules */
  uint64_t newest_journal_bytes; /* ... of which for the newest capsule */
  uint64_t peak_journal_bytes;   /* largest journal_bytes so far */
  uint64_t last_run_steps;       /* steps of fn when the last run ended */
} capsule_interrupt_stats_t;
void capsule_get_interrupt_stats(capsule_interrupt_stats_t *out);

#ifdef __cplusplus
}

template <typename RT = double, typename... Args>
RT __capsule_autodiff(void *fn, Args... args);
template <typename RT = double, typename... Args>
RT __capsule_autodiff_checkpointed(void *fn, Args... args);
template <typename RT = double, typename... Args>
RT __capsule_fwddiff(void *fn, Args... args);
template <typename RT = void *, typename... Args>
RT __capsule_augmentfwd(void *fn, Args... args);
template <typename RT = double, typename... Args>
RT __capsule_reverse(void *fn, Args... args);
template <typename... Args> int __capsule_augmentsize(void *fn, Args... args);
#endif

#endif /* CAPSULE_CAPSULE_H */
