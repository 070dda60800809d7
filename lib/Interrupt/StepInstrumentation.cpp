//===- StepInstrumentation.cpp - Steps, journal and arenas for a clone ----===//
//
// The three things interruptible execution needs from every instruction of
// a clone, apart from yielding (ResumableSplitter.cpp):
//  - steps: each block of a resumable function subtracts its cost from the
//    thread's budget on entry (bounded leaves are charged by their callers);
//  - memory: a store may be undone when a capsule is resumed, so the journal
//    sees it first (stores to a leaf's own stack slots, which die before
//    any yield, skip the barrier; the runtime ignores the rest of the run's
//    machine stack, e.g. byval copies, which no static check can see);
//  - allocation: addresses must repeat when a capsule is resumed, so
//    malloc and its kin go to the runtime's deterministic allocator.
//===----------------------------------------------------------------------===//
#include "Interrupt/StepInstrumentation.h"

#include "Analysis/CallClassifier.h"
#include "Analysis/MemoryKinds.h"
#include "Interrupt/AtomicLoops.h"
#include "Interrupt/JournalBarriers.h"
#include "Interrupt/ReplayCalls.h"
#include "Interrupt/ResumableSplitter.h"
#include "Interrupt/StackArrays.h"
#include "Interrupt/StepModel.h"
#include "Support/Diagnostics.h"
#include "Support/LibraryRules.h"
#include "Support/ParallelRegions.h"
#include "Support/RuntimeABI.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace capsule {

void reallocateTangentsByCopying(Function &F, RuntimeABI &ABI) {
  SmallVector<CallBase *, 4> Reallocs;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (nestedRuntimeCall(*Call) == NestedRuntime::TangentRealloc)
        Reallocs.push_back(Call);
  for (CallBase *Call : Reallocs) {
    IRBuilder<> B(Call);
    Value *Old = Call->getArgOperand(0);
    Value *Bytes = B.CreateZExtOrTrunc(Call->getArgOperand(1), B.getInt64Ty());
    CallInst *New = B.CreateCall(ABI.tangentAlloc(), {Bytes});
    // Zero for null and for places in the tangent sink, which hold no
    // tangent block.
    Value *Held = B.CreateCall(ABI.tangentArenaUsableSize(), {Old});
    Value *Kept = B.CreateBinaryIntrinsic(Intrinsic::umin, Held, Bytes);
    CallInst *Copy = B.CreateMemCpy(New, MaybeAlign(), Old, MaybeAlign(), Kept);
    recordCopiedKindOf(*Copy, *Call);
    B.CreateCall(ABI.tangentFree(), {Old});
    New->setDebugLoc(Call->getDebugLoc());
    New->takeName(Call);
    Call->replaceAllUsesWith(New);
    Call->eraseFromParent();
  }
}

void reallocateByCopying(Function &F, RuntimeABI &ABI) {
  SmallVector<CallBase *, 4> Reallocs;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (classifyCall(*Call).Kind == CalleeKind::Realloc)
        Reallocs.push_back(Call);
  Module &M = *F.getParent();
  for (CallBase *Call : Reallocs) {
    IRBuilder<> B(Call);
    Value *Old = Call->getArgOperand(0);
    Value *Bytes = B.CreateZExtOrTrunc(Call->getArgOperand(1), B.getInt64Ty());
    FunctionCallee Malloc =
        M.getOrInsertFunction("malloc", B.getPtrTy(), B.getInt64Ty());
    FunctionCallee Free =
        M.getOrInsertFunction("free", B.getVoidTy(), B.getPtrTy());
    CallInst *New = B.CreateCall(Malloc, {Bytes});
    Value *Held = B.CreateCall(ABI.arenaUsableSize(), {Old});
    Value *Kept = B.CreateBinaryIntrinsic(Intrinsic::umin, Held, Bytes);
    CallInst *Copy = B.CreateMemCpy(New, MaybeAlign(), Old, MaybeAlign(), Kept);
    recordCopiedKindOf(*Copy, *Call);
    B.CreateCall(Free, {Old});
    New->setDebugLoc(Call->getDebugLoc());
    New->takeName(Call);
    Call->replaceAllUsesWith(New);
    Call->eraseFromParent();
  }
}

void recordCopyKinds(Function &F) {
  // Unknown is recorded too: once the function is split, what its copies
  // reach is partly hidden in records, and a kind found from what remains
  // (the pointer fields beside a union) would pass for an answer.
  for (Instruction &I : instructions(F))
    if (auto *Copy = dyn_cast<AnyMemTransferInst>(&I))
      recordCopiedKind(*Copy, copiedElementKind(*Copy));
}

