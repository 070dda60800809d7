//===- CheckpointedGradient.cpp - Lowers checkpointed gradient calls ------===//
//
// __capsule_autodiff_checkpointed(f, args...) becomes:
//
//   frame = __capsule_root_frame(f's capsule_entry)
//   store each argument in the frame; the shadow of each pointer argument
//     in the frame's pointer-shadow slot (null for const pointers)
//   zero the shadow globals
//   __capsule_run_checkpointed(&f's checkpointed entry, frame)
//   read the adjoints of the out arguments from the frame's adjoint slots
//
// The checkpointed entry names the forward and reverse sweeps of the
// derivative of f's step function (signature: the frame is dup), which the
// driver runs as the stages of the schedule (runtime/Checkpointed.cpp).
//===----------------------------------------------------------------------===//
#include "Checkpoint/CheckpointedGradient.h"

#include "Interrupt/ResumableSplitter.h"
#include "Reverse/ByValShadows.h"
#include "Reverse/Differentiator.h"
#include "Support/Diagnostics.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

static SeededResult seededResult(const DiffSignature &Sig) {
  Type *T = Sig.Fn->getReturnType();
  if (!Sig.ActiveReturn)
    return SeededResult::None;
  return T->isFloatTy() ? SeededResult::Float : SeededResult::Double;
}

/// The parts of a signature checkpointed gradients do not handle yet.
static bool checkSupported(const GradientRequest &R) {
  Type *RetTy = R.Sig.Fn->getReturnType();
  if (R.Sig.ActiveReturn && !RetTy->isFloatTy() && !RetTy->isDoubleTy()) {
    reportBadMarkerCall(*R.Call, "__capsule_autodiff_checkpointed seeds only "
                                 "float and double results");
    return false;
  }
  return true;
}

bool CheckpointedGradients::prepare(ArrayRef<GradientRequest> Requests) {
  SetVector<Function *> Fns;
  bool Ok = true;
  for (const GradientRequest &R : Requests) {
    Ok &= checkSupported(R);
    Fns.insert(R.Sig.Fn);
    Levels[R.Sig.Fn] = R.Sig.Level;
  }
  if (!Ok || Fns.empty())
    return Ok;
  // One build per root: a root that reaches capsule_checkpoint_iteration()
  // counts steps differently from one that does not, even in the functions
  // both call.
  for (Function *F : Fns) {
    // Every root's errors are reported, not only the first failing one's.
    auto Built =
        buildInterruptible(D.module(), D.abi(), {F}, /*ForCheckpointing=*/true);
    if (Built)
      Roots[F] = Built->lookup(F);
    Ok &= Built.has_value();
  }
  if (!Ok)
    return false;
  for (Function *F : Fns) {
    D.get(stageSignature(*F));
    D.get(stageSignature(*F, /*Untaped=*/true));
  }
  return true;
}

/// One stage: the step function run from its frame (dup: adjoints of the
/// frame live in the frame's adjoint slots) to its next yield or its end.
/// Nothing runs between the two sweeps of a stage. The untaped variant is
/// the stage's forward sweep without a tape: how the driver re-executes.
DiffSignature CheckpointedGradients::stageSignature(Function &Root,
                                                    bool Untaped) const {
  DiffSignature Sig;
  Sig.Fn = Roots.lookup(&Root).Step;
  Sig.Args = {ArgActivity::Dup};
  Sig.TopLevel = true;
  Sig.Untaped = Untaped;
  Sig.Level = Levels.lookup(&Root);
  return Sig;
}

GlobalVariable *CheckpointedGradients::checkpointedEntry(Function &Root,
                                                         SeededResult Seed) {
  GlobalVariable *&Entry = Entries[{&Root, Seed}];
  if (Entry)
    return Entry;
  const InterruptibleRoot &IR = Roots.lookup(&Root);
  Derivative Dv = D.get(stageSignature(Root));
  Function *Untaped = D.get(stageSignature(Root, /*Untaped=*/true)).Fwd;
  Module &M = D.module();
  StructType *Ty = D.abi().checkpointedEntryType();
  Constant *Init = ConstantStruct::get(
      Ty,
      {IR.Entry, Dv.Fwd, Dv.Rev, Untaped,
       ConstantInt::get(Type::getInt32Ty(M.getContext()),
                        static_cast<uint32_t>(Seed)),
       ConstantInt::get(Type::getInt32Ty(M.getContext()), IR.LoopIterations)});
  Entry = new GlobalVariable(M, Ty, /*isConstant=*/true,
                             GlobalValue::PrivateLinkage, Init,
                             Root.getName() + ".capsule.checkpointed");
  return Entry;
}

