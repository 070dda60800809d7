//===- CheckpointedTangents.cpp - Tangents of checkpointed gradients ------===//
//
// Forward mode over __capsule_autodiff_checkpointed: the Hessian-vector
// product of a long run, in the checkpointed memory bound.
//
// The tangent of a gradient is itself a gradient, of the tangent function.
// The checkpointed gradient of f with seed s (the adjoints of f's result
// and outputs) computes g = grad_x (s . f(x)); its tangent along xdot, with
// the seed's tangent sdot, is gdot = H(s . f) xdot + grad_x (sdot . f).
// Reverse mode over the tangent function T(x, xdot) = (f(x), f'(x) xdot),
// seeded with sdot on f's result and s on its tangent, gives
//   adjoint of x    = grad_x (sdot . f) + H(s . f) xdot = gdot,
//   adjoint of xdot = f'(x)^T s                         = g.
// So the tangent of the checkpointed gradient of f is the checkpointed
// gradient of T, with the roles of the inner call's shadows (adjoints) and
// the outer tangents swapped: x's shadow is the tangent of dx, xdot's
// shadow is dx. The checkpointed driver runs T (twice f's state) with
// memory that grows with the logarithm of the run's length, and nothing of
// the checkpointing machinery is differentiated.
//
// Arguments the inner call holds constant but the outer one varies (a
// parameter p) enter T with their tangents and stay constant for the
// gradient: their tangents bring the mixed terms H_xp pdot into gdot.
//===----------------------------------------------------------------------===//
#include "Forward/TangentGenerator.h"

#include "Support/Diagnostics.h"
#include "Support/GeneratedCode.h"
#include "Support/MarkerCalls.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

/// What forward mode over a checkpointed gradient does not handle yet.
static std::optional<std::string>
whyNoCheckpointedTangent(const GradientRequest &Inner) {
  Function &F = *Inner.Sig.Fn;
  if (Inner.ReturnPrimal && !F.getReturnType()->isFloatingPointTy())
    return std::string("forward mode over a checkpointed gradient that also "
                       "returns the function's result (enzyme_primal_return), "
                       "not a floating-point number, is not supported yet");
  if (any_of(F.args(), [](const Argument &A) { return A.hasByValAttr(); }))
    return "forward mode over a checkpointed gradient of '" + displayName(F) +
           "', which takes a struct by value, is not supported yet (pass it "
           "by pointer)";
  return std::nullopt;
}

/// The root of the checkpointed gradient: T's parameters, calling T and
/// returning the tangent of f's result when the inner call seeds it. With
/// \p KeepsResult, a last parameter points to where f's result and its
/// tangent go (enzyme_primal_return): memory without derivatives to the
/// gradient.
static Function *tangentRoot(Function &F, Function &Tangent, bool Seeded,
                             bool KeepsResult) {
  LLVMContext &C = F.getContext();
  Type *RetTy = Seeded ? F.getReturnType() : Type::getVoidTy(C);
  SmallVector<Type *, 12> Params(Tangent.getFunctionType()->params());
  if (KeepsResult)
    Params.push_back(PointerType::getUnqual(C));
  Function *Root = Function::Create(
      FunctionType::get(RetTy, Params, false), GlobalValue::InternalLinkage,
      F.getName() + ".capsule.checkpointed.tangent", F.getParent());
  IRBuilder<> B(BasicBlock::Create(C, "entry", Root));
  SmallVector<Value *, 12> Args(make_pointer_range(Root->args()));
  if (KeepsResult)
    Args.pop_back();
  CallInst *Result = B.CreateCall(&Tangent, Args);
  if (KeepsResult) {
    Value *Kept = Root->getArg(Params.size() - 1);
    Type *Ty = F.getReturnType();
    B.CreateStore(B.CreateExtractValue(Result, 0), Kept);
    B.CreateStore(B.CreateExtractValue(Result, 1),
                  B.CreateConstGEP1_64(Ty, Kept, 1));
  }
  if (!Seeded)
    B.CreateRetVoid();
  else
    B.CreateRet(B.CreateExtractValue(Result, 1));
  return Root;
}

