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
// it would have been after n pushes.
//
// A reverse sweep's pop (RuntimeABI::emitTapePop) has the same shape, with
// the chunk's begin for its end, `icmp eq %top, %begin` (the chunk is
// empty) for its check, `!capsule.tape.pop` for its tag and a fast path
// that moves the top down by Bytes. Its loop pops n records the same way;
// they may lie in several chunks (pushes that were not reserved), so the
// loop is versioned (Support/LoopVersions.h) on whether the chunk holds
// n·Bytes above its begin: if it does, a copy of the loop without the
// check pops them, and vectorizes; if not, the loop as it was.
//===----------------------------------------------------------------------===//
#include "Reverse/LoopTapeReservation.h"
#include "Support/LoopVersions.h"
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

/// The pieces of an inline push or pop in a loop (the file comment's
/// names). The bound the check compares the top with is the chunk's end
/// for a push, its begin for a pop.
struct LoopTapeOp {
  Loop *L;
  BranchInst *Check;
  bool IsPop;
  uint64_t Bytes;
  PHINode *Top, *Bound;
  BasicBlock *Slow, *Fast;
  CallInst *SlowCall;
  Value *SlowBound; ///< the bound the slow path reloads
  bool BeforeExit;  ///< runs before the exit test: n = taken back edges + 1
};

/// The record size a tagged check carries, and whether it is a pop's, for
/// a branch tagged by emitTapePush or emitTapePop.
std::optional<std::pair<uint64_t, bool>> taggedOp(const Instruction &I) {
  for (bool IsPop : {false, true})
    if (MDNode *Tag = I.getMetadata(IsPop ? TapePopKind : TapePushKind))
      return std::make_pair(
          mdconst::extract<ConstantInt>(Tag->getOperand(0))->getZExtValue(),
          IsPop);
  return std::nullopt;
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

/// No call in the loop but the operation's slow call may use the tape (the
/// same rule as keepTapeInRegisters'), and the operation is the loop's only
/// push or pop.
bool onlyTheOpUsesTheTape(const Loop &L, const LoopTapeOp &P) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (&I != P.Check && taggedOp(I))
        return false;
      auto *CB = dyn_cast<CallBase>(&I);
      if (CB && CB != P.SlowCall && mayUseTape(*CB))
        return false;
    }
  return true;
}

/// The top and bound are used only by the operation itself inside the loop.
bool usedOnlyByTheOp(PHINode &V, const LoopTapeOp &P) {
  for (User *U : V.users()) {
    auto *I = cast<Instruction>(U);
    if (!P.L->contains(I))
      continue;
    if (I->getParent() == P.Slow || I->getParent() == P.Fast)
      continue;
    if (I == P.Check->getCondition())
      continue; // a pop's check
    if (isa<PtrToIntInst>(I) && I->hasOneUse())
      continue; // the room a push's check computes
    if (isa<PHINode>(I) && I->getParent() == P.Fast->getSingleSuccessor())
      continue;
    return false;
  }
  return true;
}

/// Matches the check of a push (the room below the end is less than the
/// record) or of a pop (the top is at the chunk's begin); sets Top and
/// Bound.
bool matchCheck(LoopTapeOp &P) {
  Value *BoundV, *TopV;
  ICmpInst::Predicate Pred;
  Value *Cond = P.Check->getCondition();
  if (P.IsPop) {
    if (!match(Cond, m_ICmp(Pred, m_Value(TopV), m_Value(BoundV))) ||
        Pred != ICmpInst::ICMP_EQ)
      return false;
  } else if (!match(Cond, m_ICmp(Pred,
                                 m_Sub(m_PtrToInt(m_Value(BoundV)),
                                       m_PtrToInt(m_Value(TopV))),
                                 m_SpecificInt(P.Bytes))) ||
             Pred != ICmpInst::ICMP_SLT) {
    return false;
  }
  P.Top = headerPhi(TopV, *P.L);
  P.Bound = headerPhi(BoundV, *P.L);
  return P.Top && P.Bound;
}

