//===- ReverseValues.cpp - Where the reverse sweep gets primal values -----===//
//
// Taping every value the reverse sweep needs, each time a block runs, makes
// the tape several times larger than necessary. Before taping, two cheaper
// sources are tried:
//  - recomputation: integer and address arithmetic (GEPs, index math,
//    casts, compares) is redone in the reverse block from the values it was
//    computed from, and the shadow of a GEP is the same GEP on the shadow of
//    its base. Only the leaves (phis, loads, calls, arguments) are taped.
//  - hoisting: a value defined outside a loop is the same in every
//    iteration; it is pushed once, at the loop's exits, and kept in a
//    reverse-sweep variable while the loop is reversed (the exits are
//    reversed first).
//  - counting back: a loop counter (phi [start], [phi + step]) is taped
//    once, at the loop's exits, like a hoisted value; the reverse sweep
//    subtracts step whenever it steps back from the header into the
//    previous iteration, and knows it reached the first iteration when the
//    counter equals start (see branchToPredecessors).
//===----------------------------------------------------------------------===//
#include "GradientGenerator.h"

using namespace llvm;

namespace capsule {

Value *GradientGenerator::reverseValue(Value *V, unsigned Kind) {
  if (auto *C = dyn_cast<Constant>(V)) {
    if (Kind == PrimalField)
      return C;
    Constant *S = D.shadowOfConstant(C);
    return S ? S : ConstantPointerNull::get(cast<PointerType>(V->getType()));
  }
  Record &R = Records[Current];
  if (Value *Known = R.Loaded.lookup({V, Kind}))
    return Known;
  Value *Result;
  auto *I = dyn_cast<Instruction>(V);
  const InductionVariable *IV = inductionVariable(V);
  if (IV && Kind == PrimalField && IV->L->contains(Current))
    Result = hoistedValue(IV->L, V, Kind);
  else if (I && isRecomputable(*I, Kind))
    Result = recompute(*I, Kind);
  else if (Loop *L = hoistingLoop(Current, V))
    Result = hoistedValue(L, V, Kind);
  else
    return recordField(Current, V, Kind, V->getType());
  R.Loaded[{V, Kind}] = Result;
  return Result;
}

bool GradientGenerator::isRecomputable(const Instruction &I,
                                       unsigned Kind) const {
  if (Kind == ShadowField)
    return isa<GetElementPtrInst, AddrSpaceCastInst>(I);
  if (isa<GetElementPtrInst, ICmpInst>(I))
    return true;
  if (isa<BinaryOperator, CastInst>(I))
    return I.getType()->isIntOrPtrTy() &&
           I.getOperand(0)->getType()->isIntOrPtrTy();
  return false;
}

Value *GradientGenerator::recompute(Instruction &I, unsigned Kind) {
  Instruction *Copy = I.clone();
  Copy->setDebugLoc(DebugLoc());
  for (unsigned K = 0; K < I.getNumOperands(); ++K)
    Copy->setOperand(K, reverseValue(I.getOperand(K),
                                     Kind == ShadowField && K == 0
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
  for (Loop *L = LI->getLoopFor(BB); L && !L->contains(Def);
       L = L->getParentLoop())
    if (L->hasDedicatedExits())
      Best = L;
  return Best;
}

Value *GradientGenerator::hoistedValue(Loop *L, Value *V, unsigned Kind) {
  AllocaInst *&Slot = CacheSlots[{V, Kind}];
  if (!Slot) {
    IRBuilder<> B(RevEntry, RevEntry->begin());
    Slot = B.CreateAlloca(V->getType(), nullptr, V->getName() + ".cache");
  }
  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);
  for (BasicBlock *Exit : Exits) {
    if (!reachesExit(Exit) || !CachedAtExit.insert({Exit, V, Kind}).second)
      continue;
    Value *Taped = recordField(Exit, V, Kind, V->getType());
    IRBuilder<> B(Records[Exit].HeaderEnd);
    B.CreateStore(Taped, Slot);
  }
  IRBuilder<> B(Records[Current].HeaderEnd);
  return B.CreateLoad(V->getType(), Slot, V->getName() + ".cached");
}

void GradientGenerator::findInductionVariables() {
  SmallVector<Loop *, 8> Loops(LI->getLoopsInPreorder());
  for (Loop *L : Loops) {
    BasicBlock *Preheader = L->getLoopPreheader();
    BasicBlock *Latch = L->getLoopLatch();
    if (!Preheader || !Latch || !L->hasDedicatedExits())
      continue;
    for (PHINode &Phi : L->getHeader()->phis()) {
      auto *Next =
          dyn_cast<BinaryOperator>(Phi.getIncomingValueForBlock(Latch));
      if (!Phi.getType()->isIntegerTy() || !Next ||
          Next->getOpcode() != Instruction::Add ||
          !(Next->hasNoSignedWrap() || Next->hasNoUnsignedWrap()))
        continue;
      Value *Other = Next->getOperand(0) == &Phi   ? Next->getOperand(1)
                     : Next->getOperand(1) == &Phi ? Next->getOperand(0)
                                                   : nullptr;
      auto *Step = dyn_cast_or_null<ConstantInt>(Other);
      if (!Step || Step->isZero())
        continue;
      Counters[L->getHeader()].push_back(
          {&Phi, Phi.getIncomingValueForBlock(Preheader), Step, L});
    }
  }
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
