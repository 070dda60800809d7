/*===- kernels_plain.h - kernels.inc without coroutines -------------------===*
 *
 * The macros that make kernels.inc plain functions: for the C primal and the
 * functions the Capsule pass instruments (study.c, spin_chain.c, where roots
 * are noinline so the markers see them), and for the plain C++ control
 * (plain_kernels.cpp, which defines CS_ROOT empty first, as the coroutine
 * build does). Include it, then kernels.inc.
 *===----------------------------------------------------------------------===*/
#ifndef CAPSULE_CORO_STUDY_KERNELS_PLAIN_H
#define CAPSULE_CORO_STUDY_KERNELS_PLAIN_H

#define CS_PI 3.14159265358979323846
#ifndef CS_ROOT
#define CS_ROOT __attribute__((noinline))
#endif
#define CS_NOINLINE __attribute__((noinline))
#define CS_TASK(T, Name) T
#define CS_YIELD(C) ((void)0)
#define CS_CHARGE(C) ((void)0)
#define CS_AWAIT(E) (E)
#define CS_RETURN(V) return V
#define CS_RETURN_VOID return
#define CS_MALLOC(T, N) (T *)malloc(sizeof(T) * (size_t)(N))

#endif /* CAPSULE_CORO_STUDY_KERNELS_PLAIN_H */