std::optional<LoopTapeOp> matchLoopOp(BranchInst &Br, uint64_t Bytes,
                                      bool IsPop, LoopInfo &LI,
                                      DominatorTree &DT) {
  LoopTapeOp P{};
  P.Check = &Br;
  P.IsPop = IsPop;
  P.Bytes = Bytes;
  P.L = LI.getLoopFor(Br.getParent());
  Loop *L = P.L;
  // One exit test, and the operation on the way from the header to the
  // latch: it runs once per iteration, the last one too if it comes before
  // the test (a rotated loop's body; the loop is rotated only after this
  // pass).
  BasicBlock *Exiting = L ? L->getExitingBlock() : nullptr;
  if (!Exiting || !L->isInnermost() || !L->getLoopPreheader() ||
      !L->getLoopLatch() || !DT.dominates(Br.getParent(), L->getLoopLatch()) ||
      !Br.isConditional())
    return std::nullopt;
  P.BeforeExit = DT.dominates(Br.getParent(), Exiting);
  if (!P.BeforeExit && !DT.dominates(Exiting, Br.getParent()))
    return std::nullopt;
  if (!matchCheck(P))
    return std::nullopt;
  P.Slow = Br.getSuccessor(0);
  P.Fast = Br.getSuccessor(1);
  if (!P.Slow->getSinglePredecessor() || !P.Fast->getSinglePredecessor())
    return std::nullopt;
  BasicBlock *Join = P.Fast->getSingleSuccessor();
  if (!Join || P.Slow->getSingleSuccessor() != Join ||
      Join->hasNPredecessorsOrMore(3))
    return std::nullopt;

  // The fast path only moves the top by the record. (A pop's check is an
  // equality, whose operands the optimizer may have swapped.)
  int64_t Move = IsPop ? -int64_t(Bytes) : int64_t(Bytes);
  auto *Moved = dyn_cast<GetElementPtrInst>(P.Fast->getFirstNonPHI());
  if (IsPop && Moved && Moved->getPointerOperand() == P.Bound)
    std::swap(P.Top, P.Bound);
  if (!Moved || Moved->getPointerOperand() != P.Top ||
      Moved->getNumIndices() != 1 ||
      !match(Moved->getOperand(1), m_SpecificInt(Move)) ||
      Moved->getNextNode() != P.Fast->getTerminator())
    return std::nullopt;
  P.SlowCall = slowCall(*P.Slow, *P.Top, P.Bytes);
  PHINode *BoundNext = joinPhiOf(*Join, P.Bound, P.Fast);
  P.SlowBound =
      BoundNext ? BoundNext->getIncomingValueForBlock(P.Slow) : nullptr;
  BasicBlock *Latch = L->getLoopLatch();
  if (!P.SlowCall || !P.SlowBound ||
      P.Top->getIncomingValueForBlock(Latch) !=
          joinPhiOf(*Join, Moved, P.Fast) ||
      P.Bound->getIncomingValueForBlock(Latch) != BoundNext ||
      !onlyTheOpUsesTheTape(*L, P) || !usedOnlyByTheOp(*P.Top, P) ||
      !usedOnlyByTheOp(*P.Bound, P))
    return std::nullopt;
  return P;
}

