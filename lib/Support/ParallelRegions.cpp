//===- ParallelRegions.cpp - OpenMP as clang lowers it --------------------===//
#include "Support/ParallelRegions.h"

#include "Analysis/CallClassifier.h"
#include "Analysis/MemoryKinds.h"
#include "Support/Cloning.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace capsule {

static constexpr const char *RegionMetadata = "capsule.omp.region";

/// Fork arguments start after (loc, count, microtask); the microtask's
/// parameters after (gtid, btid).
constexpr unsigned ForkCaptures = 3, MicrotaskCaptures = 2;

Type *forkedArgumentType(Type *T) {
  return T->isDoubleTy() || T->isFloatTy() ? Type::getInt64Ty(T->getContext())
                                           : T;
}

Value *toForked(IRBuilder<> &B, Value *V) {
  if (V->getType()->isFloatTy())
    return B.CreateZExt(B.CreateBitCast(V, B.getInt32Ty()), B.getInt64Ty());
  return B.CreateBitCast(V, forkedArgumentType(V->getType()));
}

Value *fromForked(IRBuilder<> &B, Value *Word, Type *T) {
  if (T->isFloatTy())
    return B.CreateBitCast(B.CreateTrunc(Word, B.getInt32Ty()), T);
  return B.CreateBitCast(Word, T);
}

/// The float or double whose bits \p Capture is, if clang passed one by
/// value: a bitcast (zero-extended for a float), an integer load of it (made
/// here as a load of the float), or at -O0 a stack slot of its own the value
/// was stored in.
static Value *capturedFloat(Value *Capture) {
  auto IsFloat = [](const Value *V) {
    return V->getType()->isDoubleTy() || V->getType()->isFloatTy();
  };
  Value *Word = Capture;
  if (auto *Ext = dyn_cast<ZExtInst>(Word))
    Word = Ext->getOperand(0);
  if (auto *Cast = dyn_cast<BitCastInst>(Word);
      Cast && IsFloat(Cast->getOperand(0)))
    return Cast->getOperand(0);
  // Optimization reads a double (or float) loaded only to be passed on as
  // its bits: an integer load that TBAA says is of the float.
  if (auto *Bits = dyn_cast<LoadInst>(Word)) {
    ElementKind Kind = declaredAccessKind(*Bits);
    Type *T = Kind == ElementKind::F64   ? Type::getDoubleTy(Bits->getContext())
              : Kind == ElementKind::F32 ? Type::getFloatTy(Bits->getContext())
                                         : nullptr;
    if (T && T->getPrimitiveSizeInBits() ==
                 Bits->getType()->getPrimitiveSizeInBits()) {
      IRBuilder<> B(Bits);
      LoadInst *Typed = B.CreateAlignedLoad(
          T, Bits->getPointerOperand(), Bits->getAlign(), Bits->isVolatile());
      Typed->copyMetadata(*Bits);
      return Typed;
    }
  }
  auto *Load = dyn_cast<LoadInst>(Capture);
  auto *Slot = Load ? dyn_cast<AllocaInst>(Load->getPointerOperand()) : nullptr;
  if (!Slot || !Load->getType()->isIntegerTy(64) || !Slot->hasNUses(2))
    return nullptr;
  auto *Store = dyn_cast<StoreInst>(
      *find_if(Slot->users(), [&](const User *U) { return U != Load; }));
  if (!Store || Store->getPointerOperand() != Slot ||
      !IsFloat(Store->getValueOperand()) ||
      Store->getParent() != Load->getParent() || !Store->comesBefore(Load))
    return nullptr;
  return Store->getValueOperand();
}

/// Erases what made \p Word, a capture's bits the fork passed, once nothing
/// else uses them: the differentiability checks would take a float's bits
/// for a lost derivative. At -O0 that is the stack slot and its store too.
static void eraseCapturedWord(Instruction &Word) {
  if (!Word.use_empty())
    return;
  auto *Load = dyn_cast<LoadInst>(&Word);
  auto *Slot = Load ? dyn_cast<AllocaInst>(Load->getPointerOperand()) : nullptr;
  RecursivelyDeleteTriviallyDeadInstructions(&Word);
  if (!Slot)
    return;
  for (User *U : make_early_inc_range(Slot->users()))
    cast<StoreInst>(U)->eraseFromParent();
  Slot->eraseFromParent();
}

