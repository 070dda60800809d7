//===- ByValShadows.h - The shadows of a byval argument's copy --*- C++ -*-===//
//
// A struct passed by value (a `byval` pointer argument) is a copy the callee
// owns, so the copy has shadows of its own: its pointer fields' shadows are
// those of the object it was copied from, its floating-point adjoints start
// at zero and, when the callee's reverse sweep is done, belong to the
// original object. The differentiator's calls (ForwardSweep.cpp,
// ReverseSweep.cpp) and a checkpointed root's frame copy
// (CheckpointedGradient.cpp) share these two halves.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_BYVALSHADOWS_H
#define CAPSULE_BYVALSHADOWS_H

#include "Support/RuntimeABI.h"

#include "llvm/IR/IRBuilder.h"

namespace capsule {

/// Copies the pointer stretches of a \p Ty image from \p OriginalShadow to
/// \p CopyShadow.
void emitCopyPointerShadows(llvm::IRBuilder<> &B, llvm::Type *Ty,
                            llvm::Value *CopyShadow,
                            llvm::Value *OriginalShadow);

/// For every floating-point stretch of a \p Ty image: \p OriginalShadow +=
/// \p CopyShadow, then \p CopyShadow = 0.
void emitReturnCopyAdjoints(llvm::IRBuilder<> &B, RuntimeABI &ABI,
                            llvm::Type *Ty, llvm::Value *OriginalShadow,
                            llvm::Value *CopyShadow);

} // namespace capsule

#endif