Value *CheckpointedGradients::lower(const GradientRequest &R) {
  IRBuilder<> B(R.Call);
  RuntimeABI &ABI = D.abi();
  Function &Root = *R.Sig.Fn;
  Value *Frame = emitRootFrame(B, ABI, Roots.lookup(&Root), Root, R.Args);
  Value *Span = ABI.loadRegionSpan(B);
  Value *Adjoints = B.CreateGEP(B.getInt8Ty(), Frame, Span, "frame.adjoints");
  Value *PointerShadows =
      B.CreateGEP(B.getInt8Ty(), Frame, B.CreateShl(Span, 1), "frame.shadows");
  auto Slot = [&](Value *Base, uint64_t Offset) {
    return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset);
  };
  FrameHeader H = frameHeader(Root);
  Differentiator::ShadowBinding SB = D.bindShadowGlobals(B, R);
  unsigned NextShadow = 0;
  SmallVector<std::pair<unsigned, Value *>, 1> DupByVal;
  for (auto [K, Arg] : enumerate(R.Args)) {
    if (!carriesPointer(Arg->getType()))
      continue;
    Value *Shadow = R.Sig.Args[K] == ArgActivity::Dup
                        ? SB.Shadows[NextShadow++]
                        : Constant::getNullValue(Arg->getType());
    Value *ShadowSlot = Slot(PointerShadows, H.ArgOffsets[K]);
    if (!Root.getArg(K)->hasByValAttr()) {
      if (R.Sig.Args[K] == ArgActivity::Dup && Arg->getType()->isPointerTy())
        B.CreateCall(ABI.checkCheckpointedShadow(),
                     {Arg, Shadow, B.getInt32(K + 1)});
      B.CreateStore(Shadow, ShadowSlot);
      continue;
    }
    // The frame holds the root's own copy of a byval struct (emitRootFrame);
    // its pointer fields' shadows are those of the caller's shadow object
    // (null for a const argument), its adjoints start at zero.
    Type *Ty = H.ArgTypes[K];
    B.CreateMemSet(ShadowSlot, B.getInt8(0),
                   Root.getDataLayout().getTypeAllocSize(Ty), MaybeAlign());
    if (R.Sig.Args[K] == ArgActivity::Dup) {
      emitCopyPointerShadows(B, Ty, ShadowSlot, Shadow);
      DupByVal.push_back({static_cast<unsigned>(K), Shadow});
    }
  }
  B.CreateCall(ABI.runCheckpointed(),
               {checkpointedEntry(Root, seededResult(R.Sig)), Frame});
  D.unbindShadowGlobals(B, SB);
  // The copy's adjoints belong to the caller's shadow object.
  for (auto [K, Shadow] : DupByVal)
    emitReturnCopyAdjoints(B, ABI, H.ArgTypes[K], Shadow,
                           Slot(Adjoints, H.ArgOffsets[K]));

  // The adjoints of the out arguments are what the stages left in their
  // slots (the driver zeroed the frame's adjoints first).
  StructType *ResultTy = reverseResultType(Root.getFunctionType(), R.Sig.Args);
  Value *Result = PoisonValue::get(ResultTy);
  unsigned Field = 0;
  for (auto [K, Arg] : enumerate(R.Args)) {
    if (R.Sig.Args[K] != ArgActivity::Out)
      continue;
    Value *Adjoint = Slot(Adjoints, H.ArgOffsets[K]);
    Type *Ty = Arg->getType();
    Result = B.CreateInsertValue(Result, B.CreateLoad(Ty, Adjoint), Field++);
  }
  // The driver ends by running the root from its start once more, which
  // leaves its result in the frame.
  Value *Primal = R.ReturnPrimal ? B.CreateLoad(Root.getReturnType(),
                                                Slot(Frame, H.ResultOffset))
                                 : nullptr;
  return reverseMarkerResult(B, R, Primal, Result);
}

} // namespace capsule