/// Gives the uses of \p Bits, a capture's word in a retyped microtask, the
/// value \p Real itself where they read it back: the bitcast (after a
/// truncation, for a float) at -O2, the stack slot the word is stored in
/// and read from as the value at -O0. Uses left read the bits as a number;
/// the differentiability checks refuse them.
static void foldCapturedBits(Instruction &Bits, Value &Real) {
  Type *T = Real.getType();
  SmallVector<WeakTrackingVH, 4> Unused = {&Bits};
  for (User *U : make_early_inc_range(Bits.users())) {
    Instruction *I = cast<Instruction>(U);
    if (T->isFloatTy() && isa<TruncInst>(I) && I->hasOneUse())
      I = cast<Instruction>(*I->user_begin());
    if (isa<BitCastInst>(I) && I->getType() == T) {
      I->replaceAllUsesWith(&Real);
      Unused.push_back(I);
      continue;
    }
    auto *Store = dyn_cast<StoreInst>(U);
    auto *Slot =
        Store ? dyn_cast<AllocaInst>(Store->getPointerOperand()) : nullptr;
    if (!Slot || Store->getValueOperand() != &Bits ||
        !all_of(Slot->users(), [&](const User *V) {
          auto *L = dyn_cast<LoadInst>(V);
          return V == Store || (L && L->getType() == T);
        }))
      continue;
    new StoreInst(&Real, Slot, Store->getIterator());
    Store->eraseFromParent();
  }
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Unused);
}

/// \p Micro with the parameters \p Retyped gives types taking those values
/// instead of their words.
static Function *withFloatCaptures(Function &Micro, ArrayRef<Type *> Retyped) {
  std::string Name = (Micro.getName() + ".capsule.omp").str();
  SmallVector<Type *, 8> Params(Micro.getFunctionType()->params());
  for (auto [K, T] : enumerate(Retyped)) {
    Name += !T ? '_' : T->isFloatTy() ? 'f' : 'd';
    if (T)
      Params[K] = T;
  }
  Module &M = *Micro.getParent();
  if (Function *Known = M.getFunction(Name))
    return Known;
  Function *New =
      Function::Create(FunctionType::get(Micro.getReturnType(), Params, false),
                       GlobalValue::InternalLinkage, Name, M);
  New->copyAttributesFrom(&Micro);
  ValueToValueMapTy VMap;
  SmallVector<ReturnInst *, 1> Returns;
  // Retyped parameters map to their words, made once the body exists.
  SmallVector<std::pair<Instruction *, Argument *>, 2> Words;
  for (Argument &A : Micro.args()) {
    Argument *NA = New->getArg(A.getArgNo());
    NA->setName(A.getName());
    if (!Retyped[A.getArgNo()]) {
      VMap[&A] = NA;
      continue;
    }
    auto *Word = cast<Instruction>(
        new FreezeInst(PoisonValue::get(A.getType()), A.getName() + ".word"));
    Words.push_back({Word, NA});
    VMap[&A] = Word;
  }
  cloneFunctionInto(*New, Micro, VMap, Returns);
  BasicBlock &Entry = New->getEntryBlock();
  for (auto &[Placeholder, NA] : Words) {
    IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
    auto *Word = cast<Instruction>(toForked(B, NA));
    Placeholder->replaceAllUsesWith(Word);
    Placeholder->deleteValue();
    foldCapturedBits(*Word, *NA);
    New->removeParamAttrs(NA->getArgNo(),
                          AttributeFuncs::typeIncompatible(NA->getType()));
  }
  return New;
}

/// One fork of a known microtask becomes a call of it (or of its retyped
/// twin), marked with the fork's location.
static void lowerFork(CallBase &Fork) {
  auto *Micro = dyn_cast<Function>(Fork.getArgOperand(2));
  if (!Micro || Micro->isDeclaration() ||
      Micro->arg_size() != Fork.arg_size() - ForkCaptures + MicrotaskCaptures)
    return;
  SmallVector<Type *, 8> Retyped(Micro->arg_size(), nullptr);
  SmallVector<Instruction *, 4> Words;
  SmallVector<Value *, 8> Args(
      MicrotaskCaptures,
      Constant::getNullValue(Fork.getArgOperand(0)->getType()));
  for (unsigned K = ForkCaptures; K < Fork.arg_size(); ++K) {
    Value *Capture = Fork.getArgOperand(K);
    if (Value *Real = capturedFloat(Capture)) {
      Retyped[K - ForkCaptures + MicrotaskCaptures] = Real->getType();
      Words.push_back(cast<Instruction>(Capture));
      Capture = Real;
    }
    Args.push_back(Capture);
  }
  Function *Region = any_of(Retyped, [](Type *T) { return T; })
                         ? withFloatCaptures(*Micro, Retyped)
                         : Micro;
  auto *Call = CallInst::Create(Region, Args, "", Fork.getIterator());
  Call->setDebugLoc(Fork.getDebugLoc());
  LLVMContext &C = Fork.getContext();
  Call->setMetadata(RegionMetadata, MDNode::get(C, ValueAsMetadata::get(
                                                       Fork.getArgOperand(0))));
  Fork.eraseFromParent();
  for (Instruction *Word : Words)
    eraseCapturedWord(*Word);
}