/// Library functions that write only through their pointer arguments, so
/// that journaling those bytes makes them repeatable: libm's, and the hash
/// tables' rehash policy of libstdc++ (its next resize threshold, a mutable
/// member of the 16-byte policy object). Which arguments, and how many
/// bytes each.
static ArrayRef<std::pair<unsigned, unsigned>>
journaledLibraryOutputs(StringRef Name) {
  static const std::pair<unsigned, unsigned> Second8[] = {{1, 8}},
                                             Second4[] = {{1, 4}},
                                             Third4[] = {{2, 4}},
                                             Both8[] = {{1, 8}, {2, 8}},
                                             Both4[] = {{1, 4}, {2, 4}},
                                             First16[] = {{0, 16}};
  return StringSwitch<ArrayRef<std::pair<unsigned, unsigned>>>(Name)
      .Cases("_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm",
             "_ZNKSt8__detail20_Prime_rehash_policy11_M_next_bktEm", First16)
      .Case("modf", Second8)
      .Cases("modff", "frexp", "frexpf", "lgamma_r", "lgammaf_r", Second4)
      .Cases("remquo", "remquof", Third4)
      .Case("sincos", Both8)
      .Case("sincosf", Both4)
      .Default({});
}

namespace {

class Instrumenter {
public:
  Instrumenter(Function &F, const Function &Origin, const StepModel &Model,
               RuntimeABI &ABI, SmallPtrSetImpl<BasicBlock *> &AtomicHeaders,
               bool Journaled)
      : F(F), Origin(Origin), Model(Model), ABI(ABI),
        Resumable(Model.isResumable(F)), Journaled(Journaled),
        AtomicHeaders(AtomicHeaders) {}

  bool run();

private:
  /// Where a write goes and how many bytes it writes, or nothing if \p I
  /// writes no memory the journal must see.
  struct Write {
    Value *Addr;
    Value *Bytes;
    Align Alignment;
  };
  std::optional<Write> journaledWrite(Instruction &I);
  bool diesBeforeAnyYield(Value *Addr) const;
  bool checkCall(CallBase &Call);
  bool checkTeamCall(CallBase &Call);
  bool checkStackSlot(AllocaInst &AI);
  void redirectAllocation(CallBase &Call, CalleeKind Kind);
  void redirectTangentBlock(CallBase &Call, NestedRuntime Kind);
  std::optional<CalleeKind> allocationKind(const CallBase &Call) const;
  void journalAndChargeLibraryCall(CallBase &Call);
  void chargeBlocks();

  Function &F;
  const Function &Origin;
  const StepModel &Model;
  RuntimeABI &ABI;
  bool Resumable;
  bool Journaled;
  SmallPtrSetImpl<BasicBlock *> &AtomicHeaders;
  bool Failed = false;
};

} // namespace

/// A leaf runs atomically, so its own stack slots are dead at every yield;
/// a resumable function's slots move to its frame and must be journaled.
bool Instrumenter::diesBeforeAnyYield(Value *Addr) const {
  return !Resumable && isa<AllocaInst>(getUnderlyingObject(Addr));
}

std::optional<Instrumenter::Write>
Instrumenter::journaledWrite(Instruction &I) {
  const DataLayout &DL = F.getDataLayout();
  Type *I64 = Type::getInt64Ty(F.getContext());
  auto Bytes = [&](Type *T) {
    return ConstantInt::get(I64, DL.getTypeStoreSize(T));
  };
  std::optional<Write> W;
  if (!Journaled)
    return W;
  if (auto *SI = dyn_cast<StoreInst>(&I))
    W = Write{SI->getPointerOperand(), Bytes(SI->getValueOperand()->getType()),
              SI->getAlign()};
  else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    W = Write{RMW->getPointerOperand(), Bytes(RMW->getValOperand()->getType()),
              RMW->getAlign()};
  else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    W = Write{CX->getPointerOperand(), Bytes(CX->getNewValOperand()->getType()),
              CX->getAlign()};
  else if (auto *MI = dyn_cast<MemIntrinsic>(&I))
    W = Write{MI->getDest(), MI->getLength(), MI->getDestAlign().valueOrOne()};
  if (W && diesBeforeAnyYield(W->Addr))
    return std::nullopt;
  return W;
}

