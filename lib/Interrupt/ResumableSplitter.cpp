//===- ResumableSplitter.cpp - Functions as resumable state machines ------===//
//
// A purpose-built splitter rather than LLVM's coroutine lowering: a yield
// here unwinds the whole chain of resumable callers at once (each returns 1
// after spilling), records live in the runtime's journaled frame stack at
// fixed offsets from their caller's, and resuming re-enters the chain
// through each step function's dispatch. docs/interrupt.md records the
// measured comparison with CoroSplit (bench/coro-study/).
//
// Yield points are the function's entry, every loop header and every
// return from a resumable callee. At a yield point the SSA values live
// there are stored to their spill slots, the resume index is set, and the
// function returns 1; the matching resume block reloads them (arguments and
// frame addresses are recomputed instead) and SSAUpdater joins the reloaded
// values with the originals.
//===----------------------------------------------------------------------===//
#include "Interrupt/ResumableSplitter.h"

#include "Analysis/MemoryKinds.h"
#include "Interrupt/JournalBarriers.h"
#include "Support/RuntimeABI.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

using namespace llvm;

namespace capsule {

/// Function metadata: the own record area, as two i64 constants.
static constexpr const char *OwnRecordAreaKind = "capsule.own.record";

std::optional<OwnRecordArea> ownRecordArea(const Function &F) {
  MDNode *MD = F.getMetadata(OwnRecordAreaKind);
  if (!MD)
    return std::nullopt;
  auto Bound = [&](unsigned I) {
    return mdconst::extract<ConstantInt>(MD->getOperand(I))->getZExtValue();
  };
  return OwnRecordArea{Bound(0), Bound(1)};
}

FrameHeader frameHeader(const Function &F) {
  const DataLayout &DL = F.getDataLayout();
  FrameHeader H;
  uint64_t Offset = 8; // the resume index, padded
  auto Place = [&](Type *T, Align A) {
    Offset = alignTo(Offset, std::max(A, DL.getABITypeAlign(T)));
    uint64_t At = Offset;
    Offset += DL.getTypeAllocSize(T);
    return At;
  };
  Type *RetTy = F.getReturnType();
  if (!RetTy->isVoidTy())
    H.ResultOffset = Place(RetTy, Align(1));
  for (const Argument &A : F.args()) {
    Type *T = A.hasByValAttr() ? A.getParamByValType() : A.getType();
    H.ArgOffsets.push_back(Place(T, A.getParamAlign().valueOrOne()));
    H.ArgTypes.push_back(T);
  }
  H.End = Offset;
  return H;
}

namespace {

/// How the offset of a frame address is known: at once, relative to the
/// stack-slot area, or relative to the end of the record (a callee's
/// record). The last two are known only when the spill slots are.
enum class Base { Frame, Slots, Child };

/// A value a resume block recomputes instead of reloading.
struct Remat {
  enum { ArgumentLoad, Address } Kind;
  Base From;
  uint64_t Offset;
  Type *Ty; // of the argument load
};

/// One yield point: where execution continues after it, the block that
/// spills and returns when it yields, and, for a budget check, the block
/// that checks. Resuming after a check re-enters through the checking
/// block, so that a loop keeps its header as its only entry (a loop entered
/// in the middle is irreducible, and LLVM optimizes no irreducible loop);
/// the check passes again, as the driver has set a new budget.
struct YieldSite {
  BasicBlock *Continuation;
  BasicBlock *Yield;
  BasicBlock *Check = nullptr;
};

class Splitter {
public:
  Splitter(Function &F, const StepFunctions &Steps, RuntimeABI &ABI,
           const SmallPtrSetImpl<BasicBlock *> &AtomicHeaders,
           bool ChecksBudget)
      : F(F), Steps(Steps), AtomicHeaders(AtomicHeaders), ABI(ABI),
        ChecksBudget(ChecksBudget), Step(*Steps.lookup(&F)),
        DL(F.getDataLayout()), Header(frameHeader(F)) {}

