//===- ForwardSweep.cpp - The augmented forward sweep of one derivative ---===//
//
// A clone of the prepared primal that also keeps a shadow pointer beside
// every pointer that has one (stack slots and heap blocks get zeroed shadow
// twins; pointers stored to memory store their shadows to shadow memory),
// calls the forward sweeps of differentiated callees, and pushes each
// block's tape record before the block's terminator.
//===----------------------------------------------------------------------===//
#include "Analysis/MemoryKinds.h"
#include "Reverse/ByValShadows.h"
#include "Reverse/GradientGenerator.h"
#include "Support/Cloning.h"
#include "Support/GeneratedCode.h"
#include "Support/Lanes.h"
#include "Support/ParallelRegions.h"
#include "Support/RefusedCalls.h"

#include "Support/RuntimeABI.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace capsule {

Value *GradientGenerator::fwdValue(Value *V) {
  if (isa<Constant>(V))
    return V;
  Value *Mapped = FwdMap.lookup(V);
  assert(Mapped && "primal value has no forward counterpart");
  return Mapped;
}

Value *GradientGenerator::fwdShadow(Value *V) {
  // Null pointers (in every pointer field of an aggregate) where there is
  // no shadow.
  Constant *None = Constant::getNullValue(twinType(V->getType()));
  if (auto *C = dyn_cast<Constant>(V)) {
    Constant *S = constantShadow(C);
    return S ? S : None;
  }
  Value *S = FwdShadows.lookup(V);
  return S ? S : None;
}

void GradientGenerator::buildForward() {
  Function &Fwd = *Target.Fwd;
  unsigned Next = 0;
  for (Argument &A : P.args())
    FwdMap[&A] = Fwd.getArg(Next++);
  for (Argument &A : P.args())
    if (Sig.Args[A.getArgNo()] == ArgActivity::Dup) {
      Argument *S = Fwd.getArg(Next++);
      S->setName(A.getName() + "'");
      FwdShadows[&A] = S;
    }
  SmallVector<ReturnInst *, 1> Returns;
  cloneFunctionInto(Fwd, P, FwdMap, Returns);
  dropPrimalOnlyAttributes(Fwd, Fwd.getReturnType() != P.getReturnType());
  // Cloning copied the primal's linkage and calling convention (fastcc for
  // static functions at -O2); the forward sweep is called with its own.
  Fwd.setLinkage(GlobalValue::InternalLinkage);
  Fwd.setCallingConv(CallingConv::C);

  createPredecessorIndices();
  ReversePostOrderTraversal<Function *> RPOT(&P);
  for (BasicBlock *BB : RPOT)
    for (Instruction &I : *BB)
      forwardInstruction(I);
  completeShadowPhis();
  emitPushes();
}

void GradientGenerator::createPredecessorIndices() {
  for (auto &[BB, R] : Records) {
    if (none_of(R.Fields, [](const Field &F) { return !F.V; }))
      continue;
    auto *FwdBB = cast<BasicBlock>(FwdMap[BB]);
    IRBuilder<> B(FwdBB, FwdBB->begin());
    PHINode *Index = B.CreatePHI(B.getInt8Ty(), 2, "pred.index");
    ArrayRef<BasicBlock *> Ps = Preds[BB];
    for (BasicBlock *Pred : predecessors(BB)) {
      unsigned K = find(Ps, Pred) - Ps.begin();
      Index->addIncoming(B.getInt8(K), cast<BasicBlock>(FwdMap[Pred]));
    }
    FwdPredIndex[BB] = Index;
  }
}

