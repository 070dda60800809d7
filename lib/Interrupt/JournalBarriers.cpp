//===- JournalBarriers.cpp - Journal barriers before stores ---------------===//
#include "Interrupt/JournalBarriers.h"

#include "Analysis/LoopAnalyses.h"
#include "Interrupt/JournalUnswitch.h"
#include "Support/RuntimeABI.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace capsule {

void emitJournalBarrier(IRBuilder<> &B, RuntimeABI &ABI, Value *Addr,
                        Value *Bytes, Align A) {
  B.CreateCall(ABI.journalBarrier(),
               {Addr, B.CreateZExtOrTrunc(Bytes, B.getInt64Ty()),
                B.getInt64(A.value())});
}

namespace {

/// A write of at most one granule (8 bytes) that its alignment keeps inside
/// one granule can be checked against the filter: the bytes, or 0.
uint64_t filterableBytes(const CallInst &Barrier) {
  auto *Bytes = dyn_cast<ConstantInt>(Barrier.getArgOperand(1));
  auto *Alignment = cast<ConstantInt>(Barrier.getArgOperand(2));
  if (!Bytes || Bytes->getZExtValue() > 8 ||
      Alignment->getZExtValue() < Bytes->getZExtValue())
    return 0;
  return Bytes->getZExtValue();
}

/// Branches to a call of __capsule_journal_write unless \p Skip; the call
/// is expected to be rare.
void callJournalWriteUnless(IRBuilder<> &B, RuntimeABI &ABI, Value *Skip,
                            Value *Addr, Value *Bytes) {
  Instruction *Then = SplitBlockAndInsertIfThen(
      B.CreateNot(Skip), B.GetInsertPoint(), /*Unreachable=*/false,
      MDBuilder(B.getContext()).createBranchWeights(1, 1 << 20));
  IRBuilder<> ThenB(Then);
  ThenB.CreateCall(ABI.journalWrite(), {Addr, Bytes});
}

/// The filter test: the granule of \p Addr is the one its filter slot
/// holds, so the newest snapshot saved it already.
Value *savedAlready(IRBuilder<> &B, RuntimeABI &ABI, Value *Addr) {
  Value *Granule = B.CreateAnd(B.CreatePtrToInt(Addr, B.getInt64Ty()),
                               ~uint64_t(7), "granule");
  Value *Index = B.CreateAnd(B.CreateLShr(Granule, 3), JournalFilterSlots - 1,
                             "filter.index");
  Value *Slot = B.CreateGEP(B.getInt64Ty(), ABI.journalFilterAddress(B), Index);
  Value *Cached =
      B.CreateAlignedLoad(B.getInt64Ty(), Slot, Align(8), "filter.granule");
  return B.CreateICmpEQ(Cached, Granule, "saved.already");
}

/// The widest stride of a write hoisted out of its loop: at most half of
/// the bytes saved for it are bytes the loop does not write itself.
constexpr int64_t MaxHoistedStride = 16;

/// The bytes a barrier saves over all iterations of its loop, as SCEVs.
struct LoopRange {
  const SCEV *First;
  const SCEV *Bytes;
};

/// Where the write guarded by \p Barrier goes over all iterations of its
/// innermost loop, if one barrier before the loop can save it all: the loop
/// is entered only through its preheader (so it holds no resume point: a
/// resumed run cannot skip the early save), leaves only from its latch
/// after a known number of iterations, and runs the barrier in every
/// iteration, at addresses a constant, small stride apart. Every byte in
/// the range then belongs to the objects the loop writes.
std::optional<LoopRange> rangeOverLoop(CallInst &Barrier, LoopInfo &LI,
                                       ScalarEvolution &SE, DominatorTree &DT) {
  Loop *L = LI.getLoopFor(Barrier.getParent());
  auto *Bytes = dyn_cast<ConstantInt>(Barrier.getArgOperand(1));
  if (!L || !Bytes || !L->getLoopPreheader() || !L->getLoopLatch() ||
      L->getExitingBlock() != L->getLoopLatch() ||
      !DT.dominates(Barrier.getParent(), L->getLoopLatch()))
    return std::nullopt;
  const SCEV *Trips = SE.getBackedgeTakenCount(L);
  auto *Addr = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Barrier.getArgOperand(0)));
  if (isa<SCEVCouldNotCompute>(Trips) || !Addr || Addr->getLoop() != L ||
      !Addr->isAffine() || !SE.isLoopInvariant(Addr->getStart(), L))
    return std::nullopt;
  auto *Step = dyn_cast<SCEVConstant>(Addr->getStepRecurrence(SE));
  if (!Step || Step->getAPInt().abs().sgt(MaxHoistedStride))
    return std::nullopt;
  Type *I64 = Type::getInt64Ty(Barrier.getContext());
  const SCEV *Span = SE.getMulExpr(SE.getTruncateOrZeroExtend(Trips, I64),
                                   SE.getConstant(Step->getAPInt().abs()));
  const SCEV *First = Addr->getStart();
  if (Step->getAPInt().isNegative())
    First = SE.getAddExpr(First, SE.getNegativeSCEV(Span));
  return LoopRange{First, SE.getAddExpr(Span, SE.getSCEV(Bytes))};
}