  uint64_t run();

private:
  Value *frameAddress(IRBuilder<> &B, Base From, uint64_t Offset);
  Value *recompute(IRBuilder<> &B, const Remat &R, const Twine &Name);
  Value *rematerialize(IRBuilder<> &B, Value *V);
  void moveBody();
  void loadArguments();
  void storeResults();
  void moveStackSlots();
  void splitResumableCall(CallBase &Call);
  void addBudgetChecks();
  BasicBlock *newYieldBlock();
  DenseMap<BasicBlock *, SetVector<Value *>> liveAtContinuations();
  void layOutSpills(const DenseMap<BasicBlock *, SetVector<Value *>> &Live);
  void
  emitYieldsAndResumes(const DenseMap<BasicBlock *, SetVector<Value *>> &Live);
  void emitDispatch();
  void repairSSA();
  void patchOffsets();
  void recordOwnArea();
  StoreInst *storeJournaled(IRBuilder<> &B, Value *V, Value *Addr);

  Function &F;
  const StepFunctions &Steps;
  const SmallPtrSetImpl<BasicBlock *> &AtomicHeaders;
  RuntimeABI &ABI;
  bool ChecksBudget;
  Function &Step;
  const DataLayout &DL;
  FrameHeader Header;
  Argument *Frame = nullptr;
  BasicBlock *Start = nullptr;
  BasicBlock *OldEntry = nullptr;

