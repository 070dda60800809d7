//===- ResumableSplitter.h - Functions as resumable machines ----*- C++ -*-===//
//
// The step variant of a resumable function is `i1 step(ptr frame)`: it runs
// the function's activation whose record is `frame`, from its start (resume
// index 0) or from the yield point it last stopped at, and returns 1 if it
// yielded again, 0 if the function returned. The record lives on the
// runtime's frame stack; a callee's record starts where its caller's ends.
//
// Record layout (all offsets from the frame pointer, the record 64-byte
// aligned and a multiple of 64 bytes long):
//   0          i32 resume index (0: not started)
//   header     return value, then the arguments (a byval argument's copy)
//   spills     SSA values live across yield points, one slot each
//   slots      the function's stack slots (its allocas)
// A caller stores the arguments and a zero resume index, then calls step;
// after it returns 0 it reads the return value.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RESUMABLESPLITTER_H
#define CAPSULE_RESUMABLESPLITTER_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace llvm {
class BasicBlock;
class Function;
class FunctionType;
class DataLayout;
class Type;
} // namespace llvm

namespace capsule {

class RuntimeABI;

/// Where a caller finds the resume index, the return value and the
/// arguments in the record of a function with the parameters of \p F.
struct FrameHeader {
  static constexpr uint64_t ResumeIndexOffset = 0;
  uint64_t ResultOffset = 0;
  llvm::SmallVector<uint64_t, 8> ArgOffsets;
  /// The type stored at each argument's offset: the argument's own type, or
  /// the pointee of a byval argument, whose copy the record holds.
  llvm::SmallVector<llvm::Type *, 8> ArgTypes;
  uint64_t End = 0;
};
FrameHeader frameHeader(const llvm::Function &F);

/// The byte range [Begin, End) of a step function's record that only the
/// function itself reads and writes: its spill slots and stack slots.
struct OwnRecordArea {
  uint64_t Begin;
  uint64_t End;
};
/// The own area of \p F's record when \p F (or the function it was cloned
/// from) is a step function built by buildStepFunction; its frame is
/// argument 0.
std::optional<OwnRecordArea> ownRecordArea(const llvm::Function &F);

/// Frame records are aligned to this; larger stack-slot alignments are
/// refused.
constexpr uint64_t FrameAlignment = 64;

/// Resumable clones and the step functions they become.
using StepFunctions = llvm::DenseMap<llvm::Function *, llvm::Function *>;

/// Moves the body of instrumented clone \p F into its declared step
/// function Steps[F], turning it into a resumable state machine; calls of
/// other resumable clones become calls of their step functions. Returns the
/// record size. \p F is left empty. StepInstrumentation has refused the
/// stack slots a record cannot hold. The headers in \p AtomicHeaders are
/// no yield points (AtomicLoops.h). Without \p ChecksBudget the function
/// yields only when a resumable callee does.
uint64_t buildStepFunction(
    llvm::Function &F, const StepFunctions &Steps, RuntimeABI &ABI,
    const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &AtomicHeaders,
    bool ChecksBudget = true);

} // namespace capsule

#endif