void GradientGenerator::forwardInstruction(Instruction &I) {
  auto *FwdI = cast<Instruction>(FwdMap[&I]);
  if (auto *Call = dyn_cast<CallBase>(&I))
    return forwardCall(*Call, FwdI);
  if (auto *RI = dyn_cast<ReturnInst>(&I))
    return forwardReturn(*RI);
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    // Shadow memory mirrors the pointers stored in primal memory.
    Value *V = SI->getValueOperand(), *Ptr = SI->getPointerOperand();
    if (carriesPointer(V->getType()) && AI.hasShadow(Ptr)) {
      // Once in memory with adjoints, a pointer is trusted to have a shadow
      // when it is loaded back; one without (and of unknown origin) would
      // come back with a null shadow.
      if (V->getType()->isPointerTy() && Checks.untrackedPointer(V))
        unsupported(*SI, "pointer of unknown origin (made from an integer, "
                         "or returned by a function without a body) stored "
                         "into memory that has adjoints");
      IRBuilder<> B(FwdI->getNextNode());
      if (Checkpointed)
        return storePointerShadow(B, *SI);
      if (W > 1)
        return storeLanes(B, V->getType(), shadowOrSink(B, V), fwdShadow(Ptr),
                          shadowAlign(SI->getAlign()), W,
                          [](Instruction &, unsigned) {});
      B.CreateAlignedStore(shadowOrSink(B, V), fwdShadow(Ptr),
                           shadowAlign(SI->getAlign()), SI->isVolatile());
    }
    return;
  }
  if (std::optional<std::string> Why = Checks.mergedPointer(I))
    unsupported(Checks.mergeSite(I), *Why);
  if (AI.hasShadow(&I))
    createShadow(I, FwdI);
}

/// The shadow of pointer \p V where it meets pointers that have shadows:
/// stored beside it in memory with adjoints, or merged with them by a phi
/// or a select (`p = k < 0 ? &c[2] : &g`). A pointer to memory without
/// adjoints (constant data, a const argument's memory) gets its place in
/// the sink, not null: loaded back (an -O0 loop's iterator over a const
/// vector) or merged, it is trusted to have a shadow, and the adjoints of
/// what is read through it are dropped there. Checkpointed code does the
/// same when such pointers are loaded (CheckpointedShadows.cpp).
Value *GradientGenerator::shadowOrSink(IRBuilder<> &B, Value *V) {
  if (!V->getType()->isPointerTy() || AI.hasShadow(V) ||
      isa<ConstantPointerNull, UndefValue, Function>(V))
    return fwdShadow(V);
  // One place for every lane: its adjoints are dropped, whichever lane's.
  return splatLanes(B, B.CreateCall(D.abi().sinkOf(), {fwdValue(V)}), W);
}

/// \p Shadow, loaded beside \p Primal, with every pointer (field) replaced
/// by the pointer's place in the sink at \p SinkBase where \p InSink
/// holds, or, without it, where the pointer's shadow is null.
Value *GradientGenerator::sinkPlacesWhere(IRBuilder<> &B, Value *SinkBase,
                                          Value *Primal, Value *Shadow,
                                          Value *InSink) {
  Type *Ty = Primal->getType();
  if (Ty->isPointerTy()) {
    Value *Index = B.CreateAnd(B.CreatePtrToInt(Primal, B.getInt64Ty()),
                               B.getInt64(SinkMask));
    Value *Sink =
        splatLanes(B, B.CreateGEP(B.getInt8Ty(), SinkBase, Index, "sink"), W);
    return B.CreateSelect(InSink ? InSink : B.CreateIsNull(Shadow), Sink,
                          Shadow);
  }
  unsigned Fields = 0;
  if (auto *S = dyn_cast<StructType>(Ty))
    Fields = S->getNumElements();
  else if (auto *A = dyn_cast<ArrayType>(Ty))
    Fields = A->getNumElements();
  for (unsigned K = 0; K < Fields; ++K) {
    Value *PrimalField = B.CreateExtractValue(Primal, K);
    if (!carriesPointer(PrimalField->getType()))
      continue;
    Value *Field = sinkPlacesWhere(B, SinkBase, PrimalField,
                                   B.CreateExtractValue(Shadow, K), InSink);
    Shadow = B.CreateInsertValue(Shadow, Field, K);
  }
  return Shadow;
}

/// Whether the shadow memory at \p ShadowAddress is the sink at
/// \p SinkBase (null until reserved): the shadow of memory without
/// adjoints (a const argument's), whose pointers have no shadows stored
/// beside them. Every lane's shadow is then the sink.
Value *GradientGenerator::inSink(IRBuilder<> &B, Value *SinkBase,
                                 Value *ShadowAddress) {
  Value *Offset = B.CreateSub(
      B.CreatePtrToInt(laneOf(B, ShadowAddress, 0, W), B.getInt64Ty()),
      B.CreatePtrToInt(SinkBase, B.getInt64Ty()));
  return B.CreateAnd(B.CreateIsNotNull(SinkBase),
                     B.CreateICmpULT(Offset, B.getInt64(SinkBytes)), "in.sink");
}