  DenseMap<Value *, Remat> Remats;
  SmallVector<std::pair<GetElementPtrInst *, Base>, 16> Placeholders;
  SmallVector<YieldSite, 8> Sites;
  SmallVector<BasicBlock *, 8> Resumes; // parallel to Sites
  MapVector<Value *, uint64_t> SpillSlots;
  /// The values each resume block defines, to join with the originals.
  MapVector<Value *, SmallVector<std::pair<BasicBlock *, Value *>, 4>>
      Redefinitions;
  uint64_t SlotBytes = 0;
  Align SlotAlign = Align(16);
  uint64_t SpillEnd = 0;
  uint64_t FrameBytes = 0;
  /// The most of a callee's record (its header: resume index, arguments,
  /// result) this function writes before the callee runs.
  uint64_t ChildHeaderBytes = 0;
};

} // namespace

Value *Splitter::frameAddress(IRBuilder<> &B, Base From, uint64_t Offset) {
  auto *GEP =
      cast<GetElementPtrInst>(B.Insert(GetElementPtrInst::CreateInBounds(
          B.getInt8Ty(), Frame, {B.getInt64(Offset)}, "frame.addr")));
  if (From != Base::Frame)
    Placeholders.push_back({GEP, From});
  return GEP;
}

/// Arguments and results pass through records where the original code
/// passed them in registers of their type: the loads and stores that move
/// them say so (MemoryKinds.h), so that an integer argument copied from
/// memory is not taken for a copy of untyped data.
static Value *loadExact(IRBuilder<> &B, Type *Ty, Value *Addr,
                        const Twine &Name) {
  LoadInst *Load = B.CreateLoad(Ty, Addr, Name);
  markExactAccessType(*Load);
  return Load;
}

Value *Splitter::recompute(IRBuilder<> &B, const Remat &R, const Twine &Name) {
  Value *Addr = frameAddress(B, R.From, R.Offset);
  if (R.Kind == Remat::Address)
    return Addr;
  return loadExact(B, R.Ty, Addr, Name);
}

Value *Splitter::rematerialize(IRBuilder<> &B, Value *V) {
  return recompute(B, Remats.find(V)->second, V->getName());
}

StoreInst *Splitter::storeJournaled(IRBuilder<> &B, Value *V, Value *Addr) {
  StoreInst *Store = B.CreateStore(V, Addr);
  IRBuilder<> Before(Store);
  emitJournalBarrier(Before, ABI, Addr,
                     Before.getInt64(DL.getTypeStoreSize(V->getType())),
                     Store->getAlign());
  B.SetInsertPoint(Store->getParent(), std::next(Store->getIterator()));
  return Store;
}

void Splitter::moveBody() {
  Step.splice(Step.end(), &F);
  Step.setSubprogram(F.getSubprogram());
  F.setSubprogram(nullptr);
  Frame = Step.getArg(0);
  Frame->setName("frame");
  OldEntry = &Step.front();
  Start = BasicBlock::Create(Step.getContext(), "start", &Step, OldEntry);
  BranchInst::Create(OldEntry, Start);
}

/// The arguments are in the record, where the caller stored them; reading
/// them again is cheaper than spilling them.
void Splitter::loadArguments() {
  IRBuilder<> B(Start->getTerminator());
  for (Argument &A : F.args()) {
    unsigned I = A.getArgNo();
    Remat R{Remat::ArgumentLoad, Base::Frame, Header.ArgOffsets[I],
            Header.ArgTypes[I]};
    if (A.hasByValAttr())
      R.Kind = Remat::Address;
    Value *V = recompute(B, R, A.getName());
    Remats[V] = R;
    A.replaceAllUsesWith(V);
  }
}

void Splitter::storeResults() {
  SmallVector<ReturnInst *, 2> Returns;
  for (BasicBlock &BB : Step)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(RI);
  for (ReturnInst *RI : Returns) {
    IRBuilder<> B(RI);
    if (Value *V = RI->getReturnValue())
      markExactAccessType(*storeJournaled(
          B, V, frameAddress(B, Base::Frame, Header.ResultOffset)));
    B.CreateRet(B.getInt1(false));
    RI->eraseFromParent();
  }
}

/// Stack slots move into the record, which survives yields; lifetime
/// markers go, as they only apply to real stack slots.
void Splitter::moveStackSlots() {
  SmallVector<AllocaInst *, 8> Slots;
  SmallVector<IntrinsicInst *, 8> Lifetimes;
  for (BasicBlock &BB : Step)
    for (Instruction &I : BB) {
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        Slots.push_back(AI);
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->isLifetimeStartOrEnd())
          Lifetimes.push_back(II);
    }
  for (IntrinsicInst *II : Lifetimes)
    II->eraseFromParent();
  IRBuilder<> B(Start->getTerminator());
  for (AllocaInst *AI : Slots) {
    // StepInstrumentation refused the others.
    TypeSize Size = *AI->getAllocationSize(DL);
    SlotAlign = std::max(SlotAlign, AI->getAlign());
    SlotBytes = alignTo(SlotBytes, AI->getAlign());
    Value *Addr = frameAddress(B, Base::Slots, SlotBytes);
    Remats[Addr] = {Remat::Address, Base::Slots, SlotBytes, nullptr};
    SlotBytes += Size.getFixedValue();
    Addr->takeName(AI);
    AI->replaceAllUsesWith(Addr);
    AI->eraseFromParent();
  }
}

BasicBlock *Splitter::newYieldBlock() {
  BasicBlock *Yield = BasicBlock::Create(Step.getContext(), "yield", &Step);
  ReturnInst::Create(Step.getContext(), ConstantInt::getTrue(Step.getContext()),
                     Yield);
  return Yield;
}

