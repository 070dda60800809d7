//===- GeneratedCode.cpp - What generated code shares ---------------------===//
#include "Support/GeneratedCode.h"

#include "Analysis/Signature.h"
#include "Support/Diagnostics.h"

#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace capsule {

static bool isGenerated(const Function &F) {
  return F.getName().contains(".capsule.") && !F.isDeclaration();
}

void eraseMarkerCall(CallBase &Call) {
  SmallVector<WeakTrackingVH, 8> Operands(Call.arg_begin(), Call.arg_end());
  if (!Call.use_empty())
    Call.replaceAllUsesWith(PoisonValue::get(Call.getType()));
  if (auto *II = dyn_cast<InvokeInst>(&Call)) {
    II->getUnwindDest()->removePredecessor(II->getParent());
    BranchInst::Create(II->getNormalDest(), II->getIterator());
  }
  Call.eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Operands);
}

SmallPtrSet<CallInst *, 16> callsBeforeLowering(CallBase &Marker) {
  SmallPtrSet<CallInst *, 16> Calls;
  if (isa<InvokeInst>(Marker))
    for (Instruction &I : instructions(*Marker.getFunction()))
      if (auto *Call = dyn_cast<CallInst>(&I))
        Calls.insert(Call);
  return Calls;
}

void routeThrowsToUnwind(CallBase &Marker,
                         const SmallPtrSetImpl<CallInst *> &Before) {
  auto *Invoke = dyn_cast<InvokeInst>(&Marker);
  if (!Invoke)
    return;
  BasicBlock *Unwind = Invoke->getUnwindDest();
  SmallVector<CallInst *, 4> MayThrow;
  for (Instruction &I : instructions(*Marker.getFunction()))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (!Before.contains(Call) && !Call->doesNotThrow() &&
          !isa<IntrinsicInst>(Call))
        MayThrow.push_back(Call);
  for (CallInst *Call : MayThrow) {
    BasicBlock *From = Call->getParent();
    // The landing pad's phis take, from the new edge, what they take from
    // the marker's: values from before the lowering.
    changeToInvokeAndSplitBasicBlock(Call, Unwind);
    for (PHINode &Phi : Unwind->phis())
      Phi.addIncoming(Phi.getIncomingValueForBlock(Invoke->getParent()), From);
  }
}

CallInst &forwardingCall(Function &Callee, const Twine &Name) {
  Function *Caller =
      Function::Create(Callee.getFunctionType(), GlobalValue::InternalLinkage,
                       Name, Callee.getParent());
  IRBuilder<> B(BasicBlock::Create(Callee.getContext(), "entry", Caller));
  SmallVector<Value *, 8> Args(make_pointer_range(Caller->args()));
  CallInst *Call = B.CreateCall(&Callee, Args);
  if (Callee.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
  return *Call;
}

void eraseUnusedGlobals(Module &M, ArrayRef<GlobalVariable *> Globals) {
  removeFromUsedLists(M, [&](Constant *C) { return is_contained(Globals, C); });
  for (GlobalVariable *G : Globals) {
    // The replaced used lists may linger as dead constants using it.
    G->removeDeadConstantUsers();
    if (G->use_empty())
      G->eraseFromParent();
  }
}

void verifyGenerated(Module &M) {
  // After an error the compilation fails anyway, and code generated up to
  // it may be unfinished.
  if (errorsReported(M.getContext()))
    return;
  // One verifier for the module: each verifyFunction would walk again the
  // debug-info types every subprogram reaches, which for C++ templates
  // compiled with -g is most of the module's metadata.
  std::string Errors;
  raw_string_ostream OS(Errors);
  if (verifyModule(M, &OS))
    report_fatal_error(Twine("capsule: internal error: invalid code "
                             "generated:\n") +
                       Errors);
}

void cleanUpGenerated(Module &M, FunctionPassManager &Cleanup,
                      FunctionAnalysisManager &FAM) {
  for (Function &F : M)
    if (isGenerated(F))
      Cleanup.run(F, FAM);
}

void dropPrimalOnlyAttributes(Function &Derivative, bool ReturnTypeChanged) {
  Derivative.removeFnAttr(Attribute::Memory);
  Derivative.removeFnAttr(Attribute::NoFree);
  Derivative.removeFnAttr(Attribute::Speculatable);
  Derivative.removeFnAttr(Attribute::NoSync);
  if (!ReturnTypeChanged)
    return;
  Derivative.removeRetAttrs(
      AttributeFuncs::typeIncompatible(Derivative.getReturnType()));
  // An argument the primal returns is no longer what the derivative
  // returns ({result, its tangent or shadow}).
  for (unsigned I = 0; I < Derivative.arg_size(); ++I)
    Derivative.removeParamAttr(I, Attribute::Returned);
}

Value *movedLikeIts(IRBuilder<> &B, Value *Shadow, Value *From, Value *To) {
  Value *Offset = B.CreateSub(B.CreatePtrToInt(To, B.getInt64Ty()),
                              B.CreatePtrToInt(From, B.getInt64Ty()));
  Value *Moved = B.CreateGEP(B.getInt8Ty(), Shadow, Offset);
  return B.CreateSelect(B.CreateIsNull(To),
                        Constant::getNullValue(Shadow->getType()), Moved);
}

Value *allocatedBytes(IRBuilder<> &B, CalleeKind Kind,
                      function_ref<Value *(unsigned)> Arg) {
  switch (Kind) {
  case CalleeKind::Alloc: // malloc(size), new(size)
    return Arg(0);
  case CalleeKind::Calloc: // calloc(count, size)
    return B.CreateMul(Arg(0), Arg(1));
  case CalleeKind::AlignedAlloc: // aligned_alloc(alignment, size)
    return Arg(1);
  default:
    llvm_unreachable("not an allocation");
  }
}

/// *Ptr += V atomically, field by field and lane by lane.
void addAtomically(IRBuilder<> &B, const DataLayout &DL, Value *Ptr, Value *V) {
  Type *T = V->getType();
  if (T->isFloatingPointTy()) {
    B.CreateAtomicRMW(AtomicRMWInst::FAdd, Ptr, V, DL.getABITypeAlign(T),
                      AtomicOrdering::Monotonic);
    return;
  }
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    for (unsigned K = 0; K < VT->getNumElements(); ++K)
      addAtomically(B, DL,
                    B.CreateConstInBoundsGEP1_64(VT->getElementType(), Ptr, K),
                    B.CreateExtractElement(V, K));
    return;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    for (unsigned K = 0; K < ST->getNumElements(); ++K)
      if (carriesFloat(ST->getElementType(K)))
        addAtomically(B, DL, B.CreateStructGEP(ST, Ptr, K),
                      B.CreateExtractValue(V, K));
    return;
  }
  if (auto *AT = dyn_cast<ArrayType>(T))
    for (unsigned K = 0; K < AT->getNumElements(); ++K)
      addAtomically(B, DL, B.CreateConstInBoundsGEP2_64(AT, Ptr, 0, K),
                    B.CreateExtractValue(V, K));
}

} // namespace capsule
