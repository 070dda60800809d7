//===- ReverseValues.cpp - Where the reverse sweep gets primal values -----===//
//
// Taping every value the reverse sweep needs, each time a block runs, makes
// the tape several times larger than necessary. Before taping, two cheaper
// sources are tried:
//  - recomputation: integer and address arithmetic (GEPs, index math,
//    casts, compares, selects) is redone in the reverse block from the values
//    it was computed from, and the shadow of a GEP is the same GEP on the
//    shadow of its base. Only the leaves (phis, loads, calls, arguments) are
//    taped.
//  - hoisting: a value defined outside a loop is the same in every
//    iteration; it is pushed once, at the loop's exits, and kept in a
//    reverse-sweep variable while the loop is reversed (the exits are
//    reversed first).
//  - reloading: a load from memory that nothing overwrites before the
//    reverse sweep is redone there. Within the function, LLVM's alias
//    analysis tells; after it returns, its signature does (StableArgs: the
//    caller checked that nothing else writes that argument's memory; the
//    marker's function is followed by its own reverse sweep at once).
//  - counting back: a loop counter (phi [start], [phi + step]) is taped
//    once, at the loop's exits, like a hoisted value; the reverse sweep
//    subtracts step whenever it steps back from the header into the
//    previous iteration, and knows it reached the first iteration when the
//    counter equals start (see branchToPredecessors).
//===----------------------------------------------------------------------===//
#include "Reverse/GradientGenerator.h"
#include "Support/ParallelRegions.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace capsule {

Value *GradientGenerator::reverseValue(Value *V, unsigned Kind) {
  if (auto *C = dyn_cast<Constant>(V)) {
    if (Kind == PrimalField)
      return C;
    Constant *S = constantShadow(C);
    return S ? S : Constant::getNullValue(twinType(V->getType()));
  }
  Record &R = Records[Current];
  if (Value *Known = R.Loaded.lookup({V, Kind}))
    return Known;
  Value *Result;
  auto *I = dyn_cast<Instruction>(V);
  const InductionVariable *IV = inductionVariable(V);
  auto Sibling = SiblingCounters.find(dyn_cast<PHINode>(V));
  if (Sibling != SiblingCounters.end() && Kind == PrimalField) {
    auto [Counter, Offset] = Sibling->second;
    IRBuilder<> B(R.HeaderEnd);
    Result =
        B.CreateAdd(reverseValue(Counter, PrimalField), Offset, V->getName());
  } else if (IV && Kind == PrimalField && IV->L->contains(Current))
    Result = hoistedValue(IV->L, V, Kind);
  else if (I && isRecomputable(*I, Kind))
    Result = recompute(*I, Kind);
  else if (Loop *L = hoistingLoop(Current, V))
    Result = hoistedValue(L, V, Kind);
  else if (I && Kind == PrimalField && cheapToRedo(*I, RedoDepth))
    Result = recompute(*I, Kind);
  else
    return recordField(Current, V, Kind, fieldType(V, Kind));
  R.Loaded[{V, Kind}] = Result;
  return Result;
}

bool GradientGenerator::isRecomputable(const Instruction &I,
                                       unsigned Kind) const {
  if (Kind == ShadowField)
    return isa<GetElementPtrInst, AddrSpaceCastInst>(I);
  // Not pointers: a pointer the reverse sweep reloads from memory has its
  // twin, when forward mode differentiates the sweep (forward over
  // reverse), loaded from the twin of that memory, which holds nothing when
  // the memory is a constant argument's. Taped, its twin is the one the
  // forward sweep recorded, a place in the tangent sink for such a pointer.
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return Reloadable.contains(LI) && !carriesPointer(LI->getType());
  if (isa<GetElementPtrInst, ICmpInst>(I))
    return true;
  if (isa<SelectInst>(I))
    return I.getType()->isIntOrPtrTy();
  if (isa<BinaryOperator, CastInst>(I))
    return I.getType()->isIntOrPtrTy() &&
           I.getOperand(0)->getType()->isIntOrPtrTy();
  return false;
}

/// Floating-point arithmetic worth redoing: one instruction, no slower
/// than the store and load that taping its result costs, or moving lanes of
/// vectors (the SLP vectoriser's). Not division, square roots or calls.
bool GradientGenerator::isCheapArithmetic(const Instruction &I) {
  if (isa<ExtractElementInst, InsertElementInst, ShuffleVectorInst>(I))
    return true;
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->getIntrinsicID() == Intrinsic::fmuladd ||
           II->getIntrinsicID() == Intrinsic::fma;
  switch (I.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
  case Instruction::FNeg:
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::SIToFP:
  case Instruction::UIToFP:
    return true;
  default:
    return false;
  }
}