/// `r = g(args)` becomes: store the arguments and a zero resume index in
/// g's record (which starts where this one ends), then a block that runs
/// g's step function and yields if it did, then the read of the result.
/// Resuming re-enters at the block that runs g's step function.
void Splitter::splitResumableCall(CallBase &Call) {
  Function *Callee = Call.getCalledFunction();
  Function *CalleeStep = Steps.lookup(Callee);
  FrameHeader CH = frameHeader(*Callee);
  ChildHeaderBytes = std::max(ChildHeaderBytes, CH.End);
  IRBuilder<> B(&Call);
  for (unsigned I = 0, E = Call.arg_size(); I < E; ++I) {
    Value *Addr = frameAddress(B, Base::Child, CH.ArgOffsets[I]);
    Value *Arg = Call.getArgOperand(I);
    if (Callee->getArg(I)->hasByValAttr()) {
      uint64_t Bytes = DL.getTypeAllocSize(CH.ArgTypes[I]);
      emitJournalBarrier(B, ABI, Addr, B.getInt64(Bytes));
      // In the record the struct's type no longer shows: the copy says
      // what it moves.
      recordCopiedKind(
          *B.CreateMemCpy(Addr, MaybeAlign(), Arg, MaybeAlign(), Bytes),
          kindOfType(CH.ArgTypes[I]));
      continue;
    }
    markExactAccessType(*storeJournaled(B, Arg, Addr));
  }
  storeJournaled(B, B.getInt32(0),
                 frameAddress(B, Base::Child, FrameHeader::ResumeIndexOffset));

  BasicBlock *Before = Call.getParent();
  BasicBlock *Run = Before->splitBasicBlock(&Call, "resumable.call");
  BasicBlock *After = Run->splitBasicBlock(&Call, "resumable.return");
  BasicBlock *Yield = newYieldBlock();
  Run->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Run);
  Value *Yielded =
      B.CreateCall(CalleeStep, {frameAddress(B, Base::Child, 0)}, "yielded");
  B.CreateCondBr(Yielded, Yield, After,
                 MDBuilder(B.getContext()).createBranchWeights(1, 1 << 20));
  Sites.push_back({Run, Yield});

  if (!Call.getType()->isVoidTy()) {
    B.SetInsertPoint(&Call);
    Value *Result =
        loadExact(B, Call.getType(),
                  frameAddress(B, Base::Child, CH.ResultOffset), "result");
    Result->takeName(&Call);
    Call.replaceAllUsesWith(Result);
  }
  Call.eraseFromParent();
}

/// The entry and every loop header check the budget before their charge:
/// every cycle of execution passes a check, so a run stops within a
/// bounded number of steps after its limit.
void Splitter::addBudgetChecks() {
  DominatorTree DT(Step);
  LoopInfo LI(DT);
  SetVector<BasicBlock *> Checked;
  Checked.insert(OldEntry);
  for (Loop *L : LI.getLoopsInPreorder())
    if (!AtomicHeaders.count(L->getHeader()))
      Checked.insert(L->getHeader());
  for (BasicBlock *BB : Checked) {
    BasicBlock *Go =
        BB->splitBasicBlock(BB->getFirstNonPHIIt(), BB->getName() + ".go");
    BasicBlock *Yield = newYieldBlock();
    BB->getTerminator()->eraseFromParent();
    IRBuilder<> B(BB);
    Value *Left =
        B.CreateLoad(B.getInt64Ty(), ABI.budgetAddress(B), "steps.left");
    B.CreateCondBr(B.CreateICmpSLE(Left, B.getInt64(0), "limit.reached"), Yield,
                   Go,
                   MDBuilder(B.getContext()).createBranchWeights(1, 1 << 20));
    Sites.push_back({Go, Yield, BB});
  }
}

/// The SSA values live on entry to each continuation, on the control flow
/// before resume edges exist: walk back from every use to the definition.
DenseMap<BasicBlock *, SetVector<Value *>> Splitter::liveAtContinuations() {
  DenseMap<BasicBlock *, SetVector<Value *>> Live;
  for (const YieldSite &S : Sites)
    Live[S.Continuation];
  for (BasicBlock &DefBB : Step)
    for (Instruction &V : DefBB) {
      if (V.getType()->isVoidTy() || V.use_empty())
        continue;
      SmallPtrSet<BasicBlock *, 16> Visited;
      SmallVector<BasicBlock *, 16> Work;
      for (Use &U : V.uses()) {
        auto *User = cast<Instruction>(U.getUser());
        // A phi uses its operand at the end of the incoming block.
        auto *Phi = dyn_cast<PHINode>(User);
        BasicBlock *UseBB = Phi ? Phi->getIncomingBlock(U) : User->getParent();
        if (UseBB != &DefBB)
          Work.push_back(UseBB);
      }
      while (!Work.empty()) {
        BasicBlock *BB = Work.pop_back_val();
        if (BB == &DefBB || !Visited.insert(BB).second)
          continue;
        auto It = Live.find(BB);
        if (It != Live.end())
          It->second.insert(&V);
        append_range(Work, predecessors(BB));
      }
    }
  return Live;
}

