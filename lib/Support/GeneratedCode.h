//===- GeneratedCode.h - What every Capsule pass does last -------*- C++
//-*-===//
//
// The passes that lower marker calls (autodiff, interruptible execution)
// finish alike: the marker calls go, the generated functions (whose names
// contain ".capsule.") are verified and, in clang's pipeline, simplified.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_GENERATEDCODE_H
#define CAPSULE_GENERATEDCODE_H

#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/PassManager.h"

namespace capsule {

/// The function attribute that marks the interruptible clones made for a
/// checkpointed gradient (step functions and atomic leaves). Their
/// derivatives keep shadows of runtime memory at fixed offsets and journal
/// shadow pointers (docs/checkpointing.md).
inline constexpr const char *CheckpointedCodeAttr = "capsule-checkpointed";

inline bool isCheckpointedCode(const llvm::Function &F) {
  return F.hasFnAttribute(CheckpointedCodeAttr);
}

/// Removes a marker call; its activity-marker loads go with it. C++ calls
/// the marker with an invoke where a destructor is pending: the generated
/// code never throws, so the invoke becomes a branch to its normal
/// destination.
void eraseMarkerCall(llvm::CallBase &Call);

/// clang runs without the IR verifier; malformed generated code must stop
/// the compilation here rather than miscompile.
void verifyGenerated(llvm::Module &M);

/// Runs \p Cleanup on every generated function with a body: the
/// simplification the rest of the pipeline would no longer apply to them.
void cleanUpGenerated(llvm::Module &M, llvm::FunctionPassManager &Cleanup,
                      llvm::FunctionAnalysisManager &FAM);

} // namespace capsule

#endif
