//===- ReverseSweep.cpp - The reverse sweep of one derivative -------------===//
//
// Adjoints of SSA values live in stack slots of the reverse function (one
// per active value, zero-initialised; promoted to registers afterwards), so
// reverse blocks can be generated in any order. Taking a value's adjoint at
// its definition also zeroes the slot: a value redefined in a loop starts
// each iteration's reversal from zero. Adjoints of memory live in shadow
// memory: load p -> shadow[p] += d; store v, p -> dv += shadow[p],
// shadow[p] = 0.
//===----------------------------------------------------------------------===//
#include "Analysis/MemoisationCheck.h"
#include "Analysis/MemoryKinds.h"
#include "Reverse/ByValShadows.h"
#include "Reverse/ComplexRules.h"
#include "Reverse/DerivativeRules.h"
#include "Reverse/GradientGenerator.h"
#include "Support/CustomRules.h"
#include "Support/Diagnostics.h"
#include "Support/GeneratedCode.h"
#include "Support/IndirectDispatch.h"
#include "Support/Lanes.h"
#include "Support/LibraryOutputs.h"
#include "Support/LibraryRules.h"
#include "Support/MarkerCalls.h"
#include "Support/ParallelRegions.h"
#include "Support/RefusedCalls.h"

#include "Support/RuntimeABI.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace capsule {

/// a + b for adjoint values: elementwise on the floating-point leaves of
/// aggregates (other leaves of an adjoint carry nothing).
static Value *addAdjoints(IRBuilder<> &B, Value *A, Value *C) {
  Type *T = A->getType();
  if (T->isFPOrFPVectorTy())
    return B.CreateFAdd(A, C);
  unsigned N =
      isa<StructType>(T) ? T->getStructNumElements() : T->getArrayNumElements();
  Value *Sum = A;
  for (unsigned I = 0; I < N; ++I) {
    Value *X = B.CreateExtractValue(A, I);
    if (!carriesFloat(X->getType()))
      continue;
    Value *Y = B.CreateExtractValue(C, I);
    Sum = B.CreateInsertValue(Sum, addAdjoints(B, X, Y), I);
  }
  return Sum;
}

AllocaInst *GradientGenerator::adjointSlot(Value *V) {
  AllocaInst *&Slot = AdjointSlots[V];
  if (!Slot) {
    IRBuilder<> B(RevEntry, RevEntry->begin());
    Type *Ty = twinType(V->getType());
    Slot = B.CreateAlloca(Ty, nullptr, V->getName() + ".adj");
    B.SetInsertPoint(RevEntry->getTerminator());
    B.CreateStore(zeroAdjoint(Ty), Slot);
  }
  return Slot;
}

Value *GradientGenerator::takeAdjoint(Value *V) {
  if (!AI.isActive(V))
    return nullptr;
  AllocaInst *Slot = adjointSlot(V);
  Type *Ty = Slot->getAllocatedType();
  Value *D = RB.CreateLoad(Ty, Slot);
  RB.CreateStore(zeroAdjoint(Ty), Slot);
  return D;
}

void GradientGenerator::addAdjoint(Value *V, Value *Adj) {
  if (!Adj || isa<Constant>(V) || !AI.isActive(V))
    return;
  AllocaInst *Slot = adjointSlot(V);
  Value *Old = RB.CreateLoad(Slot->getAllocatedType(), Slot);
  RB.CreateStore(addAdjoints(RB, Old, Adj), Slot);
}

void GradientGenerator::addToShadowMemory(Value *PrimalPtr, Type *Ty,
                                          Value *Adj, Align Alignment) {
  Value *ShadowPtr = shadow(PrimalPtr);
  // Other threads of a parallel region may be adding to the same adjoint
  // (they read the same memory); race-free primal code gives no thread's
  // write (shadow[p] = 0) a concurrent reader.
  if (Sig.Parallel && !threadPrivate(PrimalPtr)) {
    if (!deferAdjoint(PrimalPtr, Adj))
      addAtomically(RB, DL, ShadowPtr, Adj);
    return;
  }
  auto Note = [&](Instruction &Access, unsigned) {
    noteMemoryAccess(&Access, PrimalPtr);
  };
  Value *Old = loadLanes(RB, Ty, ShadowPtr, Alignment, W, Note);
  storeLanes(RB, Ty, addAdjoints(RB, Old, Adj), ShadowPtr, Alignment, W, Note);
}

Value *GradientGenerator::primal(Value *V) {
  return reverseValue(V, PrimalField);
}

Value *GradientGenerator::shadow(Value *V) {
  return reverseValue(V, ShadowField);
}

void GradientGenerator::unsupported(const Instruction &I, const Twine &Why) {
  reportUnsupported(I, *Sig.Fn, Why);
  D.noteFailure();
}