std::optional<CalleeKind>
Instrumenter::allocationKind(const CallBase &Call) const {
  if (Function *Callee = Call.getCalledFunction())
    if (std::optional<CalleeKind> Kind = alignedNewOrDelete(Callee->getName()))
      return Kind;
  CalleeKind Kind = classifyCall(Call).Kind;
  if (Kind == CalleeKind::Alloc || Kind == CalleeKind::Calloc ||
      Kind == CalleeKind::AlignedAlloc || Kind == CalleeKind::Realloc ||
      Kind == CalleeKind::Free)
    return Kind;
  return std::nullopt;
}

void Instrumenter::redirectAllocation(CallBase &Call, CalleeKind Kind) {
  FunctionCallee Arena = ABI.arenaFunction(Kind);
  // The C++ spellings carry extra arguments (nothrow tags, sized delete,
  // alignments of delete) that the C functions do without.
  unsigned NumParams = Arena.getFunctionType()->getNumParams();
  SmallVector<Value *, 2> Args(Call.args().begin(),
                               Call.args().begin() + NumParams);
  if (Kind == CalleeKind::AlignedAlloc &&
      alignedNewOrDelete(Call.getCalledFunction()->getName()))
    std::swap(Args[0], Args[1]);
  IRBuilder<> B(&Call);
  CallInst *New = B.CreateCall(Arena, Args);
  New->setDebugLoc(Call.getDebugLoc());
  New->takeName(&Call);
  if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(New);
  Call.eraseFromParent();
}

/// Forward-mode code (the tangent function whose checkpointed gradient is
/// forward mode over a checkpointed gradient) keeps tangent blocks beside
/// heap blocks: in the arena too, zeroed, so that re-execution finds them
/// where it left them and never frees one twice.
void Instrumenter::redirectTangentBlock(CallBase &Call, NestedRuntime Kind) {
  IRBuilder<> B(&Call);
  if (Kind == NestedRuntime::TangentFree) {
    Call.setCalledFunction(ABI.tangentArenaFree());
    return;
  }
  CallInst *New = B.CreateCall(ABI.arenaFunction(CalleeKind::Calloc),
                               {B.getInt64(1), Call.getArgOperand(0)});
  New->setDebugLoc(Call.getDebugLoc());
  New->takeName(&Call);
  Call.replaceAllUsesWith(New);
  Call.eraseFromParent();
}

/// Whether inline assembly \p Asm reads or writes memory: through an
/// operand in memory, or by the clobber that says it does.
static bool touchesMemory(const InlineAsm &Asm) {
  for (const InlineAsm::ConstraintInfo &C : Asm.ParseConstraints())
    if (C.isIndirect ||
        (C.Type == InlineAsm::isClobber && is_contained(C.Codes, "{memory}")))
      return true;
  return false;
}

/// Whether inline assembly \p Asm is empty or only a comment.
static bool isComment(const InlineAsm &Asm) {
  StringRef Text = StringRef(Asm.getAsmString()).ltrim();
  return Text.empty() || Text.starts_with("#");
}

/// A parallel region's threads take memory from the arena and replay
/// recorded results in an order no re-execution repeats.
bool Instrumenter::checkTeamCall(CallBase &Call) {
  if (allocationKind(Call)) {
    reportNotInterruptible(Call, Origin,
                           "allocating or freeing memory inside an OpenMP "
                           "parallel region of interruptible code (a "
                           "checkpointed gradient) is not supported yet; "
                           "allocate before the region");
    return false;
  }
  if (isReplayedCall(Call)) {
    reportNotInterruptible(Call, Origin,
                           "random numbers, clocks or input inside an OpenMP "
                           "parallel region of interruptible code (a "
                           "checkpointed gradient) are not supported");
    return false;
  }
  return true;
}

