//===- CustomGradient.cpp - Sweeps that call a user's gradient rule -------===//
#include "Reverse/CustomGradient.h"
#include "Support/Lanes.h"
#include "Support/LibraryRules.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

namespace {

/// The arguments a rule takes before any adjoint or tape: \p Sweep's primal
/// arguments, each that is not floating point followed by its shadow. A
/// dup pointer's shadow is the sweep's parameter after the primal ones. A
/// pointer to memory without derivatives gets its place in the sink
/// (runtime/abi.h), where what the rule adds goes harmlessly (Enzyme passes
/// the pointer itself, and a rule's += lands in the primal data); an
/// integer is its own shadow, as Enzyme passes it.
SmallVector<Value *, 8> ruleArguments(IRBuilder<> &B, RuntimeABI &ABI,
                                      Function &Sweep,
                                      const DiffSignature &Sig) {
  unsigned NextShadow = Sig.Fn->arg_size();
  SmallVector<Value *, 8> Args;
  for (unsigned K = 0; K < Sig.Fn->arg_size(); ++K) {
    Value *V = Sweep.getArg(K);
    Args.push_back(V);
    if (!hasShadowParam(V->getType()))
      continue;
    if (Sig.Args[K] == ArgActivity::Dup)
      Args.push_back(Sweep.getArg(NextShadow++));
    else if (V->getType()->isPointerTy())
      Args.push_back(splatLanes(B, B.CreateCall(ABI.sinkOf(), {V}), Sig.Width));
    else
      Args.push_back(V);
  }
  return Args;
}

/// Lane \p Lane of \p Args, whose pointer shadows are in \p Width lanes.
SmallVector<Value *, 8> laneArguments(IRBuilder<> &B, ArrayRef<Value *> Args,
                                      unsigned Lane, unsigned Width) {
  SmallVector<Value *, 8> Lanes;
  for (Value *A : Args)
    Lanes.push_back(A->getType()->isVectorTy() ? laneOf(B, A, Lane, Width) : A);
  return Lanes;
}

/// The record the forward sweep leaves for the reverse sweep: the values,
/// packed without padding as the generators' records are (TapeRecords.cpp).
struct Record {
  SmallVector<Type *, 8> Types;
  SmallVector<uint64_t, 8> Offsets;
  uint64_t Size = 0;

  Record(const DataLayout &DL, ArrayRef<Type *> Fields) {
    for (Type *T : Fields) {
      Types.push_back(T);
      Offsets.push_back(Size);
      Size += DL.getTypeStoreSize(T);
    }
  }

  void push(IRBuilder<> &B, RuntimeABI &ABI, ArrayRef<Value *> Values) const {
    if (!Size)
      return;
    Value *Rec = ABI.emitTapePush(B, Size);
    for (auto [V, Offset] : zip(Values, Offsets))
      B.CreateAlignedStore(
          V, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Rec, Offset),
          Align(1));
  }

  SmallVector<Value *, 8> pop(IRBuilder<> &B, RuntimeABI &ABI) const {
    SmallVector<Value *, 8> Values;
    if (!Size)
      return Values;
    Value *Rec = ABI.emitTapePop(B, Size);
    for (auto [T, Offset] : zip(Types, Offsets))
      Values.push_back(B.CreateAlignedLoad(
          T, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Rec, Offset),
          Align(1)));
    return Values;
  }
};

/// Field \p Field (-2: the whole result) of the augmented rule's result,
/// which has fields only as a struct (decodeAugmentResult).
Value *augmentField(IRBuilder<> &B, Value *Result, int Field) {
  return Field == -2 ? Result : B.CreateExtractValue(Result, Field);
}

/// The record of \p Fn's rule: its arguments with their shadows (pointer
/// shadows in \p Width lanes), then the augmented rule's tape.
Record recordOf(const Function &Fn, const GradientRule &Rule, unsigned Width) {
  SmallVector<Type *, 8> Types;
  for (Type *T : Fn.getFunctionType()->params()) {
    Types.push_back(T);
    if (hasShadowParam(T))
      Types.push_back(T->isPointerTy() ? laneType(T, Width) : T);
  }
  if (Rule.TapeTy)
    Types.push_back(Rule.TapeTy);
  return Record(Fn.getParent()->getDataLayout(), Types);
}

