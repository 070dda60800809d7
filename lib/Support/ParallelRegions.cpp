//===- ParallelRegions.cpp - OpenMP as clang lowers it --------------------===//
#include "Support/ParallelRegions.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace capsule {

static constexpr const char *RegionMetadata = "capsule.omp.region";

/// Fork arguments start after (loc, count, microtask); the microtask's
/// parameters after (gtid, btid).
constexpr unsigned ForkCaptures = 3, MicrotaskCaptures = 2;

Type *forkedArgumentType(Type *T) {
  return T->isDoubleTy() ? Type::getInt64Ty(T->getContext()) : T;
}

/// The double whose bits \p Capture is, if clang passed a double by value:
/// a bitcast, or at -O0 a stack slot of its own the double was stored in.
/// \p Dead gets what carried the bits, to erase once the fork is gone.
static Value *capturedDouble(Value *Capture,
                             SmallVectorImpl<Instruction *> &Dead) {
  if (auto *Cast = dyn_cast<BitCastInst>(Capture);
      Cast && Cast->getSrcTy()->isDoubleTy()) {
    Dead.push_back(Cast);
    return Cast->getOperand(0);
  }
  auto *Load = dyn_cast<LoadInst>(Capture);
  auto *Slot = Load ? dyn_cast<AllocaInst>(Load->getPointerOperand()) : nullptr;
  if (!Slot || !Load->getType()->isIntegerTy(64) || !Slot->hasNUses(2))
    return nullptr;
  auto *Store = dyn_cast<StoreInst>(
      *find_if(Slot->users(), [&](const User *U) { return U != Load; }));
  if (!Store || Store->getPointerOperand() != Slot ||
      !Store->getValueOperand()->getType()->isDoubleTy() ||
      Store->getParent() != Load->getParent() || !Store->comesBefore(Load))
    return nullptr;
  append_range(Dead, ArrayRef<Instruction *>{Load, Store, Slot});
  return Store->getValueOperand();
}

/// \p Micro with the parameters \p AsDouble marks taking doubles instead of
/// their bits: the body gets the bits back with a bitcast, which
/// preparation folds into the double's uses.
static Function *withDoubleCaptures(Function &Micro,
                                    const SmallBitVector &AsDouble) {
  std::string Name = (Micro.getName() + ".capsule.omp").str();
  for (unsigned K = 0; K < AsDouble.size(); ++K)
    Name += AsDouble[K] ? 'd' : '_';
  Module &M = *Micro.getParent();
  if (Function *Known = M.getFunction(Name))
    return Known;
  SmallVector<Type *, 8> Params(Micro.getFunctionType()->params());
  LLVMContext &C = Micro.getContext();
  for (unsigned K = 0; K < AsDouble.size(); ++K)
    if (AsDouble[K])
      Params[K] = Type::getDoubleTy(C);
  Function *New =
      Function::Create(FunctionType::get(Micro.getReturnType(), Params, false),
                       GlobalValue::InternalLinkage, Name, M);
  New->copyAttributesFrom(&Micro);
  ValueToValueMapTy VMap;
  SmallVector<ReturnInst *, 1> Returns;
  // Retyped parameters map to placeholders replaced once the body exists.
  SmallVector<std::pair<Instruction *, Argument *>, 2> Placeholders;
  for (Argument &A : Micro.args()) {
    Argument *NA = New->getArg(A.getArgNo());
    NA->setName(A.getName());
    if (!AsDouble[A.getArgNo()]) {
      VMap[&A] = NA;
      continue;
    }
    auto *Bits = CastInst::Create(Instruction::BitCast, NA, A.getType(),
                                  A.getName() + ".bits");
    Placeholders.push_back({Bits, NA});
    VMap[&A] = Bits;
  }
  CloneFunctionInto(New, &Micro, VMap,
                    CloneFunctionChangeType::LocalChangesOnly, Returns);
  BasicBlock &Entry = New->getEntryBlock();
  for (auto &[Bits, NA] : Placeholders) {
    Bits->insertBefore(&*Entry.getFirstInsertionPt());
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
  SmallBitVector AsDouble(Micro->arg_size());
  SmallVector<Instruction *, 4> Dead;
  SmallVector<Value *, 8> Args(
      MicrotaskCaptures,
      Constant::getNullValue(Fork.getArgOperand(0)->getType()));
  for (unsigned K = ForkCaptures; K < Fork.arg_size(); ++K) {
    Value *Capture = Fork.getArgOperand(K);
    if (Value *D = capturedDouble(Capture, Dead)) {
      AsDouble.set(K - ForkCaptures + MicrotaskCaptures);
      Capture = D;
    }
    Args.push_back(Capture);
  }
  Function *Region =
      AsDouble.any() ? withDoubleCaptures(*Micro, AsDouble) : Micro;
  auto *Call = CallInst::Create(Region, Args, "", Fork.getIterator());
  Call->setDebugLoc(Fork.getDebugLoc());
  LLVMContext &C = Fork.getContext();
  Call->setMetadata(RegionMetadata, MDNode::get(C, ValueAsMetadata::get(
                                                       Fork.getArgOperand(0))));
  Fork.eraseFromParent();
  // The differentiability checks would take a double's bits for a lost
  // derivative.
  for (Instruction *I : Dead)
    if (I->use_empty())
      I->eraseFromParent();
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
                       Args.push_back(B.CreateBitCast(Task.getArg(K),
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
    All.push_back(B.CreateBitCast(V, forkedArgumentType(V->getType())));
  return B.CreateCall(Fork, All);
}

} // namespace capsule
