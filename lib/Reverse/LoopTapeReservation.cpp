//===- LoopTapeReservation.cpp - One tape reservation per loop ------------===//
//
// The push this file rewrites is the inline one of RuntimeABI::emitTapePush
// after keepTapeInRegisters and the simplification pipeline, in an innermost
// loop:
//
//   header: %top = phi [%top0, %preheader], [%top.next, %latch]
//           %end = phi [%end0, %preheader], [%end.next, %latch]
//   ...     br (icmp slt (sub (ptrtoint %end), (ptrtoint %top)), Bytes),
//              %slow, %fast                             ; !capsule.tape.push
//   slow:   store %top, <top> ; %rec = call @push_slow(Bytes) ;
//           loads of the new top and end ; br %join
//   fast:   %top.bumped = getelementptr inbounds i8, %top, Bytes ; br %join
//   join:   phis of the record (%rec | %top), the next top
//           (reloaded | %top.bumped) and the next end (reloaded | %end)
//
// When the push runs once per iteration and the number n of its runs is
// known in the preheader (the back edges taken, plus one if the push comes
// before the loop's exit test) and cheap to compute, the preheader pushes
// n·Bytes the same way (the slow path cloned, with the size changed) and
// the loop starts its top at that reservation's base with its check gone:
// the records land one after another where the reservation put them, in
// one chunk, and the top after the loop is the one the reservation left, as
// it would have been after n pushes. The reverse sweep's pops are
// unchanged: they never cross a chunk boundary inside the reservation.
//===----------------------------------------------------------------------===//
#include "Reverse/LoopTapeReservation.h"
#include "Support/RuntimeABI.h"
#include "Support/RuntimeStateInRegisters.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace capsule {
namespace {

/// The pieces of an inline push in a loop (the file comment's names).
struct LoopPush {
  Loop *L;
  BranchInst *Check;
  uint64_t Bytes;
  PHINode *Top, *End;
  BasicBlock *Slow, *Fast;
  CallInst *SlowCall;
  Value *SlowEnd;  ///< the end the slow path reloads
  bool BeforeExit; ///< runs before the exit test: n = taken back edges + 1
};

uint64_t pushBytes(const BranchInst &Br) {
  return mdconst::extract<ConstantInt>(
             Br.getMetadata(TapePushKind)->getOperand(0))
      ->getZExtValue();
}

/// \p V as a phi of \p L's header, or null.
PHINode *headerPhi(Value *V, const Loop &L) {
  auto *P = dyn_cast<PHINode>(V);
  return P && P->getParent() == L.getHeader() ? P : nullptr;
}

/// The slow path holds the top's write-back, the runtime call for Bytes and
/// reloads, nothing else.
CallInst *slowCall(BasicBlock &Slow, PHINode &Top, uint64_t Bytes) {
  CallInst *Call = nullptr;
  for (Instruction &I : Slow) {
    if (I.isTerminator())
      continue;
    if (auto *S = dyn_cast<StoreInst>(&I); S && S->getValueOperand() == &Top)
      continue;
    if (isa<LoadInst>(I))
      continue;
    auto *C = dyn_cast<CallInst>(&I);
    if (!C || Call || C->arg_size() != 1 ||
        !match(C->getArgOperand(0), m_SpecificInt(Bytes)))
      return nullptr;
    Call = C;
  }
  return Call;
}

/// The phi of \p Join that takes \p Fast from the fast path, or null.
PHINode *joinPhiOf(BasicBlock &Join, Value *Fast, BasicBlock *FastBB) {
  for (PHINode &P : Join.phis())
    if (P.getIncomingValueForBlock(FastBB) == Fast)
      return &P;
  return nullptr;
}

/// No call in the loop but the push's slow call may use the tape (the same
/// rule as keepTapeInRegisters'), and the push is the loop's only one.
bool onlyThePushUsesTheTape(const Loop &L, const LoopPush &P) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (auto *Br = dyn_cast<BranchInst>(&I))
        if (Br != P.Check && Br->getMetadata(TapePushKind))
          return false;
      auto *CB = dyn_cast<CallBase>(&I);
      if (CB && CB != P.SlowCall && mayUseTape(*CB))
        return false;
    }
  return true;
}

/// The top and end are used only by the push itself inside the loop.
bool usedOnlyByThePush(PHINode &V, const LoopPush &P) {
  for (User *U : V.users()) {
    auto *I = cast<Instruction>(U);
    if (!P.L->contains(I))
      continue;
    if (I->getParent() == P.Slow || I->getParent() == P.Fast)
      continue;
    if (isa<PtrToIntInst>(I) && I->hasOneUse())
      continue; // the room computed for the check
    if (isa<PHINode>(I) && I->getParent() == P.Fast->getSingleSuccessor())
      continue;
    return false;
  }
  return true;
}