void GradientGenerator::buildReverse() {
  LLVMContext &C = P.getContext();
  Function &Rev = *Target.Rev;
  RevEntry = BasicBlock::Create(C, "entry", &Rev);
  for (BasicBlock &BB : P)
    if (reachesExit(&BB))
      RevBlock[&BB] = BasicBlock::Create(C, "rev." + BB.getName(), &Rev);
  RevReturn = BasicBlock::Create(C, "rev.return", &Rev);
  // Every record exists before any block is reversed: loop-invariant values
  // are added to the records of loop exits while reversing loop bodies.
  for (auto &[BB, RevBB] : RevBlock) {
    Record &R = Records[BB];
    RB.SetInsertPoint(RevBB);
    R.Base = cast<Instruction>(
        RB.CreateFreeze(PoisonValue::get(RB.getPtrTy()), "record"));
    R.HeaderEnd = cast<Instruction>(
        RB.CreateFreeze(PoisonValue::get(RB.getPtrTy()), "header.end"));
  }
  RB.SetInsertPoint(RevEntry);
  RB.CreateBr(Exit ? RevBlock[Exit] : RevReturn);
  findDeferredAdjoints();

  for (BasicBlock &BB : reverse(P))
    if (reachesExit(&BB))
      reverseBlock(&BB);

  // Return the adjoints of the out arguments.
  RB.SetInsertPoint(RevReturn);
  StructType *ResultTy = cast<StructType>(Rev.getReturnType());
  Value *Result = PoisonValue::get(ResultTy);
  unsigned Index = 0;
  for (Argument &A : P.args()) {
    if (Sig.Args[A.getArgNo()] != ArgActivity::Out)
      continue;
    AllocaInst *Slot = AdjointSlots.lookup(&A);
    Type *Ty = twinType(A.getType());
    Value *Adj = Constant::getNullValue(Ty);
    // Adding +0.0 turns an untouched -0.0 into the 0.0 users expect.
    if (Slot)
      Adj = addAdjoints(RB, RB.CreateLoad(Ty, Slot), Adj);
    Result = RB.CreateInsertValue(Result, Adj, Index++);
  }
  RB.CreateRet(Result);
  redoFieldsFromOthers();
  emitPops();
  emitAliasScopes();
}

void GradientGenerator::reverseBlock(BasicBlock *BB) {
  Current = BB;
  RB.SetInsertPoint(RevBlock[BB]);
  if (auto *RI = dyn_cast<ReturnInst>(BB->getTerminator()))
    if (Value *RV = RI->getReturnValue()) {
      checkHandedPointer(*RI, RV);
      checkHandedInteger(*RI, RV);
    }
  if (BB == Exit && Sig.ActiveReturn)
    addAdjoint(cast<ReturnInst>(BB->getTerminator())->getReturnValue(),
               Target.Rev->getArg(0));
  for (Instruction &I : reverse(*BB)) {
    if (isa<PHINode>(I))
      break;
    if (!I.isTerminator()) {
      flushDeferredAdjointsBefore(I);
      reverseInstruction(I);
    }
  }
  if (BB->isEntryBlock())
    flushDeferredAdjoints();
  branchToPredecessors(BB);
}

void GradientGenerator::branchToPredecessors(BasicBlock *BB) {
  // Phis read their operands in parallel, so all phi adjoints are taken
  // before any is passed on (a phi may feed another phi of the block).
  SmallVector<std::pair<PHINode *, Value *>, 4> PhiAdjoints;
  for (PHINode &Phi : BB->phis())
    if (Value *Adj = takeAdjoint(&Phi))
      PhiAdjoints.push_back({&Phi, Adj});

  if (BB->isEntryBlock()) {
    RB.CreateBr(RevReturn);
    return;
  }
  auto CountersOfBB = Counters.find(BB);
  ArrayRef<InductionVariable> IVs;
  if (CountersOfBB != Counters.end())
    IVs = CountersOfBB->second;
  auto EnterPredecessor = [&](BasicBlock *Pred) {
    for (auto &[Phi, Adj] : PhiAdjoints)
      addAdjoint(Phi->getIncomingValueForBlock(Pred), Adj);
    // Stepping back into the previous iteration: counters count back.
    if (!IVs.empty() && Pred == IVs.front().L->getLoopLatch())
      for (const InductionVariable &IV : IVs) {
        Value *Now = primal(IV.Phi);
        AllocaInst *Slot = CacheSlots.lookup({IV.Phi, PrimalField});
        RB.CreateStore(RB.CreateSub(Now, IV.Step), Slot);
      }
    RB.CreateBr(RevBlock[Pred]);
  };
  ArrayRef<BasicBlock *> Ps = Preds[BB];
  if (Ps.size() == 1) {
    EnterPredecessor(Ps.front());
    return;
  }
  Value *Index;
  if (!IVs.empty()) {
    // A loop header: the first iteration came from the preheader.
    const InductionVariable &IV = IVs.front();
    auto Position = [&](BasicBlock *B) {
      return RB.getInt8(find(Ps, B) - Ps.begin());
    };
    Value *First = RB.CreateICmpEQ(primal(IV.Phi), primal(IV.Start));
    Index = RB.CreateSelect(First, Position(IV.L->getLoopPreheader()),
                            Position(IV.L->getLoopLatch()));
  } else {
    Index = recordField(BB, nullptr, PrimalField, RB.getInt8Ty());
  }
  LLVMContext &C = P.getContext();
  bool NeedEdges = !PhiAdjoints.empty() || !IVs.empty();
  SmallVector<BasicBlock *, 4> Edges;
  for (BasicBlock *Pred : Ps)
    Edges.push_back(NeedEdges ? BasicBlock::Create(C, "rev.edge", Target.Rev)
                              : RevBlock[Pred]);
  SwitchInst *Switch = RB.CreateSwitch(Index, Edges.back(), Ps.size() - 1);
  for (unsigned I = 0; I + 1 < Ps.size(); ++I)
    Switch->addCase(RB.getInt8(I), Edges[I]);
  if (!NeedEdges)
    return;
  for (unsigned I = 0; I < Ps.size(); ++I) {
    RB.SetInsertPoint(Edges[I]);
    EnterPredecessor(Ps[I]);
  }
}

