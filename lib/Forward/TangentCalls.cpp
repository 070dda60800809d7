//===- TangentCalls.cpp - Tangents of calls -------------------------------===//
//
// Callees defined in the module get tangent functions of their own (through
// function pointers, one per possible target), elementary functions their
// derivative rules (DerivativeRules.h, shared with reverse mode: the
// contribution of argument i to the adjoint, given the tangent of argument
// i as the adjoint, is its contribution to the tangent), the heap and the
// mem* functions shadows of their own.
//===----------------------------------------------------------------------===//
#include "Forward/TangentGenerator.h"

#include "Analysis/MemoryKinds.h"
#include "Reverse/ComplexRules.h"
#include "Reverse/DerivativeRules.h"
#include "Support/CustomRules.h"
#include "Support/Diagnostics.h"
#include "Support/GeneratedCode.h"
#include "Support/IndirectDispatch.h"
#include "Support/Lanes.h"
#include "Support/LibraryOutputs.h"
#include "Support/MarkerCalls.h"
#include "Support/ParallelRegions.h"
#include "Support/RefusedCalls.h"

using namespace llvm;

namespace capsule {

/// Why vector mode cannot call \p F's tangent rule: a rule takes one
/// tangent per argument, and runs once per lane only where it touches no
/// memory (rulesCallablePerLane).
static std::optional<std::string> ruleRefusedInLanes(const Function &F) {
  if (!tangentRule(F) || rulesCallablePerLane(F))
    return std::nullopt;
  return "vector mode (enzyme_width) through the tangent rule of '" +
         displayName(F) +
         "', which takes or returns pointers, is not supported yet";
}

/// What an inner forward-mode call leaves (tangentNestedRuntime) for the
/// tangents of memory, which vector mode does not keep per lane yet (its
/// start, dropped, needs nothing).
static bool isForwardRuntime(NestedRuntime Kind) {
  switch (Kind) {
  case NestedRuntime::TangentAlloc:
  case NestedRuntime::TangentRealloc:
  case NestedRuntime::TangentFree:
  case NestedRuntime::SinkOf:
  case NestedRuntime::SinkFill:
  case NestedRuntime::LoadedSinkOf:
    return true;
  default:
    return false;
  }
}

void TangentGenerator::tangentCall(CallBase &Call) {
  if (std::optional<NestedRuntime> Kind = nestedRuntimeCall(Call)) {
    if (W > 1 && isForwardRuntime(*Kind))
      return unsupported(Call, "vector mode (enzyme_width) of code that "
                               "itself computes tangents of memory (forward "
                               "over forward) is not supported yet");
    return tangentNestedRuntime(Call, *Kind);
  }
  if (markerCallKind(Call) == MarkerKind::AutodiffCheckpointed)
    return tangentCheckpointedGradient(Call);
  CalleeInfo Info = classifyCall(Call);
  if (Info.Fn && markerKind(*Info.Fn))
    return unsupported(Call,
                       DifferentiabilityChecks::whyNoDerivative(Call, Info.Fn));
  IRBuilder<> B = after(Call);
  auto Arg = [&](unsigned K) { return Call.getArgOperand(K); };
  switch (Info.Kind) {
  case CalleeKind::Math:
    return tangentMath(Call, Info.Math);
  case CalleeKind::Module: {
    Function *Rule = tangentRule(*Info.Fn);
    if (W > 1)
      if (std::optional<std::string> Why = ruleRefusedInLanes(*Info.Fn))
        return unsupported(Call, *Why);
    // Declared, with a rule for reverse mode only.
    if (Info.Fn->isDeclaration() && !Rule)
      return unsupported(
          Call, DifferentiabilityChecks::whyNoDerivative(Call, Info.Fn));
    return tangentDifferentiatedCall(Call);
  }
  case CalleeKind::Indirect:
    // Any function of the call's type whose address is taken may be called.
    if (W > 1)
      for (Function *Target :
           indirectCallTargets(*Call.getModule(), Call.getFunctionType()))
        if (std::optional<std::string> Why = ruleRefusedInLanes(*Target))
          return unsupported(Call, *Why);
    return tangentDifferentiatedCall(Call);
  case CalleeKind::MemTransfer:
    return tangentMemTransfer(Call);
  case CalleeKind::MemSet:
    // Memory set to a constant has tangent zero.
    if (Value *Shadows = shadowOf(Arg(0)))
      forEachLane(B, Shadows, W, [&](Value *Shadow) {
        B.CreateMemSet(Shadow, B.getInt8(0), primal(Arg(2)), MaybeAlign());
      });
    return;
  case CalleeKind::Alloc:
  case CalleeKind::Calloc:
  case CalleeKind::AlignedAlloc:
    return tangentAllocation(Call, Info.Kind);
  case CalleeKind::Realloc: {
    Value *Old = twinOrZero(Arg(0));
    return setTwin(&Call, makeLanes(B, W, [&](unsigned K) -> Value * {
      return tangentRealloc(B, Call, laneOf(B, Old, K, W));
    }));
  }
  case CalleeKind::Free:
    if (Value *Shadows = shadowOf(Arg(0)))
      forEachLane(B, Shadows, W, [&](Value *Shadow) {
        B.CreateCall(D.abi().tangentFree(), {Shadow});
      });
    return;
  case CalleeKind::PointerCast:
    if (auto *TLS = dyn_cast_or_null<GlobalVariable>(twin(Arg(0)));
        TLS && TLS->isThreadLocal())
      return setTwin(&Call, B.CreateThreadLocalAddress(TLS));
    return setTwin(&Call, twin(Arg(0)));
  case CalleeKind::PointerMove: {
    Value *Twins = twin(Arg(0));
    if (!Twins)
      return;
    return setTwin(&Call, makeLanes(B, W, [&](unsigned K) {
      return movedLikeIts(B, laneOf(B, Twins, K, W), primal(Arg(0)),
                          Map[&Call]);
    }));
  }
  case CalleeKind::NoDerivative:
    return zeroLibraryOutputs(Call);
  case CalleeKind::ParallelSync:
    // Tangents travel with their values: the critical section or barrier
    // orders both.
    return;
  case CalleeKind::External:
    if (std::optional<std::string> Why = whyRefusedCall(Call))
      return unsupported(Call, *Why);
    for (const Use &U : Call.args())
      if (AI.isVaried(U) || AI.hasShadow(U))
        return unsupported(
            Call, DifferentiabilityChecks::whyNoDerivative(Call, Info.Fn));
    return;
  }
}

/// The tangent block of realloc \p Call (or of an inner forward-mode
/// call's realloc of a tangent block) given the old one, \p Old, which
/// records what the block holds, so that reverse mode over this code
/// (nested differentiation) knows it too.
Value *TangentGenerator::tangentRealloc(IRBuilder<> &B, CallBase &Call,
                                        Value *Old) {
  CallInst *Twin = B.CreateCall(D.abi().tangentRealloc(),
                                {Old, primal(Call.getArgOperand(1))});
  recordCopiedKindOf(*Twin, Call);
  return Twin;
}

/// What an inner forward-mode call left in the code (nested forward mode).
/// Its tangent blocks are heap blocks with tangent blocks of their own, and
/// its places in the tangent sink move to the nested level's sink, their
/// tangents to the level after: the perturbations of the two levels never
/// share memory, nor meet this call's own places. Its start is dropped:
/// clearing the sinks would lose the tangents this call keeps there.
void TangentGenerator::tangentNestedRuntime(CallBase &Call,
                                            NestedRuntime Kind) {
  using SinkLevel = RuntimeABI::SinkLevel;
  auto Arg = [&](unsigned K) { return Call.getArgOperand(K); };
  auto *Clone = cast<CallBase>(primal(&Call));
  if (Kind == NestedRuntime::TangentBegin) {
    Clone->eraseFromParent();
    return;
  }
  IRBuilder<> B = after(Call);
  switch (Kind) {
  case NestedRuntime::SinkOf:
    Clone->setCalledFunction(D.abi().tangentSinkOf(SinkLevel::Nested));
    [[fallthrough]];
  case NestedRuntime::LoadedSinkOf: // its place is in its slot's sink
    return setTwin(
        &Call, B.CreateCall(D.abi().tangentSinkOf(SinkLevel::Twin), {Clone}));
  case NestedRuntime::SinkFill:
    Clone->setCalledFunction(D.abi().tangentSinkFill(SinkLevel::Nested));
    if (Value *Shadow = shadowOf(Arg(0)))
      B.CreateCall(D.abi().tangentSinkFill(SinkLevel::Twin),
                   {Shadow, primal(Arg(0)), primal(Arg(2))});
    return;
  case NestedRuntime::TangentAlloc:
    return setTwin(&Call,
                   B.CreateCall(D.abi().tangentAlloc(), {primal(Arg(0))}));
  case NestedRuntime::TangentRealloc:
    return setTwin(&Call, tangentRealloc(B, Call, twinOrZero(Arg(0))));
  case NestedRuntime::TangentFree:
    if (Value *Shadow = shadowOf(Arg(0)))
      B.CreateCall(D.abi().tangentFree(), {Shadow});
    return;
  default:
    return tangentGradientRuntime(Call, Kind);
  }
}

/// What an inner gradient call left in the code (forward over reverse, the
/// Hessian-vector product): its tape records and shadow blocks are memory
/// like any other to this call, with twins of their own in each lane
/// (runtime/abi.h). The tangent tape follows the tape's chunks; a shadow
/// block's twin is a shadow block too, and the calls that update shadows
/// (linear in their contents, or bookkeeping that frees them) update the
/// twins alike.
void TangentGenerator::tangentGradientRuntime(CallBase &Call,
                                              NestedRuntime Kind) {
  auto Arg = [&](unsigned K) { return Call.getArgOperand(K); };
  auto *Clone = cast<CallBase>(primal(&Call));
  IRBuilder<> B = after(Call);
  auto Lane = [&](unsigned K) { return B.getInt64(K); };
  // Lane K's twin of pointer argument A: its shadow, or a place in the
  // tangent sink (SinkForMissing), or null for calls that read shadow
  // blocks' headers.
  auto SameCallOnTwins = [&](bool SinkForMissing) {
    if (none_of(Call.args(), [&](Value *A) {
          return A->getType()->isPointerTy() && shadowOf(A);
        }))
      return;
    SmallVector<Value *, 3> Twins;
    for (Value *A : Call.args())
      Twins.push_back(!A->getType()->isPointerTy() ? nullptr
                      : shadowOf(A)                ? shadowOf(A)
                      : SinkForMissing             ? twinOrSink(B, A)
                                                   : nullptr);
    for (unsigned K = 0; K < W; ++K) {
      SmallVector<Value *, 3> Args;
      for (auto [A, Twin] : zip(Call.args(), Twins))
        Args.push_back(!A->getType()->isPointerTy() ? primal(A)
                       : Twin                       ? laneOf(B, Twin, K, W)
                              : Constant::getNullValue(A->getType()));
      B.CreateCall(Clone->getFunctionType(), Clone->getCalledOperand(), Args);
    }
  };
  switch (Kind) {
  case NestedRuntime::GradientCall:
    for (unsigned K = 0; K < W; ++K)
      B.CreateCall(D.abi().tangentTapeMirror(),
                   {ConstantPointerNull::get(B.getPtrTy()), Lane(K)});
    return;
  case NestedRuntime::BindGlobals: {
    Value *Twins = twinOrZero(Arg(3));
    for (unsigned K = 0; K < W; ++K)
      D.bindShadowGlobalsOneLevelUp(B, Call, primal(Arg(3)),
                                    laneOf(B, Twins, K, W), Sig.Level, K);
    return;
  }
  case NestedRuntime::TapeSlowPath:
    return setTwin(&Call, makeLanes(B, W, [&](unsigned K) -> Value * {
      return B.CreateCall(D.abi().tangentTapeMirror(), {Clone, Lane(K)});
    }));
  case NestedRuntime::ShadowAlloc:
    return setTwin(&Call, makeLanes(B, W, [&](unsigned K) -> Value * {
      return B.CreateCall(D.abi().shadowAlloc(), {primal(Arg(0))});
    }));
  case NestedRuntime::ShadowRealloc: {
    Value *Old = shadowOf(Arg(0));
    return setTwin(&Call, makeLanes(B, W, [&](unsigned K) -> Value * {
      return B.CreateCall(
          D.abi().shadowRealloc(),
          {Old ? laneOf(B, Old, K, W) : Constant::getNullValue(B.getPtrTy()),
           primal(Arg(1))});
    }));
  }
  case NestedRuntime::ShadowUpdate:
  case NestedRuntime::ReallocAdjoint:
    return SameCallOnTwins(/*SinkForMissing=*/false);
  case NestedRuntime::CopyAdjoint:
    return SameCallOnTwins(/*SinkForMissing=*/true);
  case NestedRuntime::DeferFree:
    if (Value *Twin = twin(Arg(0)))
      forEachLane(B, Twin, W, [&](Value *Shadow) {
        B.CreateCall(D.abi().deferTangentFree(), {Shadow});
      });
    return;
  case NestedRuntime::PlaceOf:
    return setTwin(&Call, makeLanes(B, W, [&](unsigned K) -> Value * {
      return B.CreateCall(D.abi().tangentOfSinkPlace(), {Clone, Lane(K)});
    }));
  case NestedRuntime::PlaceFill:
    if (Value *Shadow = shadowOf(Arg(0)))
      for (unsigned K = 0; K < W; ++K)
        B.CreateCall(
            D.abi().tangentSinkFillPlaces(),
            {laneOf(B, Shadow, K, W), primal(Arg(1)), primal(Arg(2)), Lane(K)});
    return;
  default:
    llvm_unreachable("refused before the tangent function was generated");
  }
}

/// The rules are linear in the seed: given argument K's tangent, the
/// contribution to the adjoint of K is the contribution to the tangent. In
/// vector mode, the rule's partial derivative (the seed 1) scales every
/// lane.
void TangentGenerator::tangentMath(CallBase &Call, MathOp Op) {
  if (isComplexOp(Op))
    return tangentComplexMath(Call, Op);
  IRBuilder<> B = after(Call);
  unsigned N = Call.arg_size();
  auto Arg = [&](unsigned K) { return primal(Call.getArgOperand(K)); };
  auto Result = [&]() { return primal(&Call); };
  // Only before the call: the tangent is computed right after it.
  auto Sibling = [&](MathOp O) -> Value * {
    CallBase *S = siblingMathCall(Call, O, /*OnlyBefore=*/true);
    return S ? primal(S) : nullptr;
  };
  Value *Tangent = nullptr;
  for (unsigned K = 0; K < N; ++K) {
    Value *DK = twin(Call.getArgOperand(K));
    if (!DK || !carriesFloat(DK->getType()))
      continue;
    SmallVector<bool, 3> Wanted(N, false);
    Wanted[K] = true;
    Value *Seed =
        W == 1 ? DK : ConstantFP::get(Call.getArgOperand(K)->getType(), 1.0);
    Value *Part = mathAdjoints(B, Op, N, Wanted,
                               PrimalOperands{Arg, Result, Sibling}, Seed)[K];
    if (Part && W > 1)
      Part = B.CreateFMul(DK, splatLanes(B, Part, W));
    if (Part)
      Tangent = Tangent ? B.CreateFAdd(Tangent, Part) : Part;
  }
  setTwin(&Call, Tangent);
}

/// The tangent of the result's scalar j is the sum over the arguments'
/// scalars k of d result_j / d argument_k times argument k's tangent (in
/// every lane).
void TangentGenerator::tangentComplexMath(CallBase &Call, MathOp Op) {
  IRBuilder<> B = after(Call);
  SmallVector<Value *, 4> Args, Tangents;
  for (Value *Arg : Call.args()) {
    SmallVector<Value *, 2> Parts =
        complexParts(B, primal(Arg), Arg->getType());
    append_range(Args, Parts);
    Value *Twin = twin(Arg);
    if (Twin && carriesFloat(Twin->getType()))
      append_range(Tangents, complexParts(B, Twin, Arg->getType()));
    else
      Tangents.append(Parts.size(), nullptr);
  }
  if (all_of(Tangents, [](Value *T) { return !T; }))
    return setTwin(&Call, nullptr);
  // Not null: vector mode refuses a float complex (a <2 x float>) before
  // (whyNotInVectorMode).
  Type *TwinTy = laneType(Call.getType(), W);
  ComplexPartials Partials = complexPartials(B, Op, Args, [&] {
    return complexParts(B, primal(&Call), Call.getType());
  });
  SmallVector<Value *, 2> Result;
  for (unsigned J = 0; J < Partials.front().size(); ++J) {
    Value *Sum = nullptr;
    for (unsigned K = 0; K < Args.size(); ++K) {
      if (!Tangents[K])
        continue;
      Value *Term = B.CreateFMul(splatLanes(B, Partials[K][J], W), Tangents[K]);
      Sum = Sum ? B.CreateFAdd(Sum, Term) : Term;
    }
    Result.push_back(
        Sum ? Sum
            : Constant::getNullValue(laneType(Args.front()->getType(), W)));
  }
  setTwin(&Call, fromComplexParts(B, Call.getType(), TwinTy, Result));
}

void TangentGenerator::tangentDifferentiatedCall(CallBase &Call) {
  for (Value *Arg : Call.args())
    for (auto Why : {Checks.handedPointer(Arg), Checks.handedInteger(Arg)})
      if (Why)
        return unsupported(Call, *Why);
  Function *Callee = Call.getCalledFunction();
  DiffSignature S = D.signatureAtCall(Call, Callee, AI);
  S.Tangent = true;
  S.Width = W;
  S.Level = Sig.Level;
  for (unsigned K = 0; K < S.Args.size(); ++K)
    if (S.Args[K] == ArgActivity::Dup && Call.isByValArgument(K) &&
        holdsUnion(Call.getParamByValType(K)))
      return unsupported(Call, "union passed by value: its type does not say "
                               "whether it holds floating-point data or "
                               "pointers (pass it by pointer)");

  auto *Clone = cast<CallBase>(Map[&Call]);
  IRBuilder<> B(Clone);
  SmallVector<Value *, 12> Args(Clone->args());
  SmallVector<unsigned, 4> ByValTwins;
  for (unsigned K = 0; K < S.Args.size(); ++K) {
    if (S.Args[K] == ArgActivity::Const)
      continue;
    if (Call.isByValArgument(K) && W == 1)
      ByValTwins.push_back(Args.size());
    Args.push_back(twinOrSink(B, Call.getArgOperand(K)));
  }
  if (isParallelRegionCall(Call))
    return tangentParallelCall(Call, S, Args);
  auto EmitTangent = [&](IRBuilder<> &CB, Function *Fn) -> Value * {
    DiffSignature Each = S;
    Each.Fn = Fn;
    Function *Tan = D.get(Each).Tangent;
    CallInst *New = CB.CreateCall(Tan, Args);
    // ABI attributes (byval, sret, zeroext, ...) must match the callee's
    // parameters: the primal's, and byval for the shadows of byval copies.
    AttributeList Attrs = New->getAttributes();
    for (unsigned K = 0; K < Clone->arg_size(); ++K)
      Attrs = Attrs.addParamAttributes(
          New->getContext(), K,
          AttrBuilder(New->getContext(),
                      Clone->getAttributes().getParamAttrs(K)));
    for (unsigned K : ByValTwins)
      Attrs = Attrs.addParamAttributes(
          New->getContext(), K,
          AttrBuilder(New->getContext(),
                      Tan->getAttributes().getParamAttrs(K)));
    New->setAttributes(Attrs);
    return New;
  };
  Type *ResultTy = tangentReturnType(Call.getType(), W);
  Value *Result =
      Callee ? EmitTangent(B, Callee)
             : emitIndirectDispatch(B, D.abi(), Call, Clone->getCalledOperand(),
                                    ResultTy, *Sig.Fn, EmitTangent);
  Value *Primal = Result;
  if (ResultTy != Call.getType()) {
    Primal = B.CreateExtractValue(Result, 0);
    setTwin(&Call, B.CreateExtractValue(Result, 1));
  }
  if (Primal)
    Clone->replaceAllUsesWith(Primal);
  Clone->eraseFromParent();
  Map[&Call] = Primal;
}

/// Shadows are copied with what they shadow. Out of memory without shadows
/// come tangents of zero, and pointers that get their places in the tangent
/// sink.
void TangentGenerator::tangentMemTransfer(CallBase &Call) {
  Value *Dst = Call.getArgOperand(0), *Src = Call.getArgOperand(1);
  Value *DstShadow = shadowOf(Dst);
  if (!DstShadow)
    return;
  IRBuilder<> B = after(Call);
  Value *Bytes = primal(Call.getArgOperand(2));
  Value *SrcShadow = shadowOf(Src);
  bool Pointers = copiedElementKind(Call) == ElementKind::Pointer;
  for (unsigned K = 0; K < W; ++K) {
    Value *Dst = laneOf(B, DstShadow, K, W);
    if (SrcShadow) {
      auto *Copy = cast<CallBase>(cast<CallBase>(Map[&Call])->clone());
      Copy->setArgOperand(0, Dst);
      Copy->setArgOperand(1, laneOf(B, SrcShadow, K, W));
      // Shadows are not as aligned as the primal's memory (shadowAlign).
      for (unsigned Operand : {0, 1})
        Copy->removeParamAttr(Operand, Attribute::Alignment);
      // What the copy moves, for reverse mode over this code (nested
      // differentiation), which sees only tangent pointers.
      recordCopiedKindOf(*Copy, Call);
      B.Insert(Copy);
    } else if (Pointers) {
      Value *Size = B.CreateZExtOrTrunc(Bytes, B.getInt64Ty());
      if (W == 1)
        B.CreateCall(D.abi().tangentSinkFill(), {Dst, primal(Src), Size});
      else
        B.CreateCall(D.abi().tangentLaneSinkFill(),
                     {Dst, primal(Src), Size, B.getInt64(K)});
    } else {
      B.CreateMemSet(Dst, B.getInt8(0), Bytes, MaybeAlign());
    }
  }
}

void TangentGenerator::tangentAllocation(CallBase &Call, CalleeKind Kind) {
  IRBuilder<> B = after(Call);
  auto Arg = [&](unsigned K) {
    return B.CreateZExtOrTrunc(primal(Call.getArgOperand(K)), B.getInt64Ty());
  };
  Value *Bytes = allocatedBytes(B, Kind, Arg);
  setTwin(&Call, makeLanes(B, W, [&](unsigned) -> Value * {
    return B.CreateCall(D.abi().tangentAlloc(), {Bytes});
  }));
}

/// A random-number generator's state, a clock's reading or the bytes read
/// from input replace what the memory held: their tangents are zero.
void TangentGenerator::zeroLibraryOutputs(CallBase &Call) {
  Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return;
  std::optional<SmallVector<LibraryOutput, 2>> Outputs =
      nondeterministicLibraryOutputs(Callee->getName());
  if (!Outputs)
    return;
  IRBuilder<> B = after(Call);
  auto Arg = [&](unsigned K) { return primal(Call.getArgOperand(K)); };
  for (const LibraryOutput &O : *Outputs) {
    Value *Shadows = shadowOf(Call.getArgOperand(O.Arg));
    if (!Shadows)
      continue;
    Value *Bytes =
        writtenBytes(B, O, Arg, O.PerResultUnit ? primal(&Call) : nullptr);
    forEachLane(B, Shadows, W, [&](Value *Shadow) {
      B.CreateMemSet(Shadow, B.getInt8(0), Bytes, MaybeAlign());
    });
  }
}

/// A parallel region's team runs the microtask's tangent function: its
/// arguments and their tangents go through the fork (pointer-sized words,
/// so one lane at most).
void TangentGenerator::tangentParallelCall(CallBase &Call,
                                           const DiffSignature &S,
                                           ArrayRef<Value *> Args) {
  if (W > 1)
    return unsupported(Call, "vector mode (enzyme_width) through an OpenMP "
                             "parallel region is not supported yet");
  Function *Tan = D.get(S).Tangent;
  auto *Clone = cast<CallBase>(Map[&Call]);
  IRBuilder<> B(Clone);
  Function *Task = forkedCallTask(*Tan, Tan->getName() + ".task", {}, nullptr);
  Map[&Call] =
      emitFork(B, parallelRegionLocation(Call), Task, Args.drop_front(2));
  Clone->eraseFromParent();
}

} // namespace capsule
