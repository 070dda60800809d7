//===- RuntimeStateInRegisters.h - Budget and journal depth in registers -*-
// C++ -*-===//
//
// Instrumentation reads and writes the thread's step budget and journal
// depth (thread-local globals) at every block and store. Neither changes
// behind a function's back: the budget only through the step functions it
// calls, the depth only in the driver, outside instrumented code. So each
// function reads them once and keeps them in registers, which the loops'
// optimizations (and the per-block cost of one subtract, compare and branch
// the design asks for) depend on.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIMESTATEINREGISTERS_H
#define CAPSULE_RUNTIMESTATEINREGISTERS_H

#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class Function;
}

namespace capsule {

class RuntimeABI;

/// Reads the journal depth once, at \p F's entry.
void readJournalDepthOnce(llvm::Function &F, RuntimeABI &ABI);

/// Keeps step function \p Step's budget in a register: read at its entry
/// and after each call of a step function, written back before such calls
/// and before it returns or yields.
void keepBudgetInRegister(
    llvm::Function &Step,
    const llvm::SmallPtrSetImpl<llvm::Function *> &StepFns, RuntimeABI &ABI);

} // namespace capsule

#endif