void GradientGenerator::checkUntrackedAccess(Instruction &I) {
  if (std::optional<std::string> Why = Checks.untrackedAccess(I))
    unsupported(I, *Why);
}

void GradientGenerator::reverseInstruction(Instruction &I) {
  if (isa<LoadInst, StoreInst>(I))
    checkUntrackedAccess(I);
  if (auto *Cmp = dyn_cast<FCmpInst>(&I)) {
    if (std::optional<std::string> Why = whyMemoisation(*Cmp, AI))
      unsupported(I, *Why);
    return;
  }
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I);
      RMW && RMW->isFloatingPointOperation() && AI.hasShadow(I.getOperand(0)))
    return reverseAtomicAccumulation(*RMW);
  // Both keep the address in operand 0.
  if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I) &&
      AI.hasShadow(I.getOperand(0)) && !isIntegerAtomicUpdate(I))
    return unsupported(I, "atomic update of memory that has adjoints");
  if (I.getType()->isFPOrFPVectorTy() && !carriesFloat(I.getType()) &&
      any_of(I.operands(), [&](const Use &U) { return AI.isVaried(U); }))
    return unsupported(I, "active value converted to long double (x86_fp80 "
                          "or fp128), which is not differentiated; use "
                          "double");
  // A float's bits read through memory, as -O0 code does it (a union, a
  // cast pointer), like the bitcast below.
  if (auto *LI = dyn_cast<LoadInst>(&I);
      LI && Checks.readsFloatBitsAsNumber(*LI))
    return unsupported(I, "floating-point data read as integer bits (type "
                          "punning through a union or a cast pointer); its "
                          "derivative would be lost");
  if (std::optional<std::string> Why = Checks.floatBitsStored(I))
    return unsupported(I, *Why);
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return reverseLoad(*LI);
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return reverseStore(*SI);
  if (auto *Call = dyn_cast<CallBase>(&I))
    return reverseCall(*Call);
  if (isa<BinaryOperator, UnaryOperator, FPExtInst, FPTruncInst, SelectInst,
          FreezeInst>(I))
    return reverseArithmetic(I);
  if (isa<ExtractValueInst, InsertValueInst, ExtractElementInst,
          InsertElementInst, ShuffleVectorInst>(I))
    return reverseAggregate(I);
  if (isa<AllocaInst>(I) && AI.hasShadow(&I))
    return forEachLane(RB, shadow(&I), W, [&](Value *Shadow) {
      RB.CreateCall(slotShadowFree(), {Shadow});
    });
  if (std::optional<std::string> Why = Checks.floatToBits(I))
    return unsupported(I, *Why);
  if (std::optional<std::string> Why = Checks.floatFromBits(I))
    return unsupported(I, *Why);

  if (AI.isActive(&I))
    unsupported(I, "no derivative rule for this instruction");
}

void GradientGenerator::reverseArithmetic(Instruction &I) {
  Value *Adj = takeAdjoint(&I);
  if (!Adj)
    return;
  auto Active = [&](unsigned K) { return AI.isActive(I.getOperand(K)); };
  Value *A = I.getOperand(0);
  switch (I.getOpcode()) {
  case Instruction::FAdd:
    addAdjoint(A, Adj);
    addAdjoint(I.getOperand(1), Adj);
    return;
  case Instruction::FSub:
    addAdjoint(A, Adj);
    if (Active(1))
      addAdjoint(I.getOperand(1), RB.CreateFNeg(Adj));
    return;
  case Instruction::FMul:
    if (Active(0))
      addAdjoint(A, scaledAdjoint(RB, Adj, primal(I.getOperand(1))));
    if (Active(1))
      addAdjoint(I.getOperand(1), scaledAdjoint(RB, Adj, primal(A)));
    return;
  case Instruction::FDiv: {
    // A reciprocal r = 1 / b: db = -(d r) r, with no division.
    if (match(A, PatternMatch::m_FPOne())) {
      Value *R = primal(&I);
      addAdjoint(I.getOperand(1), RB.CreateFNeg(scaledAdjoint(
                                      RB, scaledAdjoint(RB, Adj, R), R)));
      return;
    }
    // a / b: da = d / b, db = -(d / b) * (a / b).
    Value *Quotient =
        RB.CreateFDiv(Adj, splatLanes(RB, primal(I.getOperand(1)), W));
    addAdjoint(A, Quotient);
    if (Active(1))
      addAdjoint(I.getOperand(1),
                 RB.CreateFNeg(scaledAdjoint(RB, Quotient, primal(&I))));
    return;
  }
  case Instruction::FRem: {
    // a - b * trunc(a / b): da = d, db = -d * trunc(a / b).
    addAdjoint(A, Adj);
    if (Active(1)) {
      Value *Q = RB.CreateFDiv(primal(A), primal(I.getOperand(1)));
      Value *T = RB.CreateUnaryIntrinsic(Intrinsic::trunc, Q);
      addAdjoint(I.getOperand(1), RB.CreateFNeg(scaledAdjoint(RB, Adj, T)));
    }
    return;
  }
  case Instruction::FNeg:
    addAdjoint(A, RB.CreateFNeg(Adj));
    return;
  case Instruction::FPExt:
    addAdjoint(A, RB.CreateFPTrunc(Adj, twinType(A->getType())));
    return;
  case Instruction::FPTrunc:
    addAdjoint(A, RB.CreateFPExt(Adj, twinType(A->getType())));
    return;
  case Instruction::Freeze:
    addAdjoint(A, Adj);
    return;
  case Instruction::Select: {
    auto &Sel = cast<SelectInst>(I);
    Value *Cond = primal(Sel.getCondition());
    Value *Zero = zeroAdjoint(Adj->getType());
    if (Active(1))
      addAdjoint(Sel.getTrueValue(), RB.CreateSelect(Cond, Adj, Zero));
    if (Active(2))
      addAdjoint(Sel.getFalseValue(), RB.CreateSelect(Cond, Zero, Adj));
    return;
  }
  default:
    unsupported(I, "no derivative rule for this operation");
  }
}