/// Replaces each barrier in a loop whose whole range one barrier before
/// the loop can save (rangeOverLoop) by that barrier, in \p Barriers too.
void hoistOutOfLoops(Function &F, MutableArrayRef<CallInst *> Barriers,
                     RuntimeABI &ABI) {
  LoopAnalyses A(F);
  SCEVExpander Expander(A.SE, F.getDataLayout(), "journal.range");
  for (CallInst *&Barrier : Barriers) {
    std::optional<LoopRange> Range = rangeOverLoop(*Barrier, A.LI, A.SE, A.DT);
    if (!Range)
      continue;
    Instruction *At = A.LI.getLoopFor(Barrier->getParent())
                          ->getLoopPreheader()
                          ->getTerminator();
    if (!Expander.isSafeToExpandAt(Range->First, At) ||
        !Expander.isSafeToExpandAt(Range->Bytes, At))
      continue;
    IRBuilder<> B(At);
    Value *First = Expander.expandCodeFor(Range->First, B.getPtrTy(), At);
    Value *Bytes = Expander.expandCodeFor(Range->Bytes, B.getInt64Ty(), At);
    emitJournalBarrier(B, ABI, First, Bytes);
    Barrier->eraseFromParent();
    Barrier = cast<CallInst>(At->getPrevNode());
  }
}

void expandBarrier(CallInst &Barrier, Value *Live, RuntimeABI &ABI) {
  IRBuilder<> B(&Barrier);
  Value *Addr = Barrier.getArgOperand(0);
  Value *Bytes = Barrier.getArgOperand(1);
  // Without a live snapshot the filter's contents are stale: test the depth
  // first.
  Instruction *Then = SplitBlockAndInsertIfThen(
      Live, Barrier.getIterator(), /*Unreachable=*/false,
      MDBuilder(B.getContext()).createBranchWeights(1, 1 << 20));
  B.SetInsertPoint(Then);
  if (filterableBytes(Barrier))
    callJournalWriteUnless(B, ABI, savedAlready(B, ABI, Addr), Addr, Bytes);
  else
    B.CreateCall(ABI.journalWrite(), {Addr, Bytes});
  Barrier.eraseFromParent();
}

void expandBarriersIn(Function &F, MutableArrayRef<CallInst *> Barriers,
                      RuntimeABI &ABI, bool VersionLoops) {
  hoistOutOfLoops(F, Barriers, ABI);
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  Value *Depth =
      B.CreateLoad(B.getInt32Ty(), ABI.journalDepthAddress(B), "journal.depth");
  Value *Live = B.CreateICmpNE(Depth, B.getInt32(0), "journal.live");
  if (VersionLoops)
    unswitchJournalLoops(F, Barriers, Live);
  for (CallInst *Barrier : Barriers)
    expandBarrier(*Barrier, Live, ABI);
}

} // namespace

void expandJournalBarriers(Module &M, RuntimeABI &ABI, bool VersionLoops) {
  Function *Pseudo = M.getFunction(JournalBarrierName);
  if (!Pseudo)
    return;
  MapVector<Function *, SmallVector<CallInst *, 16>> ByFunction;
  for (User *U : Pseudo->users()) {
    auto *Barrier = cast<CallInst>(U);
    ByFunction[Barrier->getFunction()].push_back(Barrier);
  }
  for (auto &[F, Barriers] : ByFunction)
    expandBarriersIn(*F, Barriers, ABI, VersionLoops);
  Pseudo->eraseFromParent();
}

} // namespace capsule