Value *GradientGenerator::aggregateShadowOrSink(IRBuilder<> &B, Value *Agg) {
  auto *IV = dyn_cast<InsertValueInst>(Agg);
  if (!IV || (AI.hasShadow(Agg) && FwdShadows.count(Agg)))
    return fwdShadow(Agg);
  Value *Inserted = IV->getInsertedValueOperand();
  return B.CreateInsertValue(
      aggregateShadowOrSink(B, IV->getAggregateOperand()),
      carriesPointer(Inserted->getType())
          ? shadowOrSink(B, Inserted)
          : Constant::getNullValue(twinType(Inserted->getType())),
      IV->getIndices());
}

void GradientGenerator::createShadow(Instruction &I, Instruction *FwdI) {
  IRBuilder<> B(FwdI->getNextNode());
  Value *S = nullptr;
  if (auto *Alloca = dyn_cast<AllocaInst>(&I)) {
    // The reverse sweep runs after this frame is gone, so the shadow of a
    // stack slot lives on the shadow heap until the reverse sweep passes the
    // slot.
    Value *Bytes = B.CreateMul(
        B.CreateZExtOrTrunc(fwdValue(Alloca->getArraySize()), B.getInt64Ty()),
        B.getInt64(DL.getTypeAllocSize(Alloca->getAllocatedType())));
    S = makeLanes(B, W, [&](unsigned) -> Value * {
      return B.CreateCall(slotShadowAlloc(), {Bytes});
    });
  } else if (auto *Phi = dyn_cast<PHINode>(&I)) {
    // Phis go ahead of the block's debug records: insert through the
    // block's first-non-phi iterator, not an instruction position.
    BasicBlock *FwdBB = FwdI->getParent();
    B.SetInsertPoint(FwdBB, FwdBB->getFirstNonPHIIt());
    PHINode *Twin =
        B.CreatePHI(twinType(Phi->getType()), Phi->getNumIncomingValues());
    ShadowPhis.push_back({Phi, Twin});
    S = Twin;
  } else if (auto *Sel = dyn_cast<SelectInst>(&I)) {
    S = B.CreateSelect(FwdI->getOperand(0),
                       shadowOrSink(B, Sel->getTrueValue()),
                       shadowOrSink(B, Sel->getFalseValue()));
  } else if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Value *Ptr = LI->getPointerOperand();
    Value *Slot = Checkpointed
                      ? pointerShadowSlot(B, fwdValue(Ptr), fwdShadow(Ptr))
                      : fwdShadow(Ptr);
    S = W > 1 ? loadLanes(B, LI->getType(), Slot, shadowAlign(LI->getAlign()),
                          W, [](Instruction &, unsigned) {})
              : B.CreateAlignedLoad(LI->getType(), Slot,
                                    shadowAlign(LI->getAlign()),
                                    LI->isVolatile());
    // Pointers loaded out of memory without adjoints (reached through a
    // const argument, whose shadow is the sink) have no shadows stored
    // beside them: they get their places in the sink too. In checkpointed
    // code, any pointer whose shadow comes back null (see
    // CheckpointedShadows.cpp). A stack slot's shadow is its own.
    if (Checkpointed) {
      S = sinkPlacesWhere(B, D.abi().loadSinkBase(B), FwdI, S, nullptr);
    } else if (!isa<AllocaInst>(getUnderlyingObject(Ptr))) {
      Value *SinkBase = D.abi().loadSinkBase(B);
      S = sinkPlacesWhere(B, SinkBase, FwdI, S, inSink(B, SinkBase, Slot));
    }
  } else if (auto *IV = dyn_cast<InsertValueInst>(&I)) {
    // Non-pointer fields of a shadow aggregate carry nothing; a pointer
    // without a shadow beside ones with shadows ({x, c} of a dup x and a
    // const c) gets its place in the sink, as in a select or a phi: the
    // field extracted has a shadow to the code that uses it.
    S = aggregateShadowOrSink(B, IV);
  } else {
    // GEP, addrspacecast, freeze, extractvalue: the same operation on the
    // shadow.
    S = shadowOfAddress(B, *FwdI, fwdShadow(I.getOperand(0)),
                        [](Value *Op) { return Op; });
  }
  S->setName(I.getName() + "'");
  FwdShadows[&I] = S;
}