void GradientGenerator::reverseAggregate(Instruction &I) {
  Value *Adj = takeAdjoint(&I);
  if (!Adj)
    return;
  auto Zero = [&](Type *T) { return zeroAdjoint(twinType(T)); };
  if (!isa<ExtractValueInst, InsertValueInst>(I) &&
      refusedInVectorMode(I, "SIMD vector values"))
    return;
  if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    Value *Agg = EV->getAggregateOperand();
    addAdjoint(
        Agg, RB.CreateInsertValue(Zero(Agg->getType()), Adj, EV->getIndices()));
  } else if (auto *IV = dyn_cast<InsertValueInst>(&I)) {
    Value *Inserted = IV->getInsertedValueOperand();
    if (AI.isActive(Inserted))
      addAdjoint(Inserted, RB.CreateExtractValue(Adj, IV->getIndices()));
    addAdjoint(
        IV->getAggregateOperand(),
        RB.CreateInsertValue(Adj, Zero(Inserted->getType()), IV->getIndices()));
  } else if (auto *EE = dyn_cast<ExtractElementInst>(&I)) {
    Value *Vec = EE->getVectorOperand();
    addAdjoint(Vec, RB.CreateInsertElement(Zero(Vec->getType()), Adj,
                                           primal(EE->getIndexOperand())));
  } else if (auto *IE = dyn_cast<InsertElementInst>(&I)) {
    Value *Index = primal(IE->getOperand(2));
    Value *Scalar = IE->getOperand(1);
    if (AI.isActive(Scalar))
      addAdjoint(Scalar, RB.CreateExtractElement(Adj, Index));
    addAdjoint(IE->getOperand(0),
               RB.CreateInsertElement(Adj, Zero(Scalar->getType()), Index));
  } else {
    auto &SV = cast<ShuffleVectorInst>(I);
    auto *InTy = cast<FixedVectorType>(SV.getOperand(0)->getType());
    unsigned N = InTy->getNumElements();
    Value *AdjIn[2] = {Zero(InTy), Zero(InTy)};
    for (auto [Lane, Mask] : enumerate(SV.getShuffleMask())) {
      if (Mask < 0)
        continue;
      Value *&Target = AdjIn[Mask >= int(N)];
      unsigned Src = Mask % N;
      Value *Sum = RB.CreateFAdd(RB.CreateExtractElement(Target, Src),
                                 RB.CreateExtractElement(Adj, Lane));
      Target = RB.CreateInsertElement(Target, Sum, Src);
    }
    addAdjoint(SV.getOperand(0), AdjIn[0]);
    addAdjoint(SV.getOperand(1), AdjIn[1]);
  }
}

void GradientGenerator::reverseLoad(LoadInst &LI) {
  Value *Adj = takeAdjoint(&LI);
  if (!Adj)
    return;
  addToShadowMemory(LI.getPointerOperand(), LI.getType(), Adj,
                    shadowAlign(LI.getAlign()));
}

/// `#pragma omp atomic` s += v: v's adjoint is s's, which the update
/// leaves as it is (other threads read it too, atomically).
void GradientGenerator::reverseAtomicAccumulation(AtomicRMWInst &RMW) {
  if (refusedInVectorMode(RMW, "an atomic update"))
    return;
  AtomicRMWInst::BinOp Op = RMW.getOperation();
  if ((Op != AtomicRMWInst::FAdd && Op != AtomicRMWInst::FSub) ||
      AI.isActive(&RMW))
    return unsupported(RMW, "atomic update of memory that has adjoints other "
                            "than an addition or subtraction whose old value "
                            "goes unused");
  Value *Val = RMW.getValOperand();
  LoadInst *Adj = RB.CreateAlignedLoad(
      Val->getType(), shadow(RMW.getPointerOperand()), RMW.getAlign());
  Adj->setAtomic(AtomicOrdering::Monotonic);
  noteMemoryAccess(Adj, RMW.getPointerOperand());
  addAdjoint(Val, Op == AtomicRMWInst::FAdd ? Adj : RB.CreateFNeg(Adj));
}