/// The checkpointed gradient of the tangent function, its arguments in the
/// order of the root's parameters: f's (the inner call's), then the
/// tangents of those that have one, then where f's result goes.
struct TangentGradientArgs {
  /// The tangent function's signature.
  DiffSignature TangentSig;
  /// The gradient's activities: the inner call's, then the tangents'.
  SmallVector<ArgActivity, 8> Primals, Tangents;
  SmallVector<Value *, 8> TangentArgs;
  /// The shadows of its dup arguments: the tangents of the inner shadows
  /// for f's arguments, the inner shadows for their tangents.
  SmallVector<Value *, 8> PrimalShadows, TangentShadows;
};

TangentGradientArgs TangentGenerator::tangentGradientArgs(
    CallBase &Call, const GradientRequest &Inner, IRBuilder<> &B) {
  Function &F = *Inner.Sig.Fn;
  TangentGradientArgs G;
  G.TangentSig.Fn = &F;
  G.TangentSig.Tangent = true;
  G.TangentSig.Level = Sig.Level;
  G.TangentSig.ActiveReturn = carriesFloat(F.getReturnType());
  unsigned NextShadow = 0;
  for (auto [K, Activity] : enumerate(Inner.Sig.Args)) {
    Value *Operand = Call.getArgOperand(Inner.ArgOperands[K]);
    Type *ParamTy = F.getArg(K)->getType();
    Value *Tangent = nullptr;
    if (Activity == ArgActivity::Dup) {
      Tangent = twinOrSink(B, Operand);
      Value *Shadow = Call.getArgOperand(Inner.ArgOperands[K] + 1);
      G.PrimalShadows.push_back(twinOrSink(B, Shadow));
      G.TangentShadows.push_back(Inner.Shadows[NextShadow++]);
    } else if (ParamTy->isPointerTy()) {
      Tangent = shadowOf(Operand);
    } else if (carriesFloat(ParamTy)) {
      Tangent =
          Activity == ArgActivity::Out ? twinOrZero(Operand) : twin(Operand);
      if (Tangent)
        Tangent = B.CreateFPCast(Tangent, ParamTy);
    }
    G.TangentSig.Args.push_back(!Tangent ? ArgActivity::Const
                                : Activity == ArgActivity::Dup ||
                                        ParamTy->isPointerTy()
                                    ? ArgActivity::Dup
                                    : ArgActivity::Out);
    G.Primals.push_back(Activity);
    if (Tangent) {
      G.TangentArgs.push_back(Tangent);
      G.Tangents.push_back(Activity);
    }
  }
  return G;
}

