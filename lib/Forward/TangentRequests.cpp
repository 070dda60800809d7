//===- TangentRequests.cpp - Lowers forward-mode marker calls -------------===//
#include "Forward/TangentRequests.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace capsule {

/// Hands the tangent of the result to the caller in the form the parser
/// checked: nothing, the value (a floating-point result converted to the
/// marker's type; 0 for a function without an active result), or the sret
/// slot.
static Value *packTangent(IRBuilder<> &B, const GradientRequest &R,
                          Value *Tangent) {
  Type *RetTy = R.Call->getType();
  if (R.ResultSlot) {
    B.CreateStore(Tangent, R.ResultSlot);
    return nullptr;
  }
  if (RetTy->isVoidTy())
    return nullptr;
  if (!Tangent)
    return Constant::getNullValue(RetTy);
  if (RetTy->isFloatingPointTy())
    return B.CreateFPCast(Tangent, RetTy);
  if (RetTy == Tangent->getType())
    return Tangent;
  // The ABI's coerced register type of an aggregate: read back from its
  // memory image.
  Function *Caller = B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&Caller->getEntryBlock(),
                    Caller->getEntryBlock().getFirstInsertionPt());
  AllocaInst *Image = Entry.CreateAlloca(Tangent->getType());
  B.CreateStore(Tangent, Image);
  return B.CreateLoad(RetTy, Image);
}

/// A marker called with an invoke (inside a try block, or where a
/// destructor is pending) gets the tangent call as an invoke to the same
/// landing pad: an exception thrown by the function reaches the user's
/// handler. The marker invoke, erased later, ends the block split off.
static void unwindLikeMarker(InvokeInst &Marker, CallInst &TangentCall) {
  BasicBlock *Before = TangentCall.getParent();
  BasicBlock *LandingPad = Marker.getUnwindDest();
  changeToInvokeAndSplitBasicBlock(&TangentCall, LandingPad);
  for (PHINode &Phi : LandingPad->phis())
    Phi.addIncoming(Phi.getIncomingValueForBlock(Marker.getParent()), Before);
}

void lowerTangentRequest(Differentiator &D, const GradientRequest &R) {
  CallBase &Call = *R.Call;
  RuntimeABI &ABI = D.abi();
  Function *Tan = D.get(R.Sig).Tangent;
  IRBuilder<> B(&Call);
  B.CreateCall(ABI.tangentBegin());
  // Globals passed as dup arguments: their shadow globals take the user's
  // tangents in, and give the results back, overwritten, after the call.
  Differentiator::ShadowBinding SB = D.bindShadowGlobals(B, R);
  SmallVector<Value *, 12> Args(R.Args.begin(), R.Args.end());
  auto Shadow = SB.Shadows.begin();
  auto Tangent = R.Tangents.begin();
  for (ArgActivity A : R.Sig.Args)
    if (A == ArgActivity::Dup)
      Args.push_back(*Shadow++);
    else if (A == ArgActivity::Out)
      Args.push_back(*Tangent++);
  CallInst *Result = B.CreateCall(Tan, Args);
  D.unbindShadowGlobals(B, SB);
  Value *ResultTangent = nullptr;
  if (Tan->getReturnType() != R.Sig.Fn->getReturnType())
    ResultTangent = B.CreateExtractValue(Result, 1);
  if (Value *V = packTangent(B, R, ResultTangent))
    Call.replaceAllUsesWith(V);
  if (auto *II = dyn_cast<InvokeInst>(&Call))
    unwindLikeMarker(*II, *Result);
}

} // namespace capsule