void GradientGenerator::reverseStore(StoreInst &SI) {
  Value *V = SI.getValueOperand();
  Value *Ptr = SI.getPointerOperand();
  if (!AI.hasShadow(Ptr) ||
      (carriesPointer(V->getType()) && !carriesFloat(V->getType())))
    return;
  if (!carriesFloat(V->getType()))
    return reverseIntegerStore(SI);
  // The stored value overwrote whatever adjoint the location held: it moves
  // to the stored value, and the location starts from zero before the store.
  Value *ShadowPtr = shadow(Ptr);
  auto Note = [&](Instruction &Access, unsigned) {
    noteMemoryAccess(&Access, Ptr);
  };
  Value *Adj = loadLanes(RB, V->getType(), ShadowPtr,
                         shadowAlign(SI.getAlign()), W, Note);
  storeLanes(RB, V->getType(), Constant::getNullValue(twinType(V->getType())),
             ShadowPtr, shadowAlign(SI.getAlign()), W, Note);
  addAdjoint(V, Adj);
}

/// An integer store may overwrite floating-point data (optimization turns
/// memset(p, 0, 8) into `store i64 0`): a constant kills the adjoint of the
/// bytes it overwrites. An integer copy out of memory with adjoints that
/// preprocessing could not retype might move floating-point data: refuse it
/// rather than lose its derivative.
void GradientGenerator::reverseIntegerStore(StoreInst &SI) {
  Value *V = SI.getValueOperand();
  if (isa<Constant>(V)) {
    uint64_t Bytes = DL.getTypeStoreSize(V->getType());
    forEachLane(RB, shadow(SI.getPointerOperand()), W, [&](Value *Shadow) {
      RB.CreateMemSet(Shadow, RB.getInt8(0), Bytes,
                      W == 1 ? MaybeAlign(shadowAlign(SI.getAlign()))
                             : MaybeAlign());
    });
    return;
  }
  // In a step function, arguments and results go through records.
  if (SI.getMetadata(ExactAccessTypeKind))
    checkHandedInteger(SI, V);
  auto *Source = dyn_cast<LoadInst>(V);
  unsigned Bits = V->getType()->getScalarSizeInBits();
  if (!Source || !AI.hasShadow(Source->getPointerOperand()))
    return;
  if ((Bits == 32 || Bits == 64) && mayMoveFloatingPoint(SI) &&
      mayMoveFloatingPoint(*Source))
    unsupported(SI, "untyped " + Twine(Bits) +
                        "-bit copy between memories that have adjoints: it "
                        "may move floating-point data (compile with strict "
                        "aliasing, the default, so that TBAA tells)");
  // Bytes carry no part of an adjoint: a double copied or swapped byte by
  // byte (a hand-written generic swap) would keep its adjoint in place.
  else if (Bits < 32 && copiesFloatingPointBytes(*Source, SI))
    unsupported(SI, "floating-point data copied byte by byte between "
                    "memories that have adjoints (a generic copy or swap "
                    "through char pointers): its derivative would be lost; "
                    "copy the values whole (memcpy, an assignment, or a "
                    "temporary of their type)");
}

void GradientGenerator::reverseCall(CallBase &Call) {
  if (std::optional<NestedRuntime> Kind = nestedRuntimeCall(Call))
    return reverseNestedRuntime(Call, *Kind);
  CalleeInfo Info = classifyCall(Call);
  switch (Info.Kind) {
  case CalleeKind::Math:
    return reverseMath(Call, Info.Math);
  case CalleeKind::Module:
    // Declared, with a rule for forward mode only.
    if (Info.Fn->isDeclaration() && !gradientRule(*Info.Fn))
      return unsupported(
          Call, DifferentiabilityChecks::whyNoDerivative(Call, Info.Fn));
    return reverseDifferentiatedCall(Call);
  case CalleeKind::Indirect:
    return reverseDifferentiatedCall(Call);
  case CalleeKind::MemTransfer:
    return reverseMemTransfer(Call);
  case CalleeKind::MemSet: {
    // Memory overwritten with a constant passes no adjoint on.
    Value *Dst = Call.getArgOperand(0);
    if (AI.hasShadow(Dst)) {
      Value *Bytes = primal(Call.getArgOperand(2));
      forEachLane(RB, shadow(Dst), W, [&](Value *Shadow) {
        RB.CreateMemSet(Shadow, RB.getInt8(0), Bytes, MaybeAlign());
      });
    }
    return;
  }
  case CalleeKind::Alloc:
  case CalleeKind::Calloc:
  case CalleeKind::AlignedAlloc:
    if (Checkpointed)
      return reverseArenaAllocation(Call, Info.Kind);
    forEachLane(RB, shadow(&Call), W, [&](Value *Shadow) {
      RB.CreateCall(D.abi().shadowRelease(), {Shadow});
    });
    return;
  case CalleeKind::Realloc:
    return reverseRealloc(Call);
  case CalleeKind::Free: {
    Value *Ptr = Call.getArgOperand(0);
    // An arena block's adjoints stay where they are, derived from its
    // address.
    if (AI.hasShadow(Ptr) && !Checkpointed)
      forEachLane(RB, shadow(Ptr), W, [&](Value *Shadow) {
        RB.CreateCall(D.abi().shadowNoteFree(), {Shadow});
      });
    return;
  }
  case CalleeKind::PointerCast:
  case CalleeKind::PointerMove:
    return;
  case CalleeKind::NoDerivative:
    return reverseLibraryOutputs(Call);
  case CalleeKind::ParallelSync:
    return reverseParallelSync(Call);
  case CalleeKind::External:
    // Reported by the forward sweep, which has every block.
    if (whyRefusedCall(Call))
      return;
    for (const Use &U : Call.args())
      if (AI.isVaried(U) || AI.hasShadow(U))
        return unsupported(
            Call, DifferentiabilityChecks::whyNoDerivative(Call, Info.Fn));
    return;
  }
}

