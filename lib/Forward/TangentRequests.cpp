//===- TangentRequests.cpp - Lowers forward-mode marker calls -------------===//
#include "Forward/TangentRequests.h"

#include "Support/Lanes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace capsule {

/// What the marker returns, from the tangent function's result \p Result
/// ({result, tangent}, or the result alone when it has no tangent): the
/// tangent, the result, both ({result, tangent}), or nothing. Vector mode's
/// tangents come back as an array, lane after lane.
static Value *markerResult(IRBuilder<> &B, const GradientRequest &R,
                           Value *Result) {
  Type *RetTy = R.Sig.Fn->getReturnType();
  unsigned W = R.Sig.Width;
  bool HasTangent = Result->getType() != RetTy;
  Value *Primal = HasTangent ? B.CreateExtractValue(Result, 0) : Result;
  Value *Tangent = HasTangent ? B.CreateExtractValue(Result, 1) : nullptr;
  Type *TangentTy = W > 1 ? ArrayType::get(RetTy, W) : RetTy;
  if (Tangent && W > 1)
    Tangent = lanesAsArray(B, RetTy, Tangent, W);
  if (!R.ReturnPrimal)
    return R.ReturnTangent ? Tangent : nullptr;
  if (!R.ReturnTangent)
    return Primal;
  auto *Ty = StructType::get(RetTy, TangentTy);
  Value *Pair = B.CreateInsertValue(PoisonValue::get(Ty), Primal, 0);
  return B.CreateInsertValue(
      Pair, Tangent ? Tangent : Constant::getNullValue(TangentTy), 1);
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
  replaceMarkerResult(B, R, markerResult(B, R, Result));
  if (auto *II = dyn_cast<InvokeInst>(&Call))
    unwindLikeMarker(*II, *Result);
}

} // namespace capsule
