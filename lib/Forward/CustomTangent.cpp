//===- CustomTangent.cpp - A tangent function that calls a user's rule ----===//
#include "Forward/CustomTangent.h"

#include "Support/CustomRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace capsule {

void emitTangentRuleBody(RuntimeABI &ABI, const DiffSignature &Sig,
                         Function &Rule, Function &Tangent) {
  IRBuilder<> B(BasicBlock::Create(Tangent.getContext(), "entry", &Tangent));
  Function &Fn = *Sig.Fn;
  // The tangent function's twins follow the primal arguments, one per
  // argument that is not const.
  unsigned NextTwin = Fn.arg_size();
  SmallVector<Value *, 8> Args;
  for (unsigned K = 0; K < Fn.arg_size(); ++K) {
    Value *V = Tangent.getArg(K);
    Args.push_back(V);
    if (Sig.Args[K] != ArgActivity::Const)
      Args.push_back(Tangent.getArg(NextTwin++));
    else if (V->getType()->isPointerTy())
      Args.push_back(B.CreateCall(ABI.tangentSinkOf(), {V}));
    else if (hasShadowParam(V->getType()))
      Args.push_back(V);
    else
      Args.push_back(Constant::getNullValue(V->getType()));
  }
  Value *Result = callRule(B, Rule, Args);
  Type *Ret = Fn.getReturnType();
  if (Ret->isVoidTy())
    return void(B.CreateRetVoid());
  if (!Ret->isFPOrFPVectorTy())
    return void(B.CreateRet(Result));
  Value *Pair = UndefValue::get(Tangent.getReturnType());
  for (unsigned K = 0; K < 2; ++K)
    Pair = B.CreateInsertValue(Pair, resultField(B, Result, K, 2), K);
  B.CreateRet(Pair);
}

} // namespace capsule
