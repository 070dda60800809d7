//===- ReplayCalls.cpp - Replayed results of non-deterministic calls ------===//
#include "Interrupt/ReplayCalls.h"

#include "Support/Diagnostics.h"
#include "Support/LibraryOutputs.h"
#include "Support/RuntimeABI.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace capsule {

namespace {

constexpr const char *ReplayedMD = "capsule.replayed";
constexpr const char *ReplayArmMD = "capsule.replay.arm";
/// CAPSULE_REPLAY(fn) in capsule.h defines `__capsule_replay_fn = fn`.
constexpr StringLiteral RegistrationPrefix = "__capsule_replay_";

/// The functions the module registers with CAPSULE_REPLAY: their results
/// are replayed; what they write is not.
SmallPtrSet<const Function *, 4> registeredFunctions(const Module &M) {
  SmallPtrSet<const Function *, 4> Registered;
  for (const GlobalVariable &G : M.globals())
    if (G.getName().starts_with(RegistrationPrefix) && G.hasInitializer())
      if (auto *F = dyn_cast<Function>(G.getInitializer()->stripPointerCasts()))
        Registered.insert(F);
  return Registered;
}

/// A result type the log can hold as 64 bits.
bool recordable(Type *T) {
  return T->isVoidTy() || T->isDoubleTy() || T->isFloatTy() ||
         (T->isIntegerTy() && T->getIntegerBitWidth() <= 64);
}

/// What the log holds for a result: doubles and floats as they are,
/// integers widened to i64.
Value *toLogged(IRBuilder<> &B, Value *V) {
  return V->getType()->isIntegerTy() ? B.CreateZExt(V, B.getInt64Ty()) : V;
}

Value *fromLogged(IRBuilder<> &B, Value *Logged, Type *T) {
  return T->isIntegerTy() ? B.CreateTrunc(Logged, T) : Logged;
}

/// The most \p O's argument can receive, before the call says how much.
Value *outputBound(IRBuilder<> &B, CallBase &Call, const LibraryOutput &O) {
  if (!O.PerResultUnit)
    return B.getInt64(O.Bytes);
  // fread(ptr, size, count, stream) writes at most size * count bytes.
  auto Arg = [&](unsigned K) {
    return B.CreateZExtOrTrunc(Call.getArgOperand(K), B.getInt64Ty());
  };
  return B.CreateMul(Arg(1), Arg(2));
}

/// if (pending) { result = take(); take the bytes it wrote }
/// else { journal what it will write; result = call; record both }
void wrapCall(CallBase &Call, ArrayRef<LibraryOutput> Outputs,
              RuntimeABI &ABI) {
  SmallVector<Use *, 4> Uses;
  for (Use &U : Call.uses())
    Uses.push_back(&U);
  IRBuilder<> Head(&Call);
  Value *Pending = Head.CreateICmpNE(Head.CreateCall(ABI.replayPending()),
                                     Head.getInt8(0), "replay.pending");
  Instruction *TakeEnd, *CallEnd;
  SplitBlockAndInsertIfThenElse(Pending, &Call, &TakeEnd, &CallEnd);
  BasicBlock *Join = Call.getParent();

  Call.moveBefore(CallEnd);
  auto ArgOf = [&](unsigned K) { return Call.getArgOperand(K); };
  IRBuilder<> Before(&Call);
  for (const LibraryOutput &O : Outputs)
    Before.CreateCall(ABI.replayWillWrite(), {Call.getArgOperand(O.Arg),
                                              outputBound(Before, Call, O)});
  IRBuilder<> Record(CallEnd);
  Type *T = Call.getType();
  if (!T->isVoidTy())
    Record.CreateCall(ABI.replayRecord(T), {toLogged(Record, &Call)});
  for (const LibraryOutput &O : Outputs)
    Record.CreateCall(
        ABI.replayRecordBytes(),
        {Call.getArgOperand(O.Arg), writtenBytes(Record, O, ArgOf, &Call)});

  IRBuilder<> Take(TakeEnd);
  Value *Taken = nullptr;
  if (!T->isVoidTy())
    Taken = fromLogged(Take, Take.CreateCall(ABI.replayTake(T)), T);
  for (const LibraryOutput &O : Outputs)
    Take.CreateCall(
        ABI.replayTakeBytes(),
        {Call.getArgOperand(O.Arg), writtenBytes(Take, O, ArgOf, Taken)});

  MDNode *Mark = MDNode::get(Call.getContext(), {});
  Call.setMetadata(ReplayedMD, Mark);
  TakeEnd->setMetadata(ReplayArmMD, Mark);
  CallEnd->setMetadata(ReplayArmMD, Mark);
  for (BasicBlock *BB : {TakeEnd->getParent(), CallEnd->getParent()})
    for (Instruction &I : *BB)
      if (!I.getDebugLoc())
        I.setDebugLoc(Call.getDebugLoc());
  if (T->isVoidTy())
    return;
  PHINode *Result = PHINode::Create(T, 2, Call.getName() + ".replayed");
  Result->insertBefore(Join->begin());
  Result->addIncoming(Taken, TakeEnd->getParent());
  Result->addIncoming(&Call, CallEnd->getParent());
  for (Use *U : Uses)
    U->set(Result);
}

} // namespace

bool replayNondeterministicCalls(Function &F, const Function &Origin,
                                 RuntimeABI &ABI) {
  SmallPtrSet<const Function *, 4> Registered =
      registeredFunctions(*F.getParent());
  SmallVector<std::pair<CallBase *, SmallVector<LibraryOutput, 2>>, 4> Calls;
  bool Ok = true;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee)
      continue;
    if (Registered.contains(Callee)) {
      if (!recordable(Call->getType())) {
        reportNotInterruptible(*Call, Origin,
                               "the result of '" + displayName(*Callee) +
                                   "', registered with CAPSULE_REPLAY, cannot "
                                   "be replayed: only void, integer, float "
                                   "and double results can");
        Ok = false;
        continue;
      }
      Calls.push_back({Call, {}});
    } else if (Callee->isDeclaration()) {
      if (std::optional<SmallVector<LibraryOutput, 2>> Outputs =
              nondeterministicLibraryOutputs(Callee->getName()))
        Calls.push_back({Call, *Outputs});
    }
  }
  for (auto &[Call, Outputs] : Calls)
    wrapCall(*Call, Outputs, ABI);
  return Ok;
}

bool isReplayedCall(const CallBase &Call) {
  return Call.hasMetadata(ReplayedMD);
}

bool isReplayArm(const BasicBlock &BB) {
  const Instruction *End = BB.getTerminator();
  return End && End->hasMetadata(ReplayArmMD);
}

} // namespace capsule