void Splitter::layOutSpills(
    const DenseMap<BasicBlock *, SetVector<Value *>> &Live) {
  uint64_t Offset = Header.End;
  for (const YieldSite &S : Sites)
    for (Value *V : Live.find(S.Continuation)->second) {
      if (Remats.count(V) || SpillSlots.count(V))
        continue;
      Type *T = V->getType();
      Offset = alignTo(Offset, DL.getABITypeAlign(T));
      SpillSlots[V] = Offset;
      Offset += DL.getTypeAllocSize(T);
    }
  SpillEnd = Offset;
  FrameBytes =
      alignTo(alignTo(SpillEnd, SlotAlign) + SlotBytes, FrameAlignment);
}

void Splitter::emitYieldsAndResumes(
    const DenseMap<BasicBlock *, SetVector<Value *>> &Live) {
  LLVMContext &C = Step.getContext();
  for (auto [Index, S] : enumerate(Sites)) {
    const SetVector<Value *> &Values = Live.find(S.Continuation)->second;
    // The spills and the resume index are one contiguous range at the start
    // of the record: one journal barrier covers them all.
    IRBuilder<> B(S.Yield->getTerminator());
    Instruction *First = nullptr;
    for (Value *V : Values) {
      auto It = SpillSlots.find(V);
      if (It == SpillSlots.end())
        continue;
      StoreInst *Store =
          B.CreateStore(V, frameAddress(B, Base::Frame, It->second));
      First = First ? First : cast<Instruction>(Store->getPointerOperand());
    }
    Value *IndexAddr =
        frameAddress(B, Base::Frame, FrameHeader::ResumeIndexOffset);
    B.CreateStore(B.getInt32(Index + 1), IndexAddr);
    First = First ? First : cast<Instruction>(IndexAddr);
    IRBuilder<> Barrier(First);
    emitJournalBarrier(Barrier, ABI, Frame, Barrier.getInt64(SpillEnd));

    BasicBlock *Resume = BasicBlock::Create(C, "resume", &Step);
    B.SetInsertPoint(Resume);
    DenseMap<Value *, Value *> Reloaded;
    for (Value *V : Values) {
      auto It = SpillSlots.find(V);
      Value *Again =
          It == SpillSlots.end()
              ? rematerialize(B, V)
              : B.CreateLoad(V->getType(),
                             frameAddress(B, Base::Frame, It->second),
                             V->getName() + ".reload");
      Reloaded[V] = Again;
      // The checking block's own phis take the reloaded values as incoming
      // values; everything else is joined by repairSSA().
      auto *Phi = dyn_cast<PHINode>(V);
      if (!Phi || Phi->getParent() != S.Check)
        Redefinitions[V].push_back({Resume, Again});
    }
    B.CreateBr(S.Check ? S.Check : S.Continuation);
    if (S.Check)
      for (PHINode &Phi : S.Check->phis())
        Phi.addIncoming(Reloaded.lookup(&Phi) ? Reloaded.lookup(&Phi)
                                              : PoisonValue::get(Phi.getType()),
                        Resume);
    Resumes.push_back(Resume);
  }
}

