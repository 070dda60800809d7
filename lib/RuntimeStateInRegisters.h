//===- RuntimeStateInRegisters.h - The step budget in a register -*- C++
//-*-===//
//
// Instrumentation reads and writes the thread's step budget (a thread-local
// global) at every block. It changes behind a step function's back only
// through the step functions it calls, so each step function reads it once
// and keeps it in a register, which the loops' optimizations (and the
// per-block cost of one subtract, compare and branch the design asks for)
// depend on. (The journal depth is read once per function by
// expandJournalBarriers().)
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIMESTATEINREGISTERS_H
#define CAPSULE_RUNTIMESTATEINREGISTERS_H

#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class Function;
}

namespace capsule {

class RuntimeABI;

/// Keeps step function \p Step's budget in a register: read at its entry
/// and after each call of a step function, written back before such calls
/// and before it returns or yields.
void keepBudgetInRegister(
    llvm::Function &Step,
    const llvm::SmallPtrSetImpl<llvm::Function *> &StepFns, RuntimeABI &ABI);

} // namespace capsule

#endif
