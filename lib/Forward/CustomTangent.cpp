//===- CustomTangent.cpp - A tangent function that calls a user's rule ----===//
#include "Forward/CustomTangent.h"

#include "Support/CustomRules.h"
#include "Support/Lanes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace capsule {

void emitTangentRuleBody(RuntimeABI &ABI, const DiffSignature &Sig,
                         Function &Rule, Function &Tangent) {
  IRBuilder<> B(BasicBlock::Create(Tangent.getContext(), "entry", &Tangent));
  Function &Fn = *Sig.Fn;
  unsigned W = Sig.Width;
  // In vector mode (a function without pointers: rulesCallablePerLane) the
  // rule runs once per lane, the primal result taken from the first.
  SmallVector<Value *, 8> Results;
  for (unsigned Lane = 0; Lane < W; ++Lane) {
    // The tangent function's twins follow the primal arguments, one per
    // argument that is not const.
    unsigned NextTwin = Fn.arg_size();
    SmallVector<Value *, 8> Args;
    for (unsigned K = 0; K < Fn.arg_size(); ++K) {
      Value *V = Tangent.getArg(K);
      Args.push_back(V);
      if (Sig.Args[K] != ArgActivity::Const)
        Args.push_back(laneOf(B, Tangent.getArg(NextTwin++), Lane, W));
      else if (V->getType()->isPointerTy())
        Args.push_back(B.CreateCall(ABI.tangentSinkOf(), {V}));
      else if (hasShadowParam(V->getType()))
        Args.push_back(V);
      else
        Args.push_back(Constant::getNullValue(V->getType()));
    }
    Results.push_back(callRule(B, Rule, Args));
  }
  Type *Ret = Fn.getReturnType();
  if (Ret->isVoidTy())
    return void(B.CreateRetVoid());
  // {result, tangents} for a floating-point or pointer result (the
  // pointer's shadow: vector mode does not call such rules).
  if (Tangent.getReturnType() == Ret)
    return void(B.CreateRet(Results[0]));
  Value *Pair = UndefValue::get(Tangent.getReturnType());
  Pair = B.CreateInsertValue(Pair, resultField(B, Results[0], 0, 2), 0);
  Pair = B.CreateInsertValue(Pair,
                             makeLanes(B, W,
                                       [&](unsigned Lane) {
                                         return resultField(B, Results[Lane], 1,
                                                            2);
                                       }),
                             1);
  B.CreateRet(Pair);
}

} // namespace capsule