/// A call of the runtime's \p Name (i64 (ptr loc, i32 gtid, ptr lock)) in
/// place of \p Old, whose operands \p Lock names.
static CallInst *replaceBySync(CallBase &Old, StringRef Name,
                               unsigned LockArg) {
  Module &M = *Old.getModule();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionCallee Sync = M.getOrInsertFunction(Name, Type::getInt64Ty(C), Ptr,
                                              Type::getInt32Ty(C), Ptr);
  auto *Call = CallInst::Create(
      Sync,
      {Old.getArgOperand(0), Old.getArgOperand(1), Old.getArgOperand(LockArg)},
      "", Old.getIterator());
  Call->setDebugLoc(Old.getDebugLoc());
  return Call;
}

/// A reduction combines under a critical section: libomp may instead
/// combine with atomics or in a tree through the reduction function (where
/// no derivative would see it), so the call that chose becomes the lock,
/// and its result the choice of the locked branch.
static void lowerReduction(CallBase &Reduce) {
  replaceBySync(Reduce, "__capsule_omp_critical", 6);
  SmallVector<BasicBlock *, 2> Choices;
  for (User *U : Reduce.users())
    if (auto *I = dyn_cast<Instruction>(U))
      Choices.push_back(I->getParent());
  Reduce.replaceAllUsesWith(ConstantInt::get(Reduce.getType(), 1));
  Reduce.eraseFromParent();
  for (BasicBlock *BB : Choices)
    ConstantFoldTerminator(BB);
}

/// The calls of \p P to the function named \p Name.
static SmallVector<CallBase *, 4> callsTo(Function &P, StringRef Name) {
  SmallVector<CallBase *, 4> Calls;
  for (BasicBlock &BB : P)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *F = Call->getCalledFunction(); F && F->getName() == Name)
          Calls.push_back(Call);
  return Calls;
}

void lowerSynchronisation(Function &P) {
  for (StringRef Name : {"__kmpc_reduce_nowait", "__kmpc_reduce"})
    for (CallBase *Reduce : callsTo(P, Name))
      lowerReduction(*Reduce);
  // The runtime's versions return the section's ticket (abi.h).
  auto Replace = [&](StringRef Name, StringRef By) {
    for (CallBase *Old : callsTo(P, Name)) {
      replaceBySync(*Old, By, 2);
      Old->eraseFromParent();
    }
  };
  Replace("__kmpc_critical", "__capsule_omp_critical");
  Replace("__kmpc_critical_with_hint", "__capsule_omp_critical");
  Replace("__kmpc_end_critical", "__capsule_omp_end_critical");
  Replace("__kmpc_end_reduce_nowait", "__capsule_omp_end_critical");
  Replace("__kmpc_end_reduce", "__capsule_omp_end_reduce");
}

void lowerParallelForks(Function &P) {
  for (CallBase *Fork : callsTo(P, "__kmpc_fork_call"))
    lowerFork(*Fork);
}

bool isParallelRegionCall(const CallBase &Call) {
  return Call.getMetadata(RegionMetadata);
}

bool isForkedMicrotask(const Function &F) {
  return any_of(F.users(), [&](const User *U) {
    auto *Fork = dyn_cast<CallBase>(U);
    const Function *Callee = Fork ? Fork->getCalledFunction() : nullptr;
    return Callee && Callee->getName() == "__kmpc_fork_call" &&
           Fork->getArgOperand(2) == &F;
  });
}

Value *parallelRegionLocation(const CallBase &Call) {
  auto *MD = cast<MDNode>(Call.getMetadata(RegionMetadata));
  return cast<ValueAsMetadata>(MD->getOperand(0))->getValue();
}