/// Calls that stay as they are but whose effects a resumed capsule repeats
/// are reported as warnings; calls the pass cannot make interruptible are
/// errors.
bool Instrumenter::checkCall(CallBase &Call) {
  // Rule code is the user's word on what a function does; its inline
  // assembly is taken at its word too when it names no memory. Elsewhere,
  // assembly that is only a comment (Eigen's markers around its kernels)
  // does nothing to repeat.
  if (auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
      Asm && !touchesMemory(*Asm) && (Model.isRuleCode(F) || isComment(*Asm)))
    return true;
  if (Call.isInlineAsm()) {
    reportNotInterruptible(Call, Origin, "inline assembly is not supported");
    return false;
  }
  if (Model.isTeamCode(F) && !checkTeamCall(Call))
    return false;
  CalleeInfo Info = classifyCall(Call);
  switch (Info.Kind) {
  case CalleeKind::Math:
  case CalleeKind::MemTransfer:
  case CalleeKind::MemSet:
  case CalleeKind::PointerCast:
  case CalleeKind::PointerMove:
    return true;
  case CalleeKind::Module:
    // A function with a rule of the user's may be defined elsewhere.
    if (!Info.Fn->isDeclaration())
      return true;
    break;
  case CalleeKind::Indirect:
    llvm_unreachable("indirect calls are dispatched before instrumentation");
  case CalleeKind::Alloc:
  case CalleeKind::Calloc:
  case CalleeKind::AlignedAlloc:
  case CalleeKind::Realloc:
  case CalleeKind::Free:
    return true;
  case CalleeKind::NoDerivative:
    // An inactive function of the program's runs like any other.
    if (Info.Fn && !Info.Fn->isDeclaration())
      return true;
    break;
  case CalleeKind::ParallelSync:
  case CalleeKind::External:
    break;
  }
  Function *Callee = Call.getCalledFunction();
  // The marker pass ran before: forward-mode derivatives are code like any
  // other here, but a gradient's tape and shadow heap are the runtime's,
  // which neither journals nor restores them.
  if (nestedRuntimeCall(Call) == NestedRuntime::GradientCall ||
      (Callee && Callee->getName() == "__capsule_run_checkpointed")) {
    reportNotInterruptible(Call, Origin,
                           "a gradient call (reverse mode) inside "
                           "interruptible code is not supported yet; forward "
                           "mode (__capsule_fwddiff) is");
    return false;
  }
  // A static's initialization happens once: re-executed from a capsule it
  // would be skipped or, with its guard restored, done and registered for
  // destruction twice. Those of clang's shape run as the program's code
  // (StaticInits.h); this is one of another shape.
  if (Callee && Callee->getName() == "__cxa_guard_acquire") {
    reportNotInterruptible(Call, Origin,
                           "a function-local static initialized inside "
                           "interruptible code is not supported; initialize "
                           "it before (call the function once outside)");
    return false;
  }
  // The runtime's own entry points, pure functions, library functions
  // whose writes are journaled, and calls that end the program (exit, abort, a
  // failed assert) or the computation (a throw, and the allocation of the
  // object it throws: a throw abandons the run) repeat nothing.
  if (Callee && Callee->getName() == "__cxa_allocate_exception")
    return true;
  if (Call.onlyReadsMemory() || Call.doesNotReturn() ||
      isa<IntrinsicInst>(Call) || allocationKind(Call) || isReplayedCall(Call))
    return true;
  if (Callee &&
      (Callee->getName().starts_with("__capsule_") ||
       !journaledLibraryOutputs(Callee->getName()).empty() ||
       isLibraryRoutine(*Callee) || repeatsWithoutEffect(Callee->getName())))
    return true;
  // libomp's loop bounds, thread numbers and synchronisation inside a
  // parallel region write only the thread's own stack slots.
  if (Callee && (isOpenMPWithoutDerivative(Callee->getName()) ||
                 parallelSyncOf(Callee->getName()) != ParallelSync::None))
    return true;
  warnRepeatedEffect(Call, Origin,
                     "calls external function '" +
                         (Callee ? Callee->getName() : StringRef("?")) +
                         "': its side effects happen again each time a "
                         "capsule is resumed, and memory it writes is not "
                         "restored");
  return true;
}

/// A resumable function's stack slots move into its frame record, which
/// has a fixed size and alignment (ResumableSplitter.h); those of variable
/// size went to the heap (StackArrays.h).
bool Instrumenter::checkStackSlot(AllocaInst &AI) {
  if (!Resumable)
    return true;
  std::optional<TypeSize> Size = AI.getAllocationSize(F.getDataLayout());
  if (!Size || Size->isScalable()) {
    reportNotInterruptible(AI, Origin,
                           "stack slots of scalable vector types are not "
                           "supported in interruptible code");
    return false;
  }
  if (AI.getAlign().value() > FrameAlignment) {
    reportNotInterruptible(AI, Origin,
                           "stack slots aligned to more than " +
                               Twine(FrameAlignment) +
                               " bytes are not supported");
    return false;
  }
  return true;
}

