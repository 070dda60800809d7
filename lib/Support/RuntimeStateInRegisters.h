//===- RuntimeStateInRegisters.h - Runtime state in registers ---*- C++ -*-===//
//
// Generated code reads and writes thread-local runtime state in every block:
// instrumentation the step budget, derivatives the tape's top and chunk
// bounds. Kept in memory, that state costs a load and a store per block and
// blocks the loop optimizations (the stores to the tape's records may alias
// the tape's header as far as LLVM knows). It changes behind a function's
// back only through the calls it makes, so each function reads it once and
// keeps it in registers, writing it back around calls. (The journal depth is
// read once per function by expandJournalBarriers().)
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIMESTATEINREGISTERS_H
#define CAPSULE_RUNTIMESTATEINREGISTERS_H

#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace capsule {

class RuntimeABI;

/// Keeps step function \p Step's budget in a register: read at its entry
/// and after each call of a function in \p Charging (those that charge
/// steps: the step functions, and the code and end of parallel regions,
/// whose threads charge what they run), written back before such calls and
/// before it returns or yields.
void keepBudgetInRegister(
    llvm::Function &Step,
    const llvm::SmallPtrSetImpl<llvm::Function *> &Charging, RuntimeABI &ABI);

/// Whether \p Call may read or write the tape header and come back: the
/// calls keepTapeInRegisters writes the tape back around.
bool mayUseTape(const llvm::CallBase &Call);

/// Keeps the tape header fields that \p F's inline pushes and pops use in
/// registers: read at its entry and after each call that may use the tape,
/// written back before such calls and before it returns. Functions with
/// invokes are left alone (their unwind edges would need it too).
void keepTapeInRegisters(llvm::Function &F, RuntimeABI &ABI);

} // namespace capsule

#endif
