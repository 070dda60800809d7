//===- StaticInits.h - Local statics in interruptible code ------*- C++ -*-===//
//
// A function-local static is initialized once per process, under a guard
// (__cxa_guard_acquire ... __cxa_guard_release). Run again from a capsule,
// instrumented initialization would be skipped (the guard is set) or, with
// the guard restored by the journal, done twice; and its steps would count
// in the first run only, so that no two runs of a checkpointed gradient
// would agree on where a step is. In interruptible code the initialization
// therefore moves to a function of its own (from the acquire to the
// guard's release), which stays the program's code: not instrumented, its
// writes not journaled (the guard stays set), charged no steps, never
// yielding, and inactive to derivatives. What it calls runs uninstrumented
// too (Eigen's cache-size query and its cpuid instruction).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_STATICINITS_H
#define CAPSULE_STATICINITS_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class BasicBlock;
class Function;
} // namespace llvm

namespace capsule {

/// Moves each guarded initialization of a static in \p F to a function of
/// its own; returns those functions. An initialization of another shape
/// stays, and instrumentation refuses it.
llvm::SmallVector<llvm::Function *, 2> outlineStaticInits(llvm::Function &F);

/// Whether \p F is a static's initialization outlineStaticInits made.
bool isStaticInit(const llvm::Function &F);

/// Whether \p BB calls one (and charges no steps: the call happens in the
/// first run only).
bool callsStaticInit(const llvm::BasicBlock &BB);

} // namespace capsule

#endif