/// The new entry: a fresh activation (resume index 0) checks that its
/// record, and the headers it writes into its callees' records before they
/// run their own check, fit the committed frame stack, and starts; any
/// other index continues at its resume block.
void Splitter::emitDispatch() {
  LLVMContext &C = Step.getContext();
  BasicBlock *Dispatch = BasicBlock::Create(C, "dispatch", &Step, Start);
  IRBuilder<> B(Dispatch);
  Value *Index =
      B.CreateLoad(B.getInt32Ty(),
                   frameAddress(B, Base::Frame, FrameHeader::ResumeIndexOffset),
                   "resume.index");
  SwitchInst *Switch = B.CreateSwitch(Index, Start, Resumes.size());
  for (auto [I, Resume] : enumerate(Resumes))
    Switch->addCase(B.getInt32(I + 1), Resume);

  B.SetInsertPoint(Start, Start->getFirstInsertionPt());
  Instruction *First = &*B.GetInsertPoint();
  Value *End = frameAddress(B, Base::Child, ChildHeaderBytes);
  Value *Limit =
      B.CreateLoad(B.getPtrTy(), ABI.frameLimitAddress(B), "frame.limit");
  Instruction *Grow = SplitBlockAndInsertIfThen(
      B.CreateICmpUGT(End, Limit), First->getIterator(),
      /*Unreachable=*/false, MDBuilder(C).createBranchWeights(1, 1 << 20));
  IRBuilder<>(Grow).CreateCall(ABI.frameGrow(), {End});
}

/// Each live value now has a definition in its original block and one in
/// each resume block where it is live; uses outside the original block may
/// see any of them.
void Splitter::repairSSA() {
  for (auto &[V, Defs] : Redefinitions) {
    auto *I = cast<Instruction>(V);
    BasicBlock *DefBB = I->getParent();
    SSAUpdater Updater;
    Updater.Initialize(V->getType(), V->getName());
    Updater.AddAvailableValue(DefBB, V);
    for (auto &[Resume, Again] : Defs)
      Updater.AddAvailableValue(Resume, Again);
    SmallVector<Use *, 8> Uses;
    for (Use &U : V->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      auto *User = cast<Instruction>(U->getUser());
      if (auto *Phi = dyn_cast<PHINode>(User)) {
        if (Phi->getIncomingBlock(*U) == DefBB)
          continue;
      } else if (User->getParent() == DefBB) {
        continue;
      }
      Updater.RewriteUse(*U);
    }
  }
}

void Splitter::patchOffsets() {
  uint64_t SlotsStart = alignTo(SpillEnd, SlotAlign);
  for (auto [GEP, From] : Placeholders) {
    auto *Offset = cast<ConstantInt>(GEP->getOperand(1));
    uint64_t AreaStart = From == Base::Slots ? SlotsStart : FrameBytes;
    GEP->setOperand(1, ConstantInt::get(Offset->getType(),
                                        AreaStart + Offset->getZExtValue()));
  }
}

/// Activity analysis tells the slots of this area that hold only constant
/// data from the others, as it does for stack slots (Activity.cpp).
void Splitter::recordOwnArea() {
  auto Bound = [&](uint64_t Offset) {
    return ConstantAsMetadata::get(
        ConstantInt::get(Type::getInt64Ty(Step.getContext()), Offset));
  };
  Step.setMetadata(
      OwnRecordAreaKind,
      MDNode::get(Step.getContext(), {Bound(Header.End), Bound(FrameBytes)}));
}

uint64_t Splitter::run() {
  moveBody();
  loadArguments();
  moveStackSlots();
  storeResults();
  SmallVector<CallBase *, 8> ResumableCalls;
  for (BasicBlock &BB : Step)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (Steps.count(Callee))
            ResumableCalls.push_back(Call);
  for (CallBase *Call : ResumableCalls)
    splitResumableCall(*Call);
  if (ChecksBudget)
    addBudgetChecks();
  DenseMap<BasicBlock *, SetVector<Value *>> Live = liveAtContinuations();
  layOutSpills(Live);
  emitYieldsAndResumes(Live);
  emitDispatch();
  repairSSA();
  patchOffsets();
  recordOwnArea();
  return FrameBytes;
}

uint64_t buildStepFunction(Function &F, const StepFunctions &Steps,
                           RuntimeABI &ABI,
                           const SmallPtrSetImpl<BasicBlock *> &AtomicHeaders,
                           bool ChecksBudget) {
  return Splitter(F, Steps, ABI, AtomicHeaders, ChecksBudget).run();
}

} // namespace capsule