std::optional<LoopPush> matchLoopPush(BranchInst &Br, LoopInfo &LI,
                                      DominatorTree &DT) {
  LoopPush P{};
  P.Check = &Br;
  P.Bytes = pushBytes(Br);
  P.L = LI.getLoopFor(Br.getParent());
  Loop *L = P.L;
  // One exit test, and the push on the way from the header to the latch:
  // it runs once per iteration, the last one too if it comes before the
  // test (a rotated loop's body; the loop is rotated only after this pass).
  BasicBlock *Exiting = L ? L->getExitingBlock() : nullptr;
  if (!Exiting || !L->isInnermost() || !L->getLoopPreheader() ||
      !L->getLoopLatch() || !DT.dominates(Br.getParent(), L->getLoopLatch()) ||
      !Br.isConditional())
    return std::nullopt;
  P.BeforeExit = DT.dominates(Br.getParent(), Exiting);
  if (!P.BeforeExit && !DT.dominates(Exiting, Br.getParent()))
    return std::nullopt;

  Value *EndV, *TopV;
  ICmpInst::Predicate Pred;
  if (!match(Br.getCondition(),
             m_ICmp(Pred,
                    m_Sub(m_PtrToInt(m_Value(EndV)), m_PtrToInt(m_Value(TopV))),
                    m_SpecificInt(P.Bytes))) ||
      Pred != ICmpInst::ICMP_SLT)
    return std::nullopt;
  P.Top = headerPhi(TopV, *L);
  P.End = headerPhi(EndV, *L);
  P.Slow = Br.getSuccessor(0);
  P.Fast = Br.getSuccessor(1);
  if (!P.Top || !P.End || !P.Slow->getSinglePredecessor() ||
      !P.Fast->getSinglePredecessor())
    return std::nullopt;
  BasicBlock *Join = P.Fast->getSingleSuccessor();
  if (!Join || P.Slow->getSingleSuccessor() != Join ||
      Join->hasNPredecessorsOrMore(3))
    return std::nullopt;

  // The fast path only bumps the top.
  auto *Bumped = dyn_cast<GetElementPtrInst>(P.Fast->getFirstNonPHI());
  if (!Bumped || Bumped->getPointerOperand() != P.Top ||
      Bumped->getNumIndices() != 1 ||
      !match(Bumped->getOperand(1), m_SpecificInt(P.Bytes)) ||
      Bumped->getNextNode() != P.Fast->getTerminator())
    return std::nullopt;
  P.SlowCall = slowCall(*P.Slow, *P.Top, P.Bytes);
  PHINode *EndNext = joinPhiOf(*Join, P.End, P.Fast);
  P.SlowEnd = EndNext ? EndNext->getIncomingValueForBlock(P.Slow) : nullptr;
  BasicBlock *Latch = L->getLoopLatch();
  if (!P.SlowCall || !P.SlowEnd ||
      P.Top->getIncomingValueForBlock(Latch) !=
          joinPhiOf(*Join, Bumped, P.Fast) ||
      P.End->getIncomingValueForBlock(Latch) != EndNext ||
      !onlyThePushUsesTheTape(*L, P) || !usedOnlyByThePush(*P.Top, P) ||
      !usedOnlyByThePush(*P.End, P))
    return std::nullopt;
  return P;
}

/// The loop's trip count times the record's size, expanded in the
/// preheader, or null when it is not known there.
Value *expandLoopBytes(const LoopPush &P, ScalarEvolution &SE,
                       const TargetTransformInfo &TTI, const DataLayout &DL) {
  const SCEV *Taken = SE.getBackedgeTakenCount(P.L);
  Type *I64 = Type::getInt64Ty(P.Check->getContext());
  if (isa<SCEVCouldNotCompute>(Taken) ||
      SE.getTypeSizeInBits(Taken->getType()) > 64)
    return nullptr;
  const SCEV *Trips = SE.getNoopOrZeroExtend(Taken, I64);
  if (P.BeforeExit)
    Trips = SE.getAddExpr(Trips, SE.getOne(I64));
  const SCEV *Bytes = SE.getMulExpr(Trips, SE.getConstant(I64, P.Bytes));
  SCEVExpander Expander(SE, DL, "tape.loop");
  Instruction *At = P.L->getLoopPreheader()->getTerminator();
  if (!Expander.isSafeToExpandAt(Bytes, At) ||
      Expander.isHighCostExpansion(Bytes, P.L, /*Budget=*/8, &TTI, At))
    return nullptr;
  return Expander.expandCodeFor(Bytes, I64, At);
}