/// A random-number generator's state, a clock's reading or the bytes read
/// from input replace what the memory held: the adjoints there go with it.
/// In interruptible code a replayed call's outputs are restored from the
/// replay log instead (__capsule_replay_take_bytes(p, n)), which replaces
/// them alike.
void GradientGenerator::reverseLibraryOutputs(CallBase &Call) {
  Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return;
  auto Drop = [&](unsigned ArgNo, function_ref<Value *()> Bytes) {
    Value *Ptr = Call.getArgOperand(ArgNo);
    if (!AI.hasShadow(Ptr))
      return;
    Value *N = Bytes();
    forEachLane(RB, shadow(Ptr), W, [&](Value *Shadow) {
      RB.CreateMemSet(Shadow, RB.getInt8(0), N, MaybeAlign());
    });
  };
  if (Callee->getName() == "__capsule_replay_take_bytes")
    return Drop(0, [&] { return primal(Call.getArgOperand(1)); });
  std::optional<SmallVector<LibraryOutput, 2>> Outputs =
      nondeterministicLibraryOutputs(Callee->getName());
  if (!Outputs)
    return;
  auto Arg = [&](unsigned K) { return primal(Call.getArgOperand(K)); };
  for (const LibraryOutput &O : *Outputs)
    Drop(O.Arg, [&] {
      return writtenBytes(RB, O, Arg,
                          O.PerResultUnit ? primal(&Call) : nullptr);
    });
}

void GradientGenerator::reverseMath(CallBase &Call, MathOp Op) {
  if (isComplexOp(Op))
    return reverseComplexMath(Call, Op);
  Value *Adj = takeAdjoint(&Call);
  if (!Adj)
    return;
  unsigned N = Call.arg_size();
  SmallVector<bool, 3> Wanted;
  for (unsigned I = 0; I < N; ++I)
    Wanted.push_back(AI.isActive(Call.getArgOperand(I)));
  auto Arg = [&](unsigned I) { return primal(Call.getArgOperand(I)); };
  auto Result = [&]() { return primal(&Call); };
  // Anywhere in the block: the reverse sweep runs after all of it. Taping
  // the sibling's result costs less than calling the function again.
  auto Sibling = [&](MathOp O) -> Value * {
    CallBase *S = siblingMathCall(Call, O, /*OnlyBefore=*/false);
    return S ? primal(S) : nullptr;
  };
  // In vector mode the rule's partial derivatives (the seed 1) scale every
  // lane.
  Value *Seed = W == 1 ? Adj : ConstantFP::get(Call.getType(), 1.0);
  SmallVector<Value *, 3> Adjs = mathAdjoints(
      RB, Op, N, Wanted, PrimalOperands{Arg, Result, Sibling}, Seed);
  for (unsigned I = 0; I < N; ++I)
    addAdjoint(Call.getArgOperand(I),
               W == 1 || !Adjs[I] ? Adjs[I] : scaledAdjoint(RB, Adj, Adjs[I]));
}

/// Argument k's adjoint gains the sum over the result's scalars j of
/// adjoint_j * d result_j / d argument_k, scalar by scalar.
void GradientGenerator::reverseComplexMath(CallBase &Call, MathOp Op) {
  Value *Adj = takeAdjoint(&Call);
  if (!Adj)
    return;
  SmallVector<Value *, 4> Args;
  SmallVector<unsigned, 4> PartsOfArg;
  for (Value *Arg : Call.args()) {
    SmallVector<Value *, 2> Parts =
        complexParts(RB, primal(Arg), Arg->getType());
    PartsOfArg.push_back(Parts.size());
    append_range(Args, Parts);
  }
  ComplexPartials Partials = complexPartials(RB, Op, Args, [&] {
    return complexParts(RB, primal(&Call), Call.getType());
  });
  SmallVector<Value *, 2> ResultAdjoints =
      complexParts(RB, Adj, Call.getType());
  unsigned K = 0;
  for (unsigned I = 0; I < Call.arg_size(); ++I) {
    Value *Arg = Call.getArgOperand(I);
    SmallVector<Value *, 2> Contributions;
    for (unsigned Part = 0; Part < PartsOfArg[I]; ++Part, ++K) {
      Value *Sum = nullptr;
      for (unsigned J = 0; J < ResultAdjoints.size(); ++J) {
        Value *Term = scaledAdjoint(RB, ResultAdjoints[J], Partials[K][J]);
        Sum = Sum ? RB.CreateFAdd(Sum, Term) : Term;
      }
      Contributions.push_back(Sum);
    }
    if (AI.isActive(Arg))
      addAdjoint(Arg,
                 fromComplexParts(RB, Arg->getType(), twinType(Arg->getType()),
                                  Contributions));
  }
}

void GradientGenerator::checkHandedPointer(Instruction &Where, Value *V) {
  if (std::optional<std::string> Why = Checks.handedPointer(V))
    unsupported(Where, *Why);
}

void GradientGenerator::checkHandedInteger(Instruction &Where, Value *V) {
  if (std::optional<std::string> Why = Checks.handedInteger(V))
    unsupported(Where, *Why);
}

