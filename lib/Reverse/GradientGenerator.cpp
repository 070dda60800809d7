//===- GradientGenerator.cpp - Generates one derivative -------------------===//
#include "Reverse/GradientGenerator.h"
#include "Reverse/CustomGradient.h"
#include "Support/CustomRules.h"
#include "Support/Diagnostics.h"
#include "Support/GeneratedCode.h"
#include "Support/Lanes.h"
#include "Support/LibraryRules.h"
#include "Support/ParallelRegions.h"
#include "Support/RuntimeStateInRegisters.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace capsule {

GradientGenerator::GradientGenerator(Differentiator &D,
                                     const DiffSignature &Sig,
                                     Function &Prepared, Derivative Target,
                                     FunctionAnalysisManager &FAM)
    : D(D), Sig(Sig), W(Sig.Width), Checkpointed(isCheckpointedCode(*Sig.Fn)),
      P(Prepared), Target(Target), AI(Prepared, this->Sig),
      DL(Prepared.getDataLayout()), Checks(AI, DL),
      Loops(FAM.getResult<LoopAnalysis>(Prepared)),
      SE(FAM.getResult<ScalarEvolutionAnalysis>(Prepared)),
      AA(FAM.getResult<AAManager>(Prepared)), RB(Prepared.getContext()) {}

void GradientGenerator::run() {
  for (BasicBlock &BB : P)
    if (isa<ReturnInst>(BB.getTerminator()))
      Exit = &BB;
  // Only blocks on a path to the return are ever reversed; the others end
  // the program (abort, exit, unreachable) before any reverse sweep runs.
  if (Exit) {
    SmallVector<BasicBlock *, 16> Work{Exit};
    ReachesExit.insert(Exit);
    while (!Work.empty())
      for (BasicBlock *Pred : predecessors(Work.pop_back_val()))
        if (ReachesExit.insert(Pred).second)
          Work.push_back(Pred);
  }
  for (BasicBlock &BB : P) {
    auto &Ps = Preds[&BB];
    for (BasicBlock *Pred : predecessors(&BB))
      if (!is_contained(Ps, Pred))
        Ps.push_back(Pred);
  }
  if (refusedSimdInVectorMode())
    return;
  if (Sig.Untaped) {
    buildForward();
    return;
  }
  findInductionVariables();
  findWriters();
  findReloadableLoads();
  buildReverse();
  buildForward();

  // Adjoint slots and loop-invariant caches become registers.
  DominatorTree RevDT(*Target.Rev);
  SmallVector<AllocaInst *, 32> Slots;
  for (auto &[V, Slot] : AdjointSlots)
    Slots.push_back(Slot);
  for (auto &[Key, Slot] : CacheSlots)
    Slots.push_back(Slot);
  if (!Slots.empty())
    PromoteMemToReg(Slots, RevDT);
  keepTapeInRegisters(*Target.Fwd, D.abi());
  keepTapeInRegisters(*Target.Rev, D.abi());
}

Type *GradientGenerator::twinType(Type *T) const { return laneType(T, W); }

Constant *GradientGenerator::constantShadow(Constant *C) {
  if (W == 1)
    return D.shadowOfConstant(C, /*Lane=*/0, Sig.Level);
  Type *T = C->getType();
  if (T->isPointerTy()) {
    SmallVector<Constant *, 8> Lanes;
    for (unsigned Lane = 0; Lane < W; ++Lane) {
      Constant *S = D.shadowOfConstant(C, Lane, Sig.Level);
      Lanes.push_back(S ? S : Constant::getNullValue(T));
    }
    return ConstantVector::get(Lanes);
  }
  if (!T->isAggregateType() || !carriesPointer(T))
    return nullptr;
  // Field by field: a constant struct may hold the address of a global.
  SmallVector<Constant *, 4> Fields;
  unsigned N =
      isa<StructType>(T) ? T->getStructNumElements() : T->getArrayNumElements();
  for (unsigned I = 0; I < N; ++I) {
    Constant *Field = C->getAggregateElement(I);
    if (!Field)
      return nullptr;
    Constant *S = constantShadow(Field);
    Fields.push_back(S ? S
                       : Constant::getNullValue(twinType(Field->getType())));
  }
  if (auto *ST = dyn_cast<StructType>(twinType(T)))
    return ConstantStruct::get(ST, Fields);
  return ConstantArray::get(cast<ArrayType>(twinType(T)), Fields);
}