/// The loop's trip count times the record's size, expanded in the
/// preheader, or null when it is not known there.
Value *expandLoopBytes(const LoopTapeOp &P, ScalarEvolution &SE,
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

/// Replaces a check that can no longer fail by a branch to its fast path.
void dropCheck(BranchInst &Check, BasicBlock &Slow, BasicBlock &Fast) {
  BranchInst::Create(&Fast, Check.getIterator());
  Check.eraseFromParent();
  DeleteDeadBlock(&Slow);
  BasicBlock *Join = Fast.getSingleSuccessor();
  MergeBlockIntoPredecessor(&Fast);
  MergeBlockIntoPredecessor(Join);
}

/// The bytes the chunk has for the loop when it starts, computed at \p B
/// in the preheader: free above the top for pushes, records above the
/// begin for pops.
Value *roomAtStart(IRBuilder<> &B, const LoopTapeOp &P) {
  BasicBlock *Preheader = P.L->getLoopPreheader();
  Value *Top0 = P.Top->getIncomingValueForBlock(Preheader);
  Value *Bound0 = P.Bound->getIncomingValueForBlock(Preheader);
  Value *High = P.IsPop ? Top0 : Bound0;
  Value *Low = P.IsPop ? Bound0 : Top0;
  Type *I64 = B.getInt64Ty();
  return B.CreateSub(B.CreatePtrToInt(High, I64), B.CreatePtrToInt(Low, I64),
                     "tape.loop.room");
}

/// Pushes \p Total bytes in the preheader as the loop's push would (its
/// slow path cloned), starts the loop's top at the reservation and its end
/// at the chunk's, and removes the loop's check.
void reservePushes(const LoopTapeOp &P, Value *Total) {
  BasicBlock *Preheader = P.L->getLoopPreheader();
  Value *Top0 = P.Top->getIncomingValueForBlock(Preheader);
  Value *End0 = P.Bound->getIncomingValueForBlock(Preheader);
  IRBuilder<> B(Preheader->getTerminator());
  Value *Full = B.CreateICmpSLT(roomAtStart(B, P), Total);
  Instruction *ThenTerm = SplitBlockAndInsertIfThen(
      Full, Preheader->getTerminator(), /*Unreachable=*/false,
      MDBuilder(B.getContext()).createBranchWeights(1, 1 << 20));
  BasicBlock *Then = ThenTerm->getParent();
  BasicBlock *Tail = ThenTerm->getSuccessor(0);

  ValueToValueMapTy VM;
  VM[P.Top] = Top0;
  VM[P.Bound] = End0;
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
  End->addIncoming(VM[P.SlowBound], Then);
  End->addIncoming(End0, Preheader);
  P.Top->setIncomingValueForBlock(Tail, Base);
  P.Bound->setIncomingValueForBlock(Tail, End);

  dropCheck(*P.Check, *P.Slow, *P.Fast);
}

/// Versions the loop on whether the chunk holds all \p Total bytes of its
/// records, if prepareToVersion permits: if it does, a copy without the
/// check pops them; if not, the loop as it was crosses chunks.
void reservePops(const LoopTapeOp &P, Value *Total, DominatorTree &DT,
                 LoopInfo &LI) {
  if (!prepareToVersion(*P.L, DT, LI))
    return;
  BasicBlock *Preheader = P.L->getLoopPreheader();
  IRBuilder<> B(Preheader->getTerminator());
  Value *Short = B.CreateICmpULT(roomAtStart(B, P), Total, "tape.loop.short");
  ValueToValueMapTy VMap;
  versionLoop(*P.L, Short, ".tape.reserved", VMap, DT, LI);
  Preheader->getTerminator()->setMetadata(
      LLVMContext::MD_prof,
      MDBuilder(B.getContext()).createBranchWeights(1, 1 << 20));
  dropCheck(*cast<BranchInst>(VMap[P.Check]), *cast<BasicBlock>(VMap[P.Slow]),
            *cast<BasicBlock>(VMap[P.Fast]));
}

bool hasTaggedOp(Function &F) {
  for (BasicBlock &BB : F)
    if (BB.getTerminator() && taggedOp(*BB.getTerminator()))
      return true;
  return false;
}

void untag(BranchInst &Br) {
  Br.setMetadata(TapePushKind, nullptr);
  Br.setMetadata(TapePopKind, nullptr);
}

/// Rewrites one loop's push or pop, or returns false when none is left to
/// rewrite. Operations that do not qualify lose their tag, so each is
/// looked at once; the analyses are computed afresh for each, since a
/// rewrite changes the CFG. *CFGChanged is set when the CFG changed,
/// rewrite or not.
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
    std::optional<std::pair<uint64_t, bool>> Op =
        Br ? taggedOp(*Br) : std::nullopt;
    if (!Op)
      continue;
    auto [Bytes, IsPop] = *Op;
    untag(*Br);
    std::optional<LoopTapeOp> P = matchLoopOp(*Br, Bytes, IsPop, LI, DT);
    Value *Total =
        P ? expandLoopBytes(*P, SE, TTI, F.getParent()->getDataLayout())
          : nullptr;
    if (!Total)
      continue;
    *CFGChanged = true;
    if (IsPop)
      reservePops(*P, Total, DT, LI);
    else
      reservePushes(*P, Total);
    return true;
  }
  return false;
}

} // namespace

PreservedAnalyses LoopTapeReservationPass::run(Function &F,
                                               FunctionAnalysisManager &FAM) {
  if (!hasTaggedOp(F))
    return PreservedAnalyses::all();
  const TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(F);
  const TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
  bool CFGChanged = false;
  while (reserveOneLoop(F, TLI, TTI, &CFGChanged))
    ;
  return CFGChanged ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace capsule