void Instrumenter::journalAndChargeLibraryCall(CallBase &Call) {
  Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return;
  for (auto [Arg, Bytes] : journaledLibraryOutputs(Callee->getName())) {
    IRBuilder<> B(&Call);
    emitJournalBarrier(B, ABI, Call.getArgOperand(Arg), B.getInt64(Bytes));
  }
  // BLAS routines and qsort: the runtime knows from the arguments which
  // span each writes and how much work the call does, which is charged as
  // the routine's loops would be were they instrumented (so that a stage
  // of a checkpointed gradient holds a bounded amount of it). Team code is
  // charged by its own rules (StepModel::chargesItself).
  if (Function *Step = libraryStepFunction(*Callee)) {
    IRBuilder<> B(&Call);
    // (Without the hidden lengths of a Fortran routine's characters.)
    SmallVector<Value *, 16> Args(
        drop_end(Call.args(), Call.arg_size() - Step->arg_size()));
    Value *Steps = B.CreateCall(Step, Args);
    if (Model.chargesWork(*Call.getParent()) && !Model.isTeamCode(F)) {
      Value *Budget = ABI.budgetAddress(B);
      Value *Left = B.CreateLoad(B.getInt64Ty(), Budget, "steps.left");
      B.CreateStore(B.CreateSub(Left, Steps), Budget);
    }
  }
}

void Instrumenter::chargeBlocks() {
  DenseMap<BasicBlock *, uint64_t> Costs;
  for (BasicBlock &BB : F)
    Costs[&BB] = Model.blockCost(BB);
  // Team code charges its loops only (StepModel::chargesItself).
  if (Model.isTeamCode(F)) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    for (auto &[BB, Cost] : Costs)
      if (!LI.getLoopFor(BB))
        Cost = 0;
  }
  AtomicLoops Atomic = chargeAtomicLoops(F, Costs, Model, ABI);
  AtomicHeaders.insert(Atomic.Headers.begin(), Atomic.Headers.end());
  for (auto [BB, Cost] : Costs) {
    if (!Cost || Atomic.Blocks.count(BB))
      continue;
    IRBuilder<> B(BB, BB->getFirstInsertionPt());
    Value *Budget = ABI.budgetAddress(B);
    Value *Left = B.CreateLoad(B.getInt64Ty(), Budget, "steps.left");
    B.CreateStore(B.CreateSub(Left, B.getInt64(Cost)), Budget);
  }
}

bool Instrumenter::run() {
  if (Resumable)
    moveStackArraysToHeap(F);
  SmallVector<Instruction *, 32> Writes;
  SmallVector<std::pair<CallBase *, CalleeKind>, 8> Allocations;
  SmallVector<std::pair<CallBase *, NestedRuntime>, 4> TangentBlocks;
  SmallVector<CallBase *, 8> OtherCalls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        if (!checkCall(*Call))
          Failed = true;
        std::optional<NestedRuntime> Nested = nestedRuntimeCall(*Call);
        if (Nested == NestedRuntime::TangentAlloc ||
            Nested == NestedRuntime::TangentFree)
          TangentBlocks.push_back({Call, *Nested});
        else if (std::optional<CalleeKind> Kind = allocationKind(*Call))
          Allocations.push_back({Call, *Kind});
        else
          OtherCalls.push_back(Call);
      }
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (!checkStackSlot(*AI))
          Failed = true;
      if (isa<IndirectBrInst>(I) || isa<CallBrInst>(I)) {
        // Block addresses name the original function's blocks, not the
        // step function's.
        reportNotInterruptible(I, Origin,
                               "computed goto (indirectbr) and asm goto are "
                               "not supported");
        Failed = true;
      }
      if (journaledWrite(I))
        Writes.push_back(&I);
    }
  // Costs are those of the code as the model saw it, and the budget is the
  // runtime's, not journaled memory: charge after collecting the writes.
  if (Resumable || Model.chargesItself(F))
    chargeBlocks();
  for (auto [Call, Kind] : Allocations)
    redirectAllocation(*Call, Kind);
  for (auto [Call, Kind] : TangentBlocks)
    redirectTangentBlock(*Call, Kind);
  if (Journaled)
    for (CallBase *Call : OtherCalls)
      journalAndChargeLibraryCall(*Call);
  for (Instruction *I : Writes) {
    std::optional<Write> W = journaledWrite(*I);
    IRBuilder<> B(I);
    emitJournalBarrier(B, ABI, W->Addr, W->Bytes, W->Alignment);
  }
  return !Failed;
}

bool instrumentForInterruption(Function &F, const Function &Origin,
                               const StepModel &Model, RuntimeABI &ABI,
                               SmallPtrSetImpl<BasicBlock *> &AtomicHeaders,
                               bool Journaled) {
  return Instrumenter(F, Origin, Model, ABI, AtomicHeaders, Journaled).run();
}

} // namespace capsule
