//===- TangentGenerator.h - Generates one tangent function ------*- C++ -*-===//
//
// Forward mode: the tangent function of one signature (Differentiator.h) is
// a clone of the prepared primal that carries, beside each value, its twin
// of the same type: the tangent of floating-point values, the shadow of
// pointers, and for integers the shadow bits they copy (an integer load of
// shadowed memory, a float's bits). Shadow memory mirrors primal memory
// byte for byte: a store writes the twin of the stored value to the shadow
// of the address, a load reads the twin back, memcpy copies shadows. So
// tangents are overwritten, never accumulated, and copies of any type carry
// them. A value without a twin (constants, integer arithmetic, inactive
// values) has tangent zero; it is kept as null so that no code is emitted
// for it.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_TANGENTGENERATOR_H
#define CAPSULE_TANGENTGENERATOR_H

#include "Analysis/Activity.h"
#include "Analysis/CallClassifier.h"
#include "Analysis/Differentiability.h"
#include "Reverse/Differentiator.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace capsule {

struct GradientRequest;
struct TangentGradientArgs;

class TangentGenerator {
public:
  TangentGenerator(Differentiator &D, const DiffSignature &Sig,
                   llvm::Function &Prepared, llvm::Function &Target);
  void run();

private:
  // ---- Values and memory (TangentGenerator.cpp) ----
  void cloneBody();
  void copyByValShadows();
  void createLaneScopes();
  void tagLaneAccess(llvm::Instruction &I, unsigned Lane);
  void tagPrimalAccesses();
  std::optional<std::string> whyNotInVectorMode(llvm::Instruction &I);
  void tangentInstruction(llvm::Instruction &I);
  void tangentArithmetic(llvm::Instruction &I);
  void tangentCast(llvm::CastInst &I);
  void tangentAggregate(llvm::Instruction &I);
  void tangentPhi(llvm::PHINode &Phi);
  void completePhis();
  void tangentLoad(llvm::LoadInst &LI);
  void tangentStore(llvm::StoreInst &SI);
  void tangentAlloca(llvm::AllocaInst &AI);
  void tangentReturn(llvm::ReturnInst &RI);
  bool checkSupported(llvm::Instruction &I);

  // ---- Calls (TangentCalls.cpp) ----
  void tangentCall(llvm::CallBase &Call);
  void tangentMath(llvm::CallBase &Call, MathOp Op);
  void tangentComplexMath(llvm::CallBase &Call, MathOp Op);
  bool isAtomicAccumulation(llvm::Instruction &I) const;
  void tangentAtomicAccumulation(llvm::AtomicRMWInst &RMW);
  void tangentParallelCall(llvm::CallBase &Call, const DiffSignature &S,
                           llvm::ArrayRef<llvm::Value *> Args);
  void tangentDifferentiatedCall(llvm::CallBase &Call);
  void tangentMemTransfer(llvm::CallBase &Call);
  void tangentAllocation(llvm::CallBase &Call, CalleeKind Kind);
  void zeroLibraryOutputs(llvm::CallBase &Call);
  void tangentNestedRuntime(llvm::CallBase &Call, NestedRuntime Kind);
  void tangentGradientRuntime(llvm::CallBase &Call, NestedRuntime Kind);

  // ---- Checkpointed gradients (CheckpointedTangents.cpp) ----
  void tangentCheckpointedGradient(llvm::CallBase &Call);
  TangentGradientArgs tangentGradientArgs(llvm::CallBase &Call,
                                          const GradientRequest &Inner,
                                          llvm::IRBuilder<> &B);
  void replaceCheckpointedResult(llvm::CallBase &Call,
                                 const GradientRequest &Inner,
                                 llvm::IRBuilder<> &B, llvm::Value *Result,
                                 llvm::Value *ResultTangent);

  /// The clone of primal value \p V.
  llvm::Value *primal(llvm::Value *V);
  /// The twin of \p V, or null where it is zero (or, for a pointer, where
  /// there is no shadow).
  llvm::Value *twin(llvm::Value *V);
  /// The shadow of the memory \p Ptr points to: its twin where the
  /// activity gives it one, null for memory without derivatives.
  llvm::Value *shadowOf(llvm::Value *Ptr);
  /// The twin of \p V as a value: zero where there is none.
  llvm::Value *twinOrZero(llvm::Value *V);
  /// The twin of \p V where it meets shadowed memory or pointers that have
  /// shadows: a pointer without a shadow gets its place in the tangent
  /// sink, so that it comes back with a usable one.
  llvm::Value *twinOrSink(llvm::IRBuilder<> &B, llvm::Value *V);
  llvm::Value *twinOfLoadedPointer(llvm::IRBuilder<> &B, llvm::Value *Slot,
                                   llvm::Value *Primal, llvm::Value *Loaded);
  /// The twin of the aggregate \p Agg that a field with a twin is being
  /// inserted into: where Agg has none, the insertvalue chain that built
  /// it, its pointers in the sink.
  llvm::Value *aggregateTwinOrSink(llvm::IRBuilder<> &B, llvm::Value *Agg);
  void setTwin(llvm::Value *V, llvm::Value *Twin);
  /// A builder placed right after the clone of \p I.
  llvm::IRBuilder<> after(llvm::Instruction &I);
  llvm::Value *tangentRealloc(llvm::IRBuilder<> &B, llvm::CallBase &Call,
                              llvm::Value *Old);
  void unsupported(const llvm::Instruction &I, const llvm::Twine &Why);

  Differentiator &D;
  DiffSignature Sig;
  /// Tangents per value (Forward/Lanes.h).
  unsigned W;
  llvm::Function &P;
  llvm::Function &T;
  ActivityInfo AI;
  const llvm::DataLayout &DL;
  DifferentiabilityChecks Checks;
  llvm::ValueToValueMapTy Map;
  llvm::DenseMap<llvm::Value *, llvm::Value *> Twins;
  /// Vector mode: alias scopes of primal memory and of each lane's shadows,
  /// which never overlap.
  llvm::MDNode *PrimalScope = nullptr;
  llvm::SmallVector<llvm::MDNode *, 8> LaneScopes;
  /// (primal phi, its twin), completed once every block has its twins.
  llvm::SmallVector<std::pair<llvm::PHINode *, llvm::PHINode *>, 8> Phis;
};

} // namespace capsule

#endif