/// Whether the reverse block of Current has \p V at little cost: a
/// constant, a value it already fetched, an argument (taped once, where its
/// block needs it at all), integer or address arithmetic it redoes anyway
/// (looked into \p Depth levels down), a load it redoes, a loop counter it
/// counts back.
bool GradientGenerator::atHandInReverse(Value *V, unsigned Depth) {
  if (isa<Constant, Argument>(V) ||
      Records[Current].Loaded.count({V, PrimalField}))
    return true;
  const InductionVariable *IV = inductionVariable(V);
  if ((IV && IV->L->contains(Current)) ||
      SiblingCounters.count(dyn_cast<PHINode>(V)))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  return I && Depth > 0 && isRecomputable(*I, PrimalField) &&
         all_of(I->operands(),
                [&](Value *Op) { return atHandInReverse(Op, Depth - 1); });
}

/// Whether \p I is cheap arithmetic on operands that are at hand in the
/// reverse block, or are such arithmetic themselves, at most \p Depth levels
/// down: redoing it there keeps its result, and often a whole expression's,
/// off the tape. Taping every intermediate of a small kernel (a reprojection
/// error, 60 of them) costs more than its flops.
bool GradientGenerator::cheapToRedo(Instruction &I, unsigned Depth) {
  if (!isCheapArithmetic(I))
    return false;
  return all_of(I.operands(), [&](Value *Op) {
    if (isa<Function>(Op) || atHandInReverse(Op, RedoDepth))
      return true;
    auto *OpI = dyn_cast<Instruction>(Op);
    return OpI && Depth > 0 && !hoistingLoop(Current, OpI) &&
           cheapToRedo(*OpI, Depth - 1);
  });
}

Value *GradientGenerator::recompute(Instruction &I, unsigned Kind) {
  if (Kind == ShadowField && W > 1) {
    IRBuilder<> B(Records[Current].HeaderEnd);
    return shadowOfAddress(
        B, I, reverseValue(I.getOperand(0), ShadowField),
        [&](Value *Op) { return reverseValue(Op, PrimalField); });
  }
  Instruction *Copy = I.clone();
  Copy->setDebugLoc(DebugLoc());
  for (unsigned K = 0; K < I.getNumOperands(); ++K)
    Copy->setOperand(K,
                     reverseValue(I.getOperand(K), Kind == ShadowField && K == 0
                                                       ? ShadowField
                                                       : PrimalField));
  Copy->insertBefore(Records[Current].HeaderEnd);
  return Copy;
}

/// The outermost loop around \p BB that \p V is defined outside of, if the
/// loop's exits are dedicated (so that V dominates them).
Loop *GradientGenerator::hoistingLoop(BasicBlock *BB, Value *V) const {
  BasicBlock *Def = isa<Instruction>(V) ? cast<Instruction>(V)->getParent()
                                        : &P.getEntryBlock();
  Loop *Best = nullptr;
  for (Loop *L = Loops.getLoopFor(BB); L && !L->contains(Def);
       L = L->getParentLoop())
    if (L->hasDedicatedExits())
      Best = L;
  return Best;
}

Value *GradientGenerator::hoistedValue(Loop *L, Value *V, unsigned Kind) {
  AllocaInst *&Slot = CacheSlots[{V, Kind}];
  Type *Ty = fieldType(V, Kind);
  if (!Slot) {
    IRBuilder<> B(RevEntry, RevEntry->begin());
    Slot = B.CreateAlloca(Ty, nullptr, V->getName() + ".cache");
  }
  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);
  for (BasicBlock *Exit : Exits) {
    if (!reachesExit(Exit) || !CachedAtExit.insert({Exit, V, Kind}).second)
      continue;
    Value *Taped = recordField(Exit, V, Kind, Ty);
    IRBuilder<> B(Records[Exit].HeaderEnd);
    B.CreateStore(Taped, Slot);
  }
  IRBuilder<> B(Records[Current].HeaderEnd);
  return B.CreateLoad(Ty, Slot, V->getName() + ".cached");
}

/// libm functions are modelled as writing memory because they may set
/// errno (lgamma also signgam), integers no floating-point load reads. Those
/// with pointer arguments (modf, frexp) write the slots LibmPointerOutputs.h
/// gave them, which the program reads.
static bool writesOnlyErrno(const Instruction &I) {
  auto *Call = dyn_cast<CallBase>(&I);
  return Call && classifyCall(*Call).Kind == CalleeKind::Math &&
         none_of(Call->args(),
                 [](const Use &U) { return U->getType()->isPointerTy(); });
}

