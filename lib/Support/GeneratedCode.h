//===- GeneratedCode.h - What generated code shares -------------*- C++ -*-===//
//
// The passes that lower marker calls (autodiff, interruptible execution)
// finish alike: the marker calls go, the generated functions (whose names
// contain ".capsule.") are verified and, in clang's pipeline, simplified.
// The generators of both modes clone primals alike.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_GENERATEDCODE_H
#define CAPSULE_GENERATEDCODE_H

#include "Analysis/CallClassifier.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
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
/// the marker with an invoke inside a try block or where a destructor is
/// pending: the invoke becomes a branch to its normal destination (what
/// may throw in its place was made invokes by routeThrowsToUnwind).
void eraseMarkerCall(llvm::CallBase &Call);

/// The calls of the marker's function before its lowering, when the
/// marker is an invoke (what routeThrowsToUnwind needs), else nothing.
llvm::SmallPtrSet<llvm::CallInst *, 16>
callsBeforeLowering(llvm::CallBase &Marker);

/// The calls a marker's lowering added to its function (those not in
/// \p Before) that may throw (the derivatives of code that throws) become
/// invokes of the marker's landing pad, so that the program's catch sees
/// the exception, as it would the primal's. Nothing for a marker that is a
/// call.
void routeThrowsToUnwind(llvm::CallBase &Marker,
                         const llvm::SmallPtrSetImpl<llvm::CallInst *> &Before);

/// Makes an internal function named \p Name, of \p Callee's type, whose body
/// calls \p Callee with its parameters and returns what it returns; returns
/// that call, for its caller to dress (attributes, a debug location).
llvm::CallInst &forwardingCall(llvm::Function &Callee, const llvm::Twine &Name);

/// Takes \p Globals out of llvm.used and llvm.compiler.used and erases
/// those nothing else uses (registrations read, references made obsolete).
void eraseUnusedGlobals(llvm::Module &M,
                        llvm::ArrayRef<llvm::GlobalVariable *> Globals);

/// clang runs without the IR verifier; malformed generated code must stop
/// the compilation here rather than miscompile.
void verifyGenerated(llvm::Module &M);

/// Runs \p Cleanup on every generated function with a body: the
/// simplification the rest of the pipeline would no longer apply to them.
void cleanUpGenerated(llvm::Module &M, llvm::FunctionPassManager &Cleanup,
                      llvm::FunctionAnalysisManager &FAM);

/// Drops the attributes of a derivative cloned from its primal that promise
/// what the derivative no longer keeps: it writes shadow memory (and the
/// tape), and may allocate. \p ReturnTypeChanged: also the result
/// attributes that no longer fit.
void dropPrimalOnlyAttributes(llvm::Function &Derivative,
                              bool ReturnTypeChanged);

/// *\p Ptr += \p V atomically, field by field and lane by lane (the
/// floating-point leaves of \p V's type).
void addAtomically(llvm::IRBuilder<> &B, const llvm::DataLayout &DL,
                   llvm::Value *Ptr, llvm::Value *V);

/// \p Shadow moved as the primal pointer \p From was moved to \p To (by
/// a call that returns its argument adjusted, or null: a dynamic_cast).
llvm::Value *movedLikeIts(llvm::IRBuilder<> &B, llvm::Value *Shadow,
                          llvm::Value *From, llvm::Value *To);

/// The bytes an allocation of kind \p Kind (Alloc, Calloc, AlignedAlloc)
/// asks for, from its i64 arguments \p Arg(K).
llvm::Value *allocatedBytes(llvm::IRBuilder<> &B, CalleeKind Kind,
                            llvm::function_ref<llvm::Value *(unsigned)> Arg);

} // namespace capsule

#endif