void GradientGenerator::reverseDifferentiatedCall(CallBase &Call) {
  Function *Callee = Call.getCalledFunction();
  for (Value *Arg : Call.args()) {
    checkHandedPointer(Call, Arg);
    checkHandedInteger(Call, Arg);
  }
  DiffSignature S = signatureAt(Call, Callee);
  if (callRefusedInVectorMode(Call))
    return;
  for (unsigned I = 0; I < S.Args.size(); ++I)
    if (S.Args[I] == ArgActivity::Dup && Call.isByValArgument(I) &&
        holdsUnion(Call.getParamByValType(I)))
      unsupported(Call, "union passed by value: its type does not say "
                        "whether it holds floating-point data or pointers, "
                        "whose shadows the callee's copy needs (pass it by "
                        "pointer)");
  if (isParallelRegionCall(Call))
    return reverseParallelCall(Call, S);
  // The runtime's rules add adjoints without atomics.
  if (std::optional<GradientRule> Rule =
          S.Parallel && Callee ? gradientRule(*Callee) : std::nullopt)
    if (std::optional<StringRef> Routine = libraryRoutineOfRule(*Rule->Augment))
      return unsupported(Call, "the library routine '" + *Routine +
                                   "' inside an OpenMP parallel region is not "
                                   "supported yet (its built-in rule would "
                                   "add adjoints other threads add to too)");
  Value *RetAdj = nullptr;
  if (S.ActiveReturn)
    RetAdj = takeAdjoint(&Call);
  auto EmitRev = [&](IRBuilder<> &B, Function *Fn) -> Value * {
    DiffSignature Each = S;
    Each.Fn = Fn;
    Function *Rev = D.get(Each).Rev;
    return RetAdj ? B.CreateCall(Rev, {RetAdj}) : B.CreateCall(Rev, {});
  };
  Value *Result =
      Callee
          ? EmitRev(RB, Callee)
          : dispatchIndirect(
                RB, Call, primal(Call.getCalledOperand()),
                reverseResultType(Call.getFunctionType(), S.Args, W), EmitRev);
  unsigned Index = 0;
  for (unsigned I = 0; I < S.Args.size(); ++I) {
    if (S.Args[I] == ArgActivity::Out)
      addAdjoint(Call.getArgOperand(I), RB.CreateExtractValue(Result, Index++));
    if (S.Args[I] == ArgActivity::Dup && Call.isByValArgument(I))
      reverseByValShadow(Call, I);
  }
}

/// The callee's copy of a byval argument had its own shadow; the adjoints
/// it gathered belong to the caller's object it was copied from.
void GradientGenerator::reverseByValShadow(CallBase &Call, unsigned ArgNo) {
  Value *Copies = recordField(Current, &Call, ByValShadowField + ArgNo,
                              twinType(RB.getPtrTy()));
  Value *Shadows = shadow(Call.getArgOperand(ArgNo));
  for (unsigned Lane = 0; Lane < W; ++Lane) {
    Value *Copy = laneOf(RB, Copies, Lane, W);
    emitReturnCopyAdjoints(RB, D.abi(), Call.getParamByValType(ArgNo),
                           laneOf(RB, Shadows, Lane, W), Copy);
    RB.CreateCall(slotShadowFree(), {Copy});
  }
}

/// An inner derivative call's runtime calls move addresses, not values
/// (forwardNestedRuntime), except the inner gradient's copies of adjoints
/// and the adjoint twins of its tape (__capsule_adjoint_tape_clear).
/// Its tangent blocks have shadow blocks, which go as those of malloc and
/// free do; a shadow block's goes when this sweep passes its allocation, by
/// which time nothing of this call reads it.
void GradientGenerator::reverseNestedRuntime(CallBase &Call,
                                             NestedRuntime Kind) {
  if (refusedInVectorMode(Call, "code that itself differentiates"))
    return;
  Value *Block = Call.arg_size() ? Call.getArgOperand(0) : nullptr;
  switch (Kind) {
  case NestedRuntime::TangentAlloc:
    RB.CreateCall(D.abi().shadowRelease(), {shadow(&Call)});
    return;
  case NestedRuntime::ShadowAlloc:
    RB.CreateCall(D.abi().shadowFree(), {shadow(&Call)});
    return;
  case NestedRuntime::GradientCall:
    // The inner call has been reversed: the shadows of its records'
    // pointers go before the previous call's numbers are reversed.
    RB.CreateCall(D.abi().adjointTapeClear());
    return;
  case NestedRuntime::TangentFree:
  case NestedRuntime::DeferFree:
    if (AI.hasShadow(Block))
      RB.CreateCall(D.abi().shadowNoteFree(), {shadow(Block)});
    return;
  case NestedRuntime::CopyAdjoint:
    return reverseCopyAdjoint(Call);
  case NestedRuntime::TangentRealloc:
    return reverseRealloc(Call);
  case NestedRuntime::ShadowRealloc:
    reverseReallocCopy(Call);
    RB.CreateCall(D.abi().shadowFree(), {shadow(&Call)});
    return;
  case NestedRuntime::ReallocAdjoint:
    // dold += dnew; dnew = 0 over the prefix realloc copied: its adjoint
    // is that copy.
    if (AI.hasShadow(Call.getArgOperand(0)) &&
        AI.hasShadow(Call.getArgOperand(1)))
      RB.CreateCall(
          D.abi().reallocCopyPrefix(),
          {shadow(Call.getArgOperand(0)), shadow(Call.getArgOperand(1))});
    return;
  default:
    return;
  }
}