/// The object \p W writes (stores, memset/memcpy destinations, free), if
/// it writes exactly one.
static const Value *writtenObject(const Instruction &W) {
  if (auto *SI = dyn_cast<StoreInst>(&W))
    return getUnderlyingObject(SI->getPointerOperand());
  if (auto *MI = dyn_cast<AnyMemIntrinsic>(&W))
    return getUnderlyingObject(MI->getRawDest());
  if (auto *Call = dyn_cast<CallBase>(&W))
    if (classifyCall(*Call).Kind == CalleeKind::Free)
      return getUnderlyingObject(Call->getArgOperand(0));
  return nullptr;
}

/// Whether \p W may write the memory at \p Loc, whose underlying object is
/// \p Object.
bool GradientGenerator::mayWrite(const Instruction &W,
                                 const MemoryLocation &Loc,
                                 const Value *Object) const {
  const Value *Written = writtenObject(W);
  if (Written && Written != Object && isAllocatedInside(Written) &&
      isa<Argument, GlobalVariable>(Object))
    return false;
  return isModSet(AA.getModRefInfo(&W, Loc));
}

/// Memory whose contents nothing but this function changes between its two
/// sweeps: stable arguments, constant globals, and in the marker's function
/// everything that existed before it was called.
bool GradientGenerator::stableObject(const Value *Object) const {
  if (auto *A = dyn_cast<Argument>(Object))
    return A->getArgNo() < 64 && (Sig.StableArgs >> A->getArgNo() & 1);
  if (auto *G = dyn_cast<GlobalVariable>(Object))
    return G->isConstant() || Sig.TopLevel;
  return Sig.TopLevel && !isAllocatedInside(Object) && !isa<CallBase>(Object);
}

void GradientGenerator::findWriters() {
  for (const BasicBlock &BB : P)
    for (const Instruction &I : BB)
      if (!isa<LoadInst>(I) && I.mayWriteToMemory() && !writesOnlyErrno(I))
        Writers.push_back(&I);
}

/// A heap block malloc'd (calloc'd, aligned_alloc'd) here whose address
/// never leaves this function: nothing else can write it, and once the
/// forward sweep postpones its free() to the end of the gradient call, it
/// still holds in the reverse sweep what the forward sweep left in it. Not
/// in checkpointed code, whose blocks live in the runtime's arena, nor in a
/// parallel region, whose worker threads end no gradient call to free them.
bool GradientGenerator::postponableBlock(const Value *Object) const {
  auto *Call = dyn_cast<CallBase>(Object);
  Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (Checkpointed || Sig.Parallel || !Callee ||
      !is_contained({"malloc", "calloc", "aligned_alloc"}, Callee->getName()))
    return false;
  return !PointerMayBeCaptured(Object, /*ReturnCaptures=*/true,
                               /*StoreCaptures=*/true);
}

/// Whether \p W may run after \p L in the same run of the function (the
/// function's reverse sweep follows its forward sweep at once).
bool GradientGenerator::mayRunAfter(const Instruction &W, const LoadInst &L) {
  const BasicBlock *From = L.getParent();
  if (W.getParent() == From && L.comesBefore(&W))
    return true;
  auto [It, Inserted] = Reachable.try_emplace(From);
  if (Inserted) {
    SmallVector<const BasicBlock *, 16> Work(successors(From));
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      if (It->second.insert(BB).second)
        append_range(Work, successors(BB));
    }
  }
  return It->second.contains(W.getParent());
}

/// Whether every object \p L may read is an argument's or a global's.
static bool outlivesForwardSweep(const LoadInst &L) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(L.getPointerOperand(), Objects);
  return all_of(
      Objects, [](const Value *O) { return isa<Argument, GlobalVariable>(O); });
}

bool GradientGenerator::writerSpares(const Instruction &W,
                                     const ReloadCandidate &C,
                                     bool &Postpones) {
  if (!mayWrite(W, C.Loc, C.Object))
    return true;
  if (C.Ordered && !mayRunAfter(W, *C.L))
    return true;
  auto *Call = dyn_cast<CallBase>(&W);
  if (C.Fresh && Call && Call->getArgOperand(0) == C.Object &&
      Call->getCalledFunction() &&
      Call->getCalledFunction()->getName() == "free") {
    Postpones = true;
    return true;
  }
  return false;
}