/// Pushes \p Total bytes in the preheader as the loop's push would (its
/// slow path cloned), starts the loop's top at the reservation and its end
/// at the chunk's, and removes the loop's check.
void reserve(const LoopPush &P, Value *Total) {
  BasicBlock *Preheader = P.L->getLoopPreheader();
  Value *Top0 = P.Top->getIncomingValueForBlock(Preheader);
  Value *End0 = P.End->getIncomingValueForBlock(Preheader);
  IRBuilder<> B(Preheader->getTerminator());
  Type *I64 = B.getInt64Ty();
  Value *Room =
      B.CreateSub(B.CreatePtrToInt(End0, I64), B.CreatePtrToInt(Top0, I64));
  Value *Full = B.CreateICmpSLT(Room, Total);
  Instruction *ThenTerm = SplitBlockAndInsertIfThen(
      Full, Preheader->getTerminator(), /*Unreachable=*/false,
      MDBuilder(B.getContext()).createBranchWeights(1, 1 << 20));
  BasicBlock *Then = ThenTerm->getParent();
  BasicBlock *Tail = ThenTerm->getSuccessor(0);

  ValueToValueMapTy VM;
  VM[P.Top] = Top0;
  VM[P.End] = End0;
  for (Instruction &I : *P.Slow) {
    if (I.isTerminator())
      continue;
    Instruction *Copy = I.clone();
    Copy->insertBefore(ThenTerm);
    VM[&I] = Copy;
    RemapInstruction(Copy, VM,
                     RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
  }
  auto *Reservation = cast<CallInst>(VM[P.SlowCall]);
  Reservation->setArgOperand(0, Total);

  B.SetInsertPoint(Tail, Tail->begin());
  PHINode *Base = B.CreatePHI(B.getPtrTy(), 2, "tape.loop.base");
  Base->addIncoming(Reservation, Then);
  Base->addIncoming(Top0, Preheader);
  PHINode *End = B.CreatePHI(B.getPtrTy(), 2, "tape.loop.end");
  End->addIncoming(VM[P.SlowEnd], Then);
  End->addIncoming(End0, Preheader);
  P.Top->setIncomingValueForBlock(Tail, Base);
  P.End->setIncomingValueForBlock(Tail, End);

  // The loop's own check can no longer fail.
  BranchInst::Create(P.Fast, P.Check->getIterator());
  P.Check->eraseFromParent();
  DeleteDeadBlock(P.Slow);
  BasicBlock *Join = P.Fast->getSingleSuccessor();
  MergeBlockIntoPredecessor(P.Fast);
  MergeBlockIntoPredecessor(Join);
}

bool hasTaggedPush(Function &F) {
  for (BasicBlock &BB : F)
    if (BB.getTerminator() && BB.getTerminator()->getMetadata(TapePushKind))
      return true;
  return false;
}

/// Rewrites one loop's push, or returns false when none is left to rewrite.
/// Pushes that do not qualify lose their tag, so each is looked at once;
/// the analyses are computed afresh for each, since a rewrite changes the
/// CFG. *CFGChanged is set when the CFG changed, rewrite or not.
bool reserveOneLoop(Function &F, const TargetLibraryInfo &TLI,
                    const TargetTransformInfo &TTI, bool *CFGChanged) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  // Loops are not in simplified form before the vectorizer makes them so:
  // the reservation needs a preheader.
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost() && !L->getLoopPreheader() &&
        InsertPreheaderForLoop(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false))
      *CFGChanged = true;
  AssumptionCache AC(F);
  ScalarEvolution SE(F, const_cast<TargetLibraryInfo &>(TLI), AC, DT, LI);
  for (BasicBlock &BB : F) {
    auto *Br = dyn_cast_or_null<BranchInst>(BB.getTerminator());
    if (!Br || !Br->getMetadata(TapePushKind))
      continue;
    std::optional<LoopPush> P = matchLoopPush(*Br, LI, DT);
    Value *Total =
        P ? expandLoopBytes(*P, SE, TTI, F.getParent()->getDataLayout())
          : nullptr;
    if (!Total) {
      Br->setMetadata(TapePushKind, nullptr);
      continue;
    }
    reserve(*P, Total);
    *CFGChanged = true;
    return true;
  }
  return false;
}

} // namespace

PreservedAnalyses LoopTapeReservationPass::run(Function &F,
                                               FunctionAnalysisManager &FAM) {
  if (!hasTaggedPush(F))
    return PreservedAnalyses::all();
  const TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(F);
  const TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
  bool CFGChanged = false;
  while (reserveOneLoop(F, TLI, TTI, &CFGChanged))
    ;
  return CFGChanged ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace capsule
