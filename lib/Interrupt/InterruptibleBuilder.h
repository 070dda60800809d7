//===- InterruptibleBuilder.h - Interruptible call graphs -------*- C++ -*-===//
#ifndef CAPSULE_INTERRUPTIBLEBUILDER_H
#define CAPSULE_INTERRUPTIBLEBUILDER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace llvm {
class Function;
class GlobalVariable;
class Module;
class Value;
} // namespace llvm

namespace capsule {

class RuntimeABI;

/// What the runtime and the passes need of one interruptible root.
struct InterruptibleRoot {
  llvm::Function *Step = nullptr;        ///< its step function
  llvm::GlobalVariable *Entry = nullptr; ///< its capsule_entry constant
  /// Its steps are the iterations capsule_checkpoint_iteration() marks.
  bool LoopIterations = false;
};

/// The marker of loop-iteration checkpointing (include/capsule/capsule.h).
inline constexpr const char *IterationMarkerName =
    "capsule_checkpoint_iteration";

/// Makes \p Roots and every function they may call interruptible
/// (docs/interrupt.md): step functions for the resumable ones, instrumented
/// clones for the atomic leaves. \p ForCheckpointing marks the generated
/// functions as checkpointed code for the differentiator and reallocates
/// by copying (the copy then has an ordinary derivative), and makes calls of
/// capsule_checkpoint_iteration() the only steps of the roots that reach
/// one (build such roots apart from others). Returns nothing after
/// reporting errors.
std::optional<llvm::DenseMap<llvm::Function *, InterruptibleRoot>>
buildInterruptible(llvm::Module &M, RuntimeABI &ABI,
                   llvm::ArrayRef<llvm::Function *> Roots,
                   bool ForCheckpointing);

/// Emits, at \p B's insertion point, the start of a run of \p Root (a marker
/// call's lowering): the root frame from the runtime, \p Args stored at
/// their offsets in it (a byval argument's struct copied there). Returns the
/// frame.
llvm::Value *emitRootFrame(llvm::IRBuilder<> &B, RuntimeABI &ABI,
                           const InterruptibleRoot &Root,
                           const llvm::Function &Fn,
                           llvm::ArrayRef<llvm::Value *> Args);

} // namespace capsule

#endif