ParallelSync parallelSyncOf(StringRef Name) {
  return StringSwitch<ParallelSync>(Name)
      .Case("__capsule_omp_critical", ParallelSync::EnterCritical)
      .Case("__capsule_omp_end_critical", ParallelSync::ExitCritical)
      .Case("__kmpc_barrier", ParallelSync::Barrier)
      .Case("__capsule_omp_end_reduce", ParallelSync::ExitCriticalThenBarrier)
      .Default(ParallelSync::None);
}

/// Whether \p Slot is a stack slot only libomp's calls get the address of:
/// what else reads or writes it does so directly.
static bool isChunkBound(const AllocaInst &Slot) {
  return all_of(Slot.users(), [&](const User *U) {
    if (isa<LoadInst>(U))
      return true;
    if (auto *SI = dyn_cast<StoreInst>(U))
      return SI->getPointerOperand() == &Slot;
    auto *Call = dyn_cast<CallBase>(U);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    return Callee &&
           (Callee->isIntrinsic() || Callee->getName().starts_with("__kmpc_"));
  });
}

/// Whether something in \p L stores to \p Slot or hands it to a call.
static bool writtenIn(const Loop &L, const AllocaInst &Slot) {
  return any_of(Slot.users(), [&](const User *U) {
    auto *I = cast<Instruction>(U);
    return !isa<LoadInst>(I) && L.contains(I->getParent());
  });
}

/// Whether, by the program's own type rules (TBAA), nothing in \p L writes
/// a pointer: it stores only floating-point data and calls only math
/// functions (writing errno at most), with no synchronisation through which
/// another thread could change a shared pointer variable.
static bool storesOnlyFloatsIn(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (auto *SI = dyn_cast<StoreInst>(&I)) {
        ElementKind Kind = declaredAccessKind(*SI);
        if (Kind != ElementKind::F64 && Kind != ElementKind::F32)
          return false;
      } else if (auto *Call = dyn_cast<CallBase>(&I)) {
        if (Call->mayWriteToMemory() && !isa<DbgInfoIntrinsic>(Call) &&
            !(isa<IntrinsicInst>(Call) &&
              cast<IntrinsicInst>(Call)->isLifetimeStartOrEnd()) &&
            classifyCall(*Call).Kind != CalleeKind::Math)
          return false;
      } else if (I.mayWriteToMemory()) {
        return false;
      }
    }
  return true;
}

/// Whether \p Load reads the same value in every iteration of \p L;
/// \p FloatStores caches storesOnlyFloatsIn per loop.
static bool invariantIn(const Loop &L, const LoadInst &Load,
                        DenseMap<const Loop *, bool> &FloatStores) {
  const Value *Ptr = Load.getPointerOperand();
  if (auto *Slot = dyn_cast<AllocaInst>(Ptr))
    return isChunkBound(*Slot) && !writtenIn(L, *Slot);
  // A shared variable holding a pointer (an array the region works on),
  // in a loop that stores only floating-point data.
  if (!isa<Argument>(Ptr) || declaredAccessKind(Load) != ElementKind::Pointer)
    return false;
  auto [It, New] = FloatStores.try_emplace(&L, false);
  if (New)
    It->second = storesOnlyFloatsIn(L);
  return It->second;
}

void hoistLoopInvariantLoads(Function &F) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  SmallVector<LoadInst *, 16> Loads;
  for (BasicBlock &BB : F)
    if (LI.getLoopFor(&BB))
      for (Instruction &I : BB)
        if (auto *Load = dyn_cast<LoadInst>(&I); Load && Load->isSimple())
          Loads.push_back(Load);
  DenseMap<const Loop *, bool> FloatStores;
  for (LoadInst *Load : Loads) {
    Loop *Out = nullptr;
    for (Loop *L = LI.getLoopFor(Load->getParent());
         L && invariantIn(*L, *Load, FloatStores); L = L->getParentLoop())
      Out = L;
    // Loading a stack slot or a capture (dereferenceable) cannot trap, so
    // the load may run before the loop.
    if (BasicBlock *Pre = Out ? Out->getLoopPreheader() : nullptr)
      Load->moveBefore(Pre->getTerminator());
  }
}

/// How many critical sections a pass through \p BB enters, less how many
/// it leaves.
static int criticalBalance(const BasicBlock &BB) {
  int Balance = 0;
  for (const Instruction &I : BB)
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction())
        switch (parallelSyncOf(Callee->getName())) {
        case ParallelSync::EnterCritical:
          ++Balance;
          break;
        case ParallelSync::ExitCritical:
        case ParallelSync::ExitCriticalThenBarrier:
          --Balance;
          break;
        default:
          break;
        }
  return Balance;
}