/// The inner gradient's dsrc += ddst; ddst = 0 (the adjoint of a memmove
/// from src to dst) is linear in adjoint memory, and its adjoint is that
/// memmove again, on this call's adjoints of the inner adjoints.
void GradientGenerator::reverseCopyAdjoint(CallBase &Call) {
  Value *DSrc = Call.getArgOperand(0), *DDst = Call.getArgOperand(1);
  if (!AI.hasShadow(DDst))
    return;
  Value *Len =
      RB.CreateZExtOrTrunc(primal(Call.getArgOperand(2)), RB.getInt64Ty());
  if (AI.hasShadow(DSrc))
    RB.CreateMemMove(shadow(DDst), MaybeAlign(), shadow(DSrc), MaybeAlign(),
                     Len);
  else
    RB.CreateMemSet(shadow(DDst), RB.getInt8(0), Len, MaybeAlign());
}

void GradientGenerator::reverseMemTransfer(CallBase &Call) {
  Value *Dst = Call.getArgOperand(0), *Src = Call.getArgOperand(1);
  if (!AI.hasShadow(Dst))
    return;
  ElementKind Kind = copiedElementKind(Call);
  if (Kind == ElementKind::Pointer || Kind == ElementKind::Integer)
    return;
  // Out of a constant without pointers, whatever the bytes are, the copy
  // only clears the destination's adjoints (below).
  if (Kind == ElementKind::Unknown &&
      (AI.hasShadow(Src) || !copiesPointerFreeConstant(Call)))
    return unsupported(Call, "cannot tell whether this copy moves "
                             "floating-point data (mixed or unknown element "
                             "types)");
  Value *Len =
      RB.CreateZExtOrTrunc(primal(Call.getArgOperand(2)), RB.getInt64Ty());
  if (!AI.hasShadow(Src)) {
    forEachLane(RB, shadow(Dst), W, [&](Value *DstShadow) {
      RB.CreateMemSet(DstShadow, RB.getInt8(0), Len, MaybeAlign());
    });
    return;
  }
  Type *ElemTy = scalarTypeOf(Kind, RB.getContext());
  // Other threads of a parallel region may read the source too; the
  // destination is this thread's, as a store's.
  bool Shared = Sig.Parallel && !threadPrivate(Src);
  Value *SrcShadows = shadow(Src), *DstShadows = shadow(Dst);
  for (unsigned Lane = 0; Lane < W; ++Lane)
    RB.CreateCall(D.abi().copyAdjoint(ElemTy, Shared),
                  {laneOf(RB, SrcShadows, Lane, W),
                   laneOf(RB, DstShadows, Lane, W), Len});
}

/// Before an arena block was allocated its memory held nothing the
/// computation reads, so its adjoints start from zero there: what is left
/// (adjoints of reads of never-written bytes, calloc's zeros) must not leak
/// into earlier users of the same addresses.
void GradientGenerator::reverseArenaAllocation(CallBase &Call,
                                               CalleeKind Kind) {
  auto Arg = [&](unsigned K) {
    return RB.CreateZExtOrTrunc(primal(Call.getArgOperand(K)), RB.getInt64Ty());
  };
  RB.CreateMemSet(shadow(&Call), RB.getInt8(0), allocatedBytes(RB, Kind, Arg),
                  MaybeAlign());
}

void GradientGenerator::reverseRealloc(CallBase &Call) {
  reverseReallocCopy(Call);
  forEachLane(RB, shadow(&Call), W, [&](Value *Shadow) {
    RB.CreateCall(D.abi().shadowRelease(), {Shadow});
  });
}

/// The adjoint of the copy realloc \p Call (or an inner derivative's realloc
/// of a tangent or shadow block) made of the old block's prefix.
void GradientGenerator::reverseReallocCopy(CallBase &Call) {
  assert(!Checkpointed && "checkpointed code reallocates by copying");
  ElementKind Kind = copiedElementKind(Call);
  Value *Old = Call.getArgOperand(0);
  if (Kind == ElementKind::F64 || Kind == ElementKind::F32) {
    Type *ElemTy = scalarTypeOf(Kind, RB.getContext());
    if (!AI.hasShadow(Old))
      return;
    Value *OldShadows = shadow(Old), *NewShadows = shadow(&Call);
    for (unsigned Lane = 0; Lane < W; ++Lane)
      RB.CreateCall(
          D.abi().reallocAdjoint(ElemTy),
          {laneOf(RB, OldShadows, Lane, W), laneOf(RB, NewShadows, Lane, W)});
  } else if (Kind == ElementKind::Unknown) {
    unsupported(Call, "cannot tell whether this reallocation moves "
                      "floating-point data");
  }
}

Value *GradientGenerator::dispatchIndirect(
    IRBuilder<> &B, CallBase &Call, Value *Callee, Type *ResultTy,
    function_ref<Value *(IRBuilder<> &, Function *)> EmitCall) {
  return emitIndirectDispatch(B, D.abi(), Call, Callee, ResultTy, *Sig.Fn,
                              EmitCall);
}

} // namespace capsule
