//===- SplitGradient.cpp - Split mode: a gradient in two halves
//------------===//
#include "Reverse/SplitGradient.h"

#include "Reverse/Differentiator.h"
#include "Support/Diagnostics.h"
#include "Support/MarkerCalls.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

namespace {

/// The bytes of the memory that keeps a tape: a pointer's.
uint64_t tapeBytes(const Module &M) {
  return M.getDataLayout().getPointerSize();
}

/// enzyme_allocated's bytes must hold the tape: checked here when constant
/// (a failure is reported and noted), else by the runtime.
bool checkTapeBytes(IRBuilder<> &B, Differentiator &D,
                    const GradientRequest &R) {
  if (!R.TapeBytes)
    return true;
  uint64_t Needed = tapeBytes(*R.Call->getModule());
  if (auto *Bytes = dyn_cast<ConstantInt>(R.TapeBytes)) {
    if (Bytes->getValue().uge(Needed))
      return true;
    reportBadMarkerCall(*R.Call, "enzyme_allocated gives " +
                                     Twine(Bytes->getZExtValue()) +
                                     " bytes for the tape; it needs " +
                                     Twine(Needed) + " (__enzyme_augmentsize)");
    D.noteFailure();
    return false;
  }
  B.CreateCall(D.abi().splitCheckBytes(),
               {B.CreateZExtOrTrunc(R.TapeBytes, B.getInt64Ty())});
  return true;
}

/// What the augmented half returns (GradientRequest::ReturnTape, ...): one
/// value, a struct of them, or null for nothing. \p Result is the forward
/// sweep's: f's result, or {result, shadow} for a pointer result.
Value *augmentResult(IRBuilder<> &B, const GradientRequest &R, Value *Tape,
                     Value *Result) {
  Type *RetTy = R.Sig.Fn->getReturnType();
  SmallVector<Value *, 3> Fields;
  if (R.ReturnTape)
    Fields.push_back(Tape);
  if (R.ReturnPrimal)
    Fields.push_back(
        Result->getType() == RetTy ? Result : B.CreateExtractValue(Result, 0));
  if (R.ReturnShadow)
    Fields.push_back(Result->getType() == RetTy
                         ? Constant::getNullValue(RetTy)
                         : B.CreateExtractValue(Result, 1));
  if (Fields.size() <= 1)
    return Fields.empty() ? nullptr : Fields[0];
  SmallVector<Type *, 3> Types;
  for (Value *V : Fields)
    Types.push_back(V->getType());
  Value *Struct = PoisonValue::get(StructType::get(B.getContext(), Types));
  for (auto [K, V] : enumerate(Fields))
    Struct = B.CreateInsertValue(Struct, V, K);
  return Struct;
}

} // namespace

void lowerAugmentRequest(Differentiator &D, const GradientRequest &R) {
  RuntimeABI &ABI = D.abi();
  Derivative Dv = D.get(R.Sig);
  IRBuilder<> B(R.Call);
  if (!checkTapeBytes(B, D, R))
    return;
  CallInst *Split = B.CreateCall(ABI.splitBegin(), {Dv.Rev});
  Differentiator::ShadowBinding SB = D.bindShadowGlobals(B, R);
  // Kept apart from other gradients' between the halves (abi.h).
  D.keepShadowGlobals(*Split, SB, ABI.splitKeepGlobals(), {Split});
  SmallVector<Value *, 12> FwdArgs(R.Args.begin(), R.Args.end());
  FwdArgs.append(SB.Shadows.begin(), SB.Shadows.end());
  Value *Result = B.CreateCall(Dv.Fwd, FwdArgs);
  Value *Tape = B.CreateCall(ABI.splitForwardDone(), {Split});
  if (R.TapeInMemory)
    B.CreateStore(Tape, R.Tape);
  replaceMarkerResult(B, R, augmentResult(B, R, Tape, Result));
}

void lowerReverseRequest(Differentiator &D, const GradientRequest &R) {
  RuntimeABI &ABI = D.abi();
  Derivative Dv = D.get(R.Sig);
  IRBuilder<> B(R.Call);
  if (!checkTapeBytes(B, D, R))
    return;
  Value *Tape =
      R.TapeInMemory ? B.CreateLoad(B.getPtrTy(), R.Tape, "tape") : R.Tape;
  B.CreateCall(ABI.splitReverseBegin(), {Tape, Dv.Rev});
  SmallVector<Value *, 1> Seed;
  if (R.Sig.ActiveReturn)
    Seed.push_back(R.ResultAdjoint);
  Value *Adjoints = B.CreateCall(Dv.Rev, Seed);
  D.unbindShadowGlobals(B, D.boundShadowGlobals(B, R));
  B.CreateCall(ABI.splitEnd(), {Tape});
  replaceMarkerResult(B, R, Adjoints);
}

void lowerAugmentSize(CallBase &Call) {
  // parseAugmentSize checked that the call returns an integer.
  Call.replaceAllUsesWith(
      ConstantInt::get(Call.getType(), tapeBytes(*Call.getModule())));
}

} // namespace capsule