void GradientGenerator::completeShadowPhis() {
  for (auto &[Phi, Twin] : ShadowPhis) {
    // The forward clone of the phi lists its incoming blocks in the same
    // order, already updated for any block split since.
    auto *FwdPhi = cast<PHINode>(FwdMap[Phi]);
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
      BasicBlock *From = FwdPhi->getIncomingBlock(K);
      IRBuilder<> B(From->getTerminator());
      Twin->addIncoming(shadowOrSink(B, Phi->getIncomingValue(K)), From);
    }
  }
}

void GradientGenerator::forwardReturn(ReturnInst &RI) {
  Value *RV = RI.getReturnValue();
  if (!RV || !carriesPointer(RV->getType()))
    return;
  auto *FwdRet = cast<ReturnInst>(FwdMap[&RI]);
  IRBuilder<> B(FwdRet);
  Type *RetTy = Target.Fwd->getReturnType();
  Value *Pair =
      B.CreateInsertValue(PoisonValue::get(RetTy), FwdRet->getReturnValue(), 0);
  // The caller gives every returned pointer a shadow: one into constant
  // data (an accessor of a const object) gets its place in the sink.
  Pair = B.CreateInsertValue(Pair, shadowOrSink(B, RV), 1);
  FwdMap[&RI] = B.CreateRet(Pair);
  FwdRet->eraseFromParent();
}

/// What an inner derivative call left in the code. Reverse over forward:
/// its places in the tangent sink are memory whose adjoints go to this
/// gradient's sink, which never shares a byte with them; its tangent blocks
/// are heap blocks with shadow blocks of their own. Reverse over reverse:
/// the inner gradient's tape records have adjoints in the adjoint twins
/// of its tape's chunks (the adjoint tape follows the tape), and its shadow
/// blocks have shadow blocks.
void GradientGenerator::forwardNestedRuntime(CallBase &Call, NestedRuntime Kind,
                                             Instruction *FwdI) {
  if (refusedInVectorMode(Call, "code that itself differentiates"))
    return;
  IRBuilder<> B(FwdI->getNextNode());
  B.SetCurrentDebugLocation(FwdI->getDebugLoc());
  Value *Arg0 = Call.arg_size() ? Call.getArgOperand(0) : nullptr;
  auto SetShadow = [&](Value *Shadow) {
    Shadow->setName(Call.getName() + "'");
    FwdShadows[&Call] = Shadow;
  };
  switch (Kind) {
  case NestedRuntime::SinkOf:
  case NestedRuntime::NestedSinkOf:
  case NestedRuntime::LoadedSinkOf:
    return SetShadow(B.CreateCall(D.abi().sinkOf(), {FwdI}));
  case NestedRuntime::SinkFill:
  case NestedRuntime::NestedSinkFill:
    if (AI.hasShadow(Arg0))
      B.CreateCall(D.abi().sinkFill(), {fwdShadow(Arg0), fwdValue(Arg0),
                                        fwdValue(Call.getArgOperand(2))});
    return;
  case NestedRuntime::TangentRealloc:
  case NestedRuntime::ShadowRealloc:
    // Like realloc's (an inner tangent or shadow block is a heap block):
    // a shadow block with the old one's contents.
    return SetShadow(
        reallocShadow(B, Call, Arg0, fwdValue(Call.getArgOperand(1))));
  case NestedRuntime::TangentAlloc:
  case NestedRuntime::ShadowAlloc:
    // A tangent or shadow block is a heap block like any other: a shadow
    // block of its own (in checkpointed code it is an arena block: Calloc).
    return SetShadow(B.CreateCall(D.abi().shadowAlloc(), {fwdValue(Arg0)}));
  case NestedRuntime::GradientCall:
    B.CreateCall(D.abi().adjointTapeClear());
    B.CreateCall(D.abi().adjointTapeMirror(),
                 {ConstantPointerNull::get(B.getPtrTy())});
    return;
  case NestedRuntime::TapeSlowPath:
    return SetShadow(B.CreateCall(D.abi().adjointTapeMirror(), {FwdI}));
  case NestedRuntime::PlaceOf:
    return SetShadow(B.CreateCall(D.abi().adjointOfSinkPlace(), {FwdI}));
  case NestedRuntime::PlaceFill:
    if (AI.hasShadow(Arg0))
      B.CreateCall(D.abi().adjointSinkFillPlaces(),
                   {fwdShadow(Arg0), fwdValue(Call.getArgOperand(1)),
                    fwdValue(Call.getArgOperand(2))});
    return;
  case NestedRuntime::BindGlobals:
    return D.bindShadowGlobalsOneLevelUp(
        B, Call, fwdValue(Call.getArgOperand(3)),
        fwdShadow(Call.getArgOperand(3)), Sig.Level);
  default:
    return;
  }
}