/// A load is reloaded when nothing can change what it read before the
/// reverse sweep reloads it: no writer of its memory runs after it (or at
/// all, outside the marker's function), and the frees of its heap block
/// are postponed.
void GradientGenerator::findReloadableLoads() {
  SmallVector<ReloadCandidate, 64> Candidates;
  for (const BasicBlock &BB : P)
    for (const Instruction &I : BB) {
      auto *LI = dyn_cast<LoadInst>(&I);
      if (!LI || !LI->isSimple())
        continue;
      const Value *Object = getUnderlyingObject(LI->getPointerOperand());
      bool Fresh = postponableBlock(Object);
      if (!Fresh && !stableObject(Object))
        continue;
      // The marker's function runs once per gradient call; a block
      // allocated here is a new block each time the function runs. Either
      // way, writes that happen before the load are over when its reverse
      // sweep reloads it, if the memory is still there: not a stack slot of
      // the forward sweep, which a phi or select may hide from
      // getUnderlyingObject.
      bool Ordered = Fresh || (Sig.TopLevel && outlivesForwardSweep(*LI));
      Candidates.push_back(
          {LI, Object, MemoryLocation::get(LI), Fresh, Ordered});
    }
  // Quadratic in the worst case; very large functions keep their loads
  // taped rather than spend compile time here.
  if (Writers.size() * Candidates.size() > 1000000)
    return;
  for (const ReloadCandidate &C : Candidates) {
    bool Postpones = false;
    if (!all_of(Writers, [&](const Instruction *W) {
          return writerSpares(*W, C, Postpones);
        }))
      continue;
    Reloadable.insert(C.L);
    if (Postpones)
      PostponedFrees.insert(C.Object);
  }
}

DiffSignature GradientGenerator::signatureAt(const CallBase &Call,
                                             Function *Callee) const {
  DiffSignature S = D.signatureAtCall(Call, Callee, AI);
  S.Untaped = Sig.Untaped;
  S.Level = Sig.Level;
  S.Width = Sig.Width;
  S.Parallel = Sig.Parallel || isParallelRegionCall(Call);
  // Only reverse sweeps reload what stable arguments point to.
  if (!S.Untaped)
    S.StableArgs = stableArgsAt(Call);
  return S;
}

uint64_t GradientGenerator::stableArgsAt(const CallBase &Call) const {
  uint64_t Stable = 0;
  unsigned N = std::min<unsigned>(Call.arg_size(), 64);
  for (unsigned K = 0; K < N; ++K) {
    const Value *Arg = Call.getArgOperand(K);
    if (!Arg->getType()->isPointerTy())
      continue;
    const Value *Object = getUnderlyingObject(Arg);
    // Everything the pointer may reach within the object: unknown size.
    MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(Arg);
    if (stableObject(Object) && none_of(Writers, [&](const Instruction *W) {
          return W != &Call && mayWrite(*W, Loc, Object);
        }))
      Stable |= uint64_t(1) << K;
  }
  return Stable;
}

/// The constant step of \p Phi when scalar evolution proves it a counter of
/// \p L that never returns to its start: {Start,+,Step}<nw>. This also finds
/// counters whose next value is computed from a sibling counter (after
/// instcombine, `k + 1` of `for (k = 0; k + 1 < n; k += 2)` is a phi of its
/// own, stepped as `k + 3`).
static ConstantInt *counterStep(ScalarEvolution &SE, PHINode &Phi,
                                const Loop *L) {
  if (!Phi.getType()->isIntegerTy() || !SE.isSCEVable(Phi.getType()))
    return nullptr;
  auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
  if (!Rec || Rec->getLoop() != L || !Rec->isAffine() || !Rec->hasNoSelfWrap())
    return nullptr;
  auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
  if (!Step || Step->getValue()->isZero())
    return nullptr;
  return Step->getValue();
}

void GradientGenerator::findInductionVariables() {
  for (Loop *L : Loops.getLoopsInPreorder()) {
    BasicBlock *Preheader = L->getLoopPreheader();
    BasicBlock *Latch = L->getLoopLatch();
    if (!Preheader || !Latch || !L->hasDedicatedExits())
      continue;
    for (PHINode &Phi : L->getHeader()->phis()) {
      ConstantInt *Step = counterStep(SE, Phi, L);
      if (!Step || addSiblingCounter(Phi))
        continue;
      Counters[L->getHeader()].push_back(
          {&Phi, Phi.getIncomingValueForBlock(Preheader), Step, L});
    }
  }
}

bool GradientGenerator::addSiblingCounter(PHINode &Phi) {
  for (const InductionVariable &IV : Counters.lookup(Phi.getParent())) {
    if (IV.Phi->getType() != Phi.getType())
      continue;
    auto *Offset = dyn_cast<SCEVConstant>(
        SE.getMinusSCEV(SE.getSCEV(&Phi), SE.getSCEV(IV.Phi)));
    if (!Offset)
      continue;
    SiblingCounters[&Phi] = {IV.Phi, Offset->getValue()};
    return true;
  }
  return false;
}

const GradientGenerator::InductionVariable *
GradientGenerator::inductionVariable(Value *V) const {
  auto *Phi = dyn_cast<PHINode>(V);
  if (!Phi)
    return nullptr;
  auto It = Counters.find(Phi->getParent());
  if (It == Counters.end())
    return nullptr;
  for (const InductionVariable &IV : It->second)
    if (IV.Phi == Phi)
      return &IV;
  return nullptr;
}

} // namespace capsule