SmallPtrSet<const BasicBlock *, 8> blocksInCriticalSections(const Function &F) {
  // Sections nest properly: every path into a block has entered as many as
  // it left, so a forward walk from the entry finds each block's depth.
  DenseMap<const BasicBlock *, int> DepthAtEntry;
  SmallVector<const BasicBlock *, 16> Work = {&F.getEntryBlock()};
  DepthAtEntry[&F.getEntryBlock()] = 0;
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    int After = DepthAtEntry[BB] + criticalBalance(*BB);
    for (const BasicBlock *Succ : successors(BB))
      if (DepthAtEntry.try_emplace(Succ, After).second)
        Work.push_back(Succ);
  }
  SmallPtrSet<const BasicBlock *, 8> Inside;
  for (auto [BB, Depth] : DepthAtEntry)
    if (Depth > 0)
      Inside.insert(BB);
  return Inside;
}

std::optional<std::string> whyOpenMPUnsupported(StringRef Name) {
  if (!Name.starts_with("__kmpc_") || isOpenMPWithoutDerivative(Name) ||
      parallelSyncOf(Name) != ParallelSync::None)
    return std::nullopt;
  if (Name == "__kmpc_fork_call")
    return std::string("OpenMP parallel region whose body is not a function "
                       "of this module");
  return "the OpenMP construct behind '" + Name.str() +
         "' (tasks, ordered, copyprivate, teams, ...) inside differentiated "
         "code is not supported yet";
}

bool isOpenMPWithoutDerivative(StringRef Name) {
  return Name.starts_with("__kmpc_for_static_") ||
         Name.starts_with("__kmpc_dispatch_") || Name.starts_with("omp_get_") ||
         is_contained({"__kmpc_global_thread_num", "__kmpc_push_num_threads",
                       // An if clause that is false: the microtask is called
                       // directly, a team of one.
                       "__kmpc_serialized_parallel",
                       "__kmpc_end_serialized_parallel", "__kmpc_master",
                       "__kmpc_end_master", "__kmpc_masked",
                       "__kmpc_end_masked", "__kmpc_single",
                       "__kmpc_end_single", "__kmpc_flush", "omp_in_parallel"},
                      Name);
}

Function *microtask(Module &M, const Twine &Name, ArrayRef<Type *> Params,
                    function_ref<void(IRBuilder<> &, Function &)> Body) {
  std::string Key = Name.str();
  if (Function *Known = M.getFunction(Key))
    return Known;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  SmallVector<Type *, 8> All = {Ptr, Ptr};
  append_range(All, Params);
  Function *Task =
      Function::Create(FunctionType::get(Type::getVoidTy(C), All, false),
                       GlobalValue::InternalLinkage, Key, M);
  Task->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", Task));
  Body(B, *Task);
  B.CreateRetVoid();
  return Task;
}

Function *
forkedCallTask(Function &Fn, const Twine &Name, ArrayRef<Type *> Extra,
               function_ref<void(IRBuilder<> &, Function &, bool)> Around) {
  SmallVector<Type *, 8> Params;
  for (unsigned K = MicrotaskCaptures; K < Fn.arg_size(); ++K)
    Params.push_back(forkedArgumentType(Fn.getArg(K)->getType()));
  append_range(Params, Extra);
  return microtask(*Fn.getParent(), Name, Params,
                   [&](IRBuilder<> &B, Function &Task) {
                     if (Around)
                       Around(B, Task, /*Before=*/true);
                     SmallVector<Value *, 8> Args;
                     for (unsigned K = 0; K < Fn.arg_size(); ++K)
                       Args.push_back(fromForked(B, Task.getArg(K),
                                                 Fn.getArg(K)->getType()));
                     B.CreateCall(&Fn, Args);
                     if (Around)
                       Around(B, Task, /*Before=*/false);
                   });
}

CallInst *emitFork(IRBuilder<> &B, Value *Location, Function *Task,
                   ArrayRef<Value *> Args) {
  Module &M = *Task->getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionCallee Fork = M.getOrInsertFunction(
      "__kmpc_fork_call",
      FunctionType::get(Type::getVoidTy(C), {Ptr, Type::getInt32Ty(C), Ptr},
                        /*isVarArg=*/true));
  SmallVector<Value *, 12> All = {Location, B.getInt32(Args.size()), Task};
  for (Value *V : Args)
    All.push_back(toForked(B, V));
  return B.CreateCall(Fork, All);
}

} // namespace capsule
