//===- StackGuard.h - A clear stop when the machine stack overflows -------===//
//
// Derivatives and interruptible variants use more machine stack per call
// than the primal (the forward sweep keeps more values live, the reverse
// sweep recurses as deep again, step functions carry their dispatch), so a
// recursion the primal survives may overflow the stack in a gradient. The
// first gradient or interruptible run on a thread arms a SIGSEGV handler on
// an alternate signal stack: an overflow of this thread's stack stops the
// program with a message naming the limit and how to raise it (exit status
// 3, as for the runtime's other limits); so does a fault in the trap of
// pointers without a known shadow (GlobalShadows.h); any other fault goes
// to whatever handled SIGSEGV before, so the program's own handler, or the
// default core dump, sees it as it would have.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_STACKGUARD_H
#define CAPSULE_RUNTIME_STACKGUARD_H

namespace capsule {

/// Arms the guard on this thread (once; later calls cost a TLS load).
void armStackOverflowGuard();

} // namespace capsule

#endif