Value *GradientGenerator::scaledAdjoint(IRBuilder<> &B, Value *Adj,
                                        Value *Partial) {
  return B.CreateFMul(Adj, splatLanes(B, Partial, W));
}

Value *
GradientGenerator::shadowOfAddress(IRBuilder<> &B, Instruction &I,
                                   Value *BaseShadow,
                                   function_ref<Value *(Value *)> Operand) {
  if (W == 1) {
    Instruction *Twin = I.clone();
    Twin->setOperand(0, BaseShadow);
    for (unsigned K = 1; K < I.getNumOperands(); ++K)
      Twin->setOperand(K, Operand(I.getOperand(K)));
    return B.Insert(Twin);
  }
  // The same operation on the lanes of shadows, whose type differs from the
  // primal's.
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    SmallVector<Value *, 4> Indices;
    for (Use &Index : GEP->indices())
      Indices.push_back(Operand(Index));
    return B.CreateGEP(GEP->getSourceElementType(), BaseShadow, Indices, "",
                       GEP->getNoWrapFlags());
  }
  if (isa<AddrSpaceCastInst>(I))
    return B.CreateAddrSpaceCast(BaseShadow, twinType(I.getType()));
  if (isa<FreezeInst>(I))
    return B.CreateFreeze(BaseShadow);
  return B.CreateExtractValue(BaseShadow,
                              cast<ExtractValueInst>(I).getIndices());
}

/// Whether \p T is or holds an LLVM vector (SIMD values).
static bool holdsSimd(Type *T) {
  if (isa<VectorType>(T))
    return true;
  if (auto *S = dyn_cast<StructType>(T))
    return any_of(S->elements(), holdsSimd);
  if (auto *A = dyn_cast<ArrayType>(T))
    return holdsSimd(A->getElementType());
  return false;
}

/// SIMD values with derivatives would need lanes of lanes: the first is
/// refused.
bool GradientGenerator::refusedSimdInVectorMode() {
  if (W == 1)
    return false;
  auto Differentiated = [&](Value *V) {
    return holdsSimd(V->getType()) && (AI.isActive(V) || AI.hasShadow(V));
  };
  for (Instruction &I : instructions(P))
    if (Differentiated(&I) ||
        any_of(I.operands(), [&](Use &U) { return Differentiated(U); })) {
      unsupported(I, "vector mode (enzyme_width) of code with SIMD vector "
                     "values is not supported yet");
      return true;
    }
  return false;
}

bool GradientGenerator::refusedInVectorMode(const Instruction &I,
                                            const Twine &What) {
  if (W == 1)
    return false;
  unsupported(I, "vector mode (enzyme_width) in reverse mode through " + What +
                     " is not supported yet");
  return true;
}

bool GradientGenerator::callRefusedInVectorMode(const CallBase &Call) {
  if (W == 1)
    return false;
  if (isParallelRegionCall(Call))
    return refusedInVectorMode(Call, "an OpenMP parallel region");
  // An indirect call may reach any function of its type whose address is
  // taken; one of them with a rule is refused as a direct call would be.
  SmallVector<Function *, 4> Callees;
  if (Function *Callee = Call.getCalledFunction())
    Callees.push_back(Callee);
  else
    Callees = indirectCallTargets(*P.getParent(), Call.getFunctionType());
  for (Function *Callee : Callees) {
    std::optional<GradientRule> Rule = gradientRule(*Callee);
    if (!Rule || gradientRuleRunsPerLane(*Callee))
      continue;
    if (std::optional<StringRef> Routine = libraryRoutineOfRule(*Rule->Augment))
      return refusedInVectorMode(Call, "the built-in rule of the library "
                                       "routine '" +
                                           *Routine + "'");
    return refusedInVectorMode(Call, "the gradient rule of '" +
                                         displayName(*Callee) +
                                         "', which takes or returns pointers "
                                         "or keeps a tape,");
  }
  return false;
}

} // namespace capsule