/// The shadow of realloc \p Call (or of an inner derivative's realloc of a
/// tangent or shadow block) of \p Old to \p Bytes, which records what
/// the block holds, so that a derivative of this code (nested
/// differentiation) knows it too.
Value *GradientGenerator::reallocShadow(IRBuilder<> &B, CallBase &Call,
                                        Value *Old, Value *Bytes) {
  Value *OldShadows = fwdShadow(Old);
  return makeLanes(B, W, [&](unsigned Lane) -> Value * {
    CallInst *Shadow = B.CreateCall(D.abi().shadowRealloc(),
                                    {laneOf(B, OldShadows, Lane, W), Bytes});
    recordCopiedKindOf(*Shadow, Call);
    return Shadow;
  });
}

void GradientGenerator::forwardCall(CallBase &Call, Instruction *FwdI) {
  if (std::optional<NestedRuntime> Kind = nestedRuntimeCall(Call))
    return forwardNestedRuntime(Call, *Kind, FwdI);
  // Here, not in the reverse sweep: a longjmp ends a block that never
  // reaches the return, which only the forward sweep has.
  if (std::optional<std::string> Why = whyRefusedCall(Call))
    return unsupported(Call, *Why);
  CalleeInfo Info = classifyCall(Call);
  IRBuilder<> B(FwdI->getNextNode());
  // At the call's line: a derivative differentiated again (nested
  // differentiation) reports its refusals of these runtime calls there.
  B.SetCurrentDebugLocation(FwdI->getDebugLoc());
  auto Arg = [&](unsigned K) {
    return B.CreateZExtOrTrunc(fwdValue(Call.getArgOperand(K)), B.getInt64Ty());
  };
  Value *Shadow = nullptr;
  switch (Info.Kind) {
  case CalleeKind::Module:
  case CalleeKind::Indirect:
    return forwardDifferentiatedCall(Call, cast<CallBase>(FwdI));
  case CalleeKind::Alloc:
  case CalleeKind::Calloc:
  case CalleeKind::AlignedAlloc: {
    if (Checkpointed) {
      Shadow = derivedArenaShadow(B, FwdI);
      break;
    }
    Value *Bytes = allocatedBytes(B, Info.Kind, Arg);
    Shadow = makeLanes(B, W, [&](unsigned) -> Value * {
      return B.CreateCall(D.abi().shadowAlloc(), {Bytes});
    });
    break;
  }
  case CalleeKind::Realloc:
    Shadow = reallocShadow(B, Call, Call.getArgOperand(0), Arg(1));
    break;
  case CalleeKind::PointerCast:
    Shadow = fwdShadow(Call.getArgOperand(0));
    break;
  case CalleeKind::PointerMove: {
    Value *From = fwdValue(Call.getArgOperand(0)),
          *Shadows = fwdShadow(Call.getArgOperand(0));
    Shadow = makeLanes(B, W, [&](unsigned K) {
      return movedLikeIts(B, laneOf(B, Shadows, K, W), From, FwdI);
    });
    break;
  }
  case CalleeKind::MemTransfer: {
    // Shadow pointers are copied along with the pointers they shadow.
    Value *Dst = Call.getArgOperand(0), *Src = Call.getArgOperand(1);
    if (AI.hasShadow(Dst) && copiedElementKind(Call) == ElementKind::Pointer) {
      if (Checkpointed) {
        B.CreateCall(D.abi().copyPointerShadows(),
                     {fwdValue(Dst), fwdShadow(Dst), fwdValue(Src),
                      fwdShadow(Src), Arg(2)});
        return;
      }
      // Pointers out of memory without shadows get their places in the sink
      // (shadowOrSink); each lane copies its own shadows.
      if (!AI.hasShadow(Src)) {
        Value *Bytes = Arg(2);
        forEachLane(B, fwdShadow(Dst), W, [&](Value *DstShadow) {
          B.CreateCall(D.abi().sinkFill(), {DstShadow, fwdValue(Src), Bytes});
        });
        return;
      }
      for (unsigned Lane = 0; Lane < W; ++Lane) {
        auto *Copy = cast<CallBase>(FwdI->clone());
        Copy->setArgOperand(0, laneOf(B, fwdShadow(Dst), Lane, W));
        Copy->setArgOperand(1, laneOf(B, fwdShadow(Src), Lane, W));
        B.Insert(Copy);
      }
    }
    return;
  }
  case CalleeKind::Free:
    if (PostponedFrees.contains(getUnderlyingObject(Call.getArgOperand(0)))) {
      auto *FwdFree = cast<CallBase>(FwdI);
      FwdFree->setCalledFunction(D.abi().deferFree());
      FwdFree->setAttributes(AttributeList());
    }
    return;
  default:
    return;
  }
  // A pointer cast of a global has that global's shadow, whose name stays.
  if (isa<Instruction>(Shadow))
    Shadow->setName(Call.getName() + "'");
  FwdShadows[&Call] = Shadow;
}