void TangentGenerator::tangentCheckpointedGradient(CallBase &Call) {
  if (W > 1)
    return unsupported(Call, "vector mode (enzyme_width) over a checkpointed "
                             "gradient is not supported yet");
  // The marker pass parsed the user's call and dropped it if malformed.
  auto *Clone = cast<CallBase>(Map[&Call]);
  std::optional<GradientRequest> Inner = parseGradientRequest(*Clone);
  if (!Inner)
    return D.noteFailure();
  if (std::optional<std::string> Why = whyNoCheckpointedTangent(*Inner))
    return unsupported(Call, *Why);
  Function &F = *Inner->Sig.Fn;
  IRBuilder<> B(Clone);
  TangentGradientArgs G = tangentGradientArgs(Call, *Inner, B);

  bool Seeded = Inner->Sig.ActiveReturn;
  bool KeepsResult = Inner->ReturnPrimal;
  Function *Root =
      tangentRoot(F, *D.get(G.TangentSig).Tangent, Seeded, KeepsResult);
  IRBuilder<> Entry(&*T.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Kept = nullptr;
  if (KeepsResult) {
    Kept = Entry.CreateAlloca(F.getReturnType(), Entry.getInt64(2),
                              "checkpointed.result");
    G.TangentArgs.push_back(Kept);
    G.Tangents.push_back(ArgActivity::Const);
  }
  GradientRequest R;
  R.Sig.Fn = Root;
  R.Sig.Args.append(G.Primals);
  R.Sig.Args.append(G.Tangents);
  R.Sig.ActiveReturn = Seeded;
  R.Sig.TopLevel = true;
  R.Sig.StableArgs = ~uint64_t(0);
  // Runs inside this tangent function: the adjoints of its globals (and of
  // their tangents' shadow globals) are a level of their own.
  R.Sig.Level = Sig.Level + 1;
  R.Args.append(Inner->Args);
  R.Args.append(G.TangentArgs);
  R.Shadows.append(G.PrimalShadows);
  R.Shadows.append(G.TangentShadows);
  // A call stands for the checkpointed gradient until the marker pass
  // lowers it (after this round), holding the arguments until then. The
  // adjoints of the out arguments come back in a slot, those of the primal
  // arguments (the tangents of the inner call's) first.
  SmallVector<Value *, 16> Held(R.Args.begin(), R.Args.end());
  Held.append(R.Shadows);
  StructType *AdjointsTy =
      reverseResultType(Root->getFunctionType(), R.Sig.Args);
  AllocaInst *Slot = Entry.CreateAlloca(AdjointsTy, nullptr, "checkpointed");
  R.ResultSlot = Slot;
  R.Call = B.CreateCall(D.abi().checkpointedTangent(), Held);
  R.Call->setDebugLoc(Clone->getDebugLoc());
  D.addCheckpointedRequest(std::move(R));

  // What the inner call returns: the adjoints of its out arguments, which
  // are the adjoints of the tangents' out arguments; their tangents are the
  // adjoints of the primal ones. With enzyme_primal_return, f's result
  // first, and its tangent.
  StructType *ResultTy = reverseResultType(F.getFunctionType(), G.Primals);
  unsigned Outs = ResultTy->getNumElements();
  Value *Result = PoisonValue::get(ResultTy), *ResultTangent = Result;
  if (Outs) {
    Value *Adjoints = B.CreateLoad(AdjointsTy, Slot);
    for (unsigned I = 0; I < Outs; ++I) {
      Result = B.CreateInsertValue(Result,
                                   B.CreateExtractValue(Adjoints, Outs + I), I);
      ResultTangent = B.CreateInsertValue(ResultTangent,
                                          B.CreateExtractValue(Adjoints, I), I);
    }
  }
  if (KeepsResult) {
    Type *Ty = F.getReturnType();
    Result = reverseMarkerResult(B, *Inner, B.CreateLoad(Ty, Kept), Result);
    ResultTangent = reverseMarkerResult(
        B, *Inner, B.CreateLoad(Ty, B.CreateConstGEP1_64(Ty, Kept, 1)),
        ResultTangent);
  }
  if (!Outs && !KeepsResult)
    Result = ResultTangent = nullptr;
  replaceCheckpointedResult(Call, *Inner, B, Result, ResultTangent);
}

/// The inner marker call's result, \p Result (null: zero, or nothing), and
/// its tangent, where the marker declares it: in its sret slot and the
/// slot's shadow, or as its value and twin. The marker call goes.
void TangentGenerator::replaceCheckpointedResult(CallBase &Call,
                                                 const GradientRequest &Inner,
                                                 IRBuilder<> &B, Value *Result,
                                                 Value *ResultTangent) {
  CallBase &Clone = *Inner.Call;
  if (Inner.ResultSlot) {
    if (Result)
      B.CreateStore(Result, Inner.ResultSlot);
    if (Value *Shadow = shadowOf(Call.getArgOperand(0)); Shadow && Result)
      B.CreateStore(ResultTangent, Shadow);
  } else if (!Call.getType()->isVoidTy()) {
    Value *Primal = markerResultAs(B, Result, Call.getType());
    Clone.replaceAllUsesWith(Primal);
    Map[&Call] = Primal;
    setTwin(&Call, markerResultAs(B, ResultTangent, Call.getType()));
  }
  eraseMarkerCall(Clone);
}

} // namespace capsule
