/*===- bench_instantiate.h - Compile one objective body twice -------------===*
 *
 * Usage:   #define BENCH_BODY "gmm_objective.inc"
 *          #include "bench_instantiate.h"
 *
 * The body is written once, in terms of these macros, and compiled twice:
 *
 *   REAL            double              | double complex
 *   FN(name)        name                | name##_cs
 *   RE(v)           v                   | creal(v)   (for comparisons only)
 *   EXP LOG SQRT    exp log sqrt        | bench_cs_exp ...
 *   COS SIN TANH    cos sin tanh        | bench_cs_cos ...
 *   RECIP(v)        (1.0 / (v))         | bench_cs_recip(v)
 *   OBJECTIVE       external, noinline  | static
 *
 * The double instance is the plain C function that Capsule differentiates
 * and that the benchmark times (after preprocessing it is ordinary C calling
 * libm). The complex instance only serves the complex-step reference used by
 * the gradient check, so the reference can never drift from the code that
 * is differentiated. Helper functions in a body must be `static` and named
 * through FN().
 *===----------------------------------------------------------------------===*/
#ifndef BENCH_BODY
#error "define BENCH_BODY before including bench_instantiate.h"
#endif

/* double: the benchmarked function. */
#define REAL double
#define FN(name) name
#define RE(v) (v)
#define EXP exp
#define LOG log
#define SQRT sqrt
#define COS cos
#define SIN sin
#define TANH tanh
#define RECIP(v) (1.0 / (v))
#define OBJECTIVE __attribute__((noinline))
#include BENCH_BODY
#undef REAL
#undef FN
#undef RE
#undef EXP
#undef LOG
#undef SQRT
#undef COS
#undef SIN
#undef TANH
#undef RECIP
#undef OBJECTIVE

/* double complex: the complex-step reference. */
#define REAL double complex
#define FN(name) name##_cs
#define RE(v) creal(v)
#define EXP bench_cs_exp
#define LOG bench_cs_log
#define SQRT bench_cs_sqrt
#define COS bench_cs_cos
#define SIN bench_cs_sin
#define TANH bench_cs_tanh
#define RECIP(v) bench_cs_recip(v)
#define OBJECTIVE static
#include BENCH_BODY
#undef REAL
#undef FN
#undef RE
#undef EXP
#undef LOG
#undef SQRT
#undef COS
#undef SIN
#undef TANH
#undef RECIP
#undef OBJECTIVE

#undef BENCH_BODY