/// A byval argument is copied for the callee, so its shadow is copied too:
/// pointer fields mirror the caller's shadow pointers, floating-point fields
/// start from zero (the copy's adjoints are its own until the reverse sweep
/// hands them back to the caller's object).
Value *GradientGenerator::forwardByValShadow(CallBase &Call, unsigned ArgNo) {
  auto *FwdCall = cast<Instruction>(FwdMap[&Call]);
  IRBuilder<> B(FwdCall);
  Type *Ty = Call.getParamByValType(ArgNo);
  Value *Shadows = fwdShadow(Call.getArgOperand(ArgNo));
  Value *Copies = makeLanes(B, W, [&](unsigned Lane) -> Value * {
    Value *Copy =
        B.CreateCall(slotShadowAlloc(), {B.getInt64(DL.getTypeAllocSize(Ty))});
    emitCopyPointerShadows(B, Ty, Copy, laneOf(B, Shadows, Lane, W));
    return Copy;
  });
  FwdCallFields[{&Call, ByValShadowField + ArgNo}] = Copies;
  return Copies;
}

void GradientGenerator::forwardDifferentiatedCall(CallBase &Call,
                                                  CallBase *FwdCall) {
  Function *Callee = Call.getCalledFunction();
  DiffSignature S = signatureAt(Call, Callee);
  if (callRefusedInVectorMode(Call))
    return;
  if (isParallelRegionCall(Call))
    return forwardParallelCall(Call, FwdCall, S);
  SmallVector<Value *, 8> Args(FwdCall->args());
  IRBuilder<> B(FwdCall);
  for (unsigned K = 0; K < S.Args.size(); ++K)
    if (S.Args[K] == ArgActivity::Dup)
      Args.push_back(Call.isByValArgument(K)
                         ? forwardByValShadow(Call, K)
                         : fwdShadow(Call.getArgOperand(K)));

  auto EmitFwd = [&](IRBuilder<> &CB, Function *Fn) -> Value * {
    DiffSignature Each = S;
    Each.Fn = Fn;
    CallInst *New = CB.CreateCall(D.get(Each).Fwd, Args);
    // ABI attributes (byval, sret, zeroext, ...) of the primal arguments
    // must match the forward sweep's parameters, which carry them.
    AttributeList Attrs = New->getAttributes();
    for (unsigned K = 0; K < FwdCall->arg_size(); ++K)
      Attrs = Attrs.addParamAttributes(
          New->getContext(), K,
          AttrBuilder(New->getContext(),
                      FwdCall->getAttributes().getParamAttrs(K)));
    New->setAttributes(Attrs);
    return New;
  };
  Type *ResultTy = forwardReturnType(Call.getType(), W);
  Value *Result = Callee
                      ? EmitFwd(B, Callee)
                      : dispatchIndirect(B, Call, FwdCall->getCalledOperand(),
                                         ResultTy, EmitFwd);
  Value *Primal = Result;
  if (carriesPointer(Call.getType())) {
    B.SetInsertPoint(FwdCall);
    Primal = B.CreateExtractValue(Result, 0);
    Value *Shadow = B.CreateExtractValue(Result, 1, Call.getName() + "'");
    FwdShadows[&Call] = Shadow;
  }
  if (Primal)
    FwdCall->replaceAllUsesWith(Primal);
  FwdCall->eraseFromParent();
  FwdMap[&Call] = Primal;
}

} // namespace capsule