/// The forward sweep: the augmented rule in place of the function.
void emitForward(RuntimeABI &ABI, const DiffSignature &Sig,
                 const GradientRule &Rule, Function &Fwd) {
  IRBuilder<> B(BasicBlock::Create(Fwd.getContext(), "entry", &Fwd));
  SmallVector<Value *, 8> Args = ruleArguments(B, ABI, Fwd, Sig);
  // Once, in vector mode too: the rules this runs per lane leave shadows
  // alone here (gradientRuleRunsPerLane).
  Value *Result =
      callRule(B, *Rule.Augment, laneArguments(B, Args, 0, Sig.Width));
  SmallVector<Value *, 8> Kept(Args);
  if (Rule.TapeTy)
    Kept.push_back(augmentField(B, Result, Rule.TapeField));
  recordOf(*Sig.Fn, Rule, Sig.Width).push(B, ABI, Kept);
  Type *RetTy = Fwd.getReturnType();
  if (RetTy->isVoidTy())
    return void(B.CreateRetVoid());
  Value *Primal = augmentField(B, Result, Rule.PrimalField);
  if (RetTy == Primal->getType())
    return void(B.CreateRet(Primal));
  // A pointer result comes back with its shadow (forwardReturnType); vector
  // mode does not call rules of functions returning pointers.
  Value *Pair = B.CreateInsertValue(PoisonValue::get(RetTy), Primal, 0);
  B.CreateRet(
      B.CreateInsertValue(Pair, augmentField(B, Result, Rule.ShadowField), 1));
}

/// The reverse sweep: the gradient rule, its adjoints of the out arguments
/// returned.
void emitReverse(RuntimeABI &ABI, const DiffSignature &Sig,
                 const GradientRule &Rule, Function &Rev) {
  IRBuilder<> B(BasicBlock::Create(Rev.getContext(), "entry", &Rev));
  Function &Fn = *Sig.Fn;
  unsigned W = Sig.Width;
  SmallVector<Value *, 8> Kept = recordOf(Fn, Rule, W).pop(B, ABI);
  // In vector mode (gradientRuleRunsPerLane) the gradient rule runs once
  // per lane, the BLAS rules' tapes kept for all but the last.
  bool KeepTapes = W > 1 && isBlasRule(*Rule.Augment);
  SmallVector<Value *, 8> Adjoints;
  for (unsigned Lane = 0; Lane < W; ++Lane) {
    if (KeepTapes && (Lane == 0 || Lane == W - 1))
      B.CreateCall(ABI.blasKeepTapes(), {B.getInt32(Lane == 0)});
    SmallVector<Value *, 8> Args = laneArguments(
        B, ArrayRef(Kept).drop_back(Rule.TapeTy ? 1 : 0), Lane, W);
    Type *Ret = Fn.getReturnType();
    if (Ret->isFPOrFPVectorTy())
      Args.push_back(Sig.ActiveReturn ? laneOf(B, Rev.getArg(0), Lane, W)
                                      : Constant::getNullValue(Ret));
    if (Rule.TapeTy)
      Args.push_back(Kept.back());
    Adjoints.push_back(callRule(B, *Rule.Gradient, Args));
  }

  unsigned NumFloat = adjointTypes(Fn).size();
  Value *Out = UndefValue::get(Rev.getReturnType());
  unsigned FloatIndex = 0, OutIndex = 0;
  for (unsigned K = 0; K < Fn.arg_size(); ++K) {
    if (hasShadowParam(Fn.getArg(K)->getType()))
      continue;
    if (Sig.Args[K] == ArgActivity::Out)
      Out = B.CreateInsertValue(Out,
                                makeLanes(B, W,
                                          [&](unsigned Lane) {
                                            return resultField(
                                                B, Adjoints[Lane], FloatIndex,
                                                NumFloat);
                                          }),
                                OutIndex++);
    ++FloatIndex;
  }
  B.CreateRet(Out);
}

/// The untaped sweep of checkpointed code's green runs: the function
/// itself. The augmented rules of checkpointed code leave shadow memory
/// alone (the built-in ones by construction, the user's by a check:
/// Interrupt/RuleCode.h), so there is nothing to keep beside the function's
/// own effect, which the journal sees: a library routine's step function
/// saves what it writes, and a user's function runs as journaled rule code.
void emitUntapedForward(const DiffSignature &Sig, Function &Fwd) {
  IRBuilder<> B(BasicBlock::Create(Fwd.getContext(), "entry", &Fwd));
  SmallVector<Value *, 8> Args(
      map_range(Sig.Fn->args(), [&](Argument &A) -> Value * {
        return Fwd.getArg(A.getArgNo());
      }));
  CallInst *Result = B.CreateCall(Sig.Fn, Args);
  if (Fwd.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Result);
}

} // namespace

bool gradientRuleRunsPerLane(const Function &F) {
  if (rulesCallablePerLane(F))
    return true;
  std::optional<GradientRule> Rule = gradientRule(F);
  return Rule && isBlasRule(*Rule->Augment);
}

void emitGradientRuleSweeps(RuntimeABI &ABI, const DiffSignature &Sig,
                            const GradientRule &Rule, const Derivative &Dv) {
  if (Sig.Untaped) {
    emitUntapedForward(Sig, *Dv.Fwd);
    return;
  }
  emitForward(ABI, Sig, Rule, *Dv.Fwd);
  emitReverse(ABI, Sig, Rule, *Dv.Rev);
}

} // namespace capsule
