//===- RuntimeABI.cpp - Runtime entry points used by generated code -------===//
#include "Support/RuntimeABI.h"

#include "Support/Lanes.h"

#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

enum TapeField { TopField = 0, ChunkEndField = 1, ChunkBeginField = 2 };

RuntimeABI::RuntimeABI(Module &M) : M(M) {
  LLVMContext &C = M.getContext();
  PointerType *Ptr = PointerType::getUnqual(C);
  TapeTy = StructType::get(C, {Ptr, Ptr, Ptr});
  useTape(TapeLevel::Inner);
}

void RuntimeABI::useTape(TapeLevel L) {
  Level = L;
  Tape = threadLocal(L == TapeLevel::Outer ? "__capsule_outer_tape"
                                           : "__capsule_tape",
                     TapeTy);
}

FunctionCallee RuntimeABI::onTape(StringRef Name, Type *Ret,
                                  ArrayRef<Type *> Params) {
  assert(Name.starts_with("__capsule_") && "not a runtime function");
  if (Level == TapeLevel::Inner)
    return function(Name, Ret, Params);
  return function(("__capsule_outer_" + Name.drop_front(10)).str(), Ret,
                  Params);
}

FunctionCallee RuntimeABI::function(StringRef Name, Type *Ret,
                                    ArrayRef<Type *> Params) {
  FunctionCallee Callee =
      M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
  if (auto *F = dyn_cast<Function>(Callee.getCallee()))
    F->addFnAttr(Attribute::NoUnwind);
  return Callee;
}

Value *RuntimeABI::tapeField(IRBuilder<> &B, unsigned Index) {
  Value *TLS = B.CreateThreadLocalAddress(Tape);
  return B.CreateStructGEP(TapeTy, TLS, Index);
}

/// Emits `TakeSlow ? Slow(Bytes) : Fast()` where the runtime call is the
/// rare case (the branch weights tell the optimizer), and leaves \p B after
/// the join; returns the record address from either side.
Value *RuntimeABI::emitRareSlowPath(IRBuilder<> &B, Value *TakeSlow,
                                    StringRef SlowName, uint64_t Bytes,
                                    function_ref<Value *(IRBuilder<> &)> Fast,
                                    const Twine &Label) {
  LLVMContext &C = B.getContext();
  Type *Ptr = B.getPtrTy();
  BasicBlock *Here = B.GetInsertBlock();
  BasicBlock *Next =
      Here->splitBasicBlock(B.GetInsertPoint(), "tape." + Label + ".join");
  BasicBlock *SlowBB =
      BasicBlock::Create(C, "tape." + Label + ".slow", Here->getParent(), Next);
  BasicBlock *FastBB =
      BasicBlock::Create(C, "tape." + Label + ".fast", Here->getParent(), Next);
  Here->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Here);
  B.CreateCondBr(TakeSlow, SlowBB, FastBB,
                 MDBuilder(C).createBranchWeights(1, 1 << 20));

  B.SetInsertPoint(SlowBB);
  Value *SlowRec = B.CreateCall(onTape(SlowName, Ptr, {B.getInt64Ty()}),
                                {B.getInt64(Bytes)});
  B.CreateBr(Next);

  B.SetInsertPoint(FastBB);
  Value *FastRec = Fast(B);
  B.CreateBr(Next);

  B.SetInsertPoint(Next, Next->begin());
  PHINode *Rec = B.CreatePHI(Ptr, 2, "tape.rec");
  Rec->addIncoming(SlowRec, SlowBB);
  Rec->addIncoming(FastRec, FastBB);
  return Rec;
}

/// Tags the branch to the slow path of the push or pop whose record is
/// \p Rec with !{i64 Bytes} of metadata kind \p Kind, for
/// LoopTapeReservation, which gives a loop's pushes or pops one check.
static void tagSlowPathBranch(PHINode &Rec, StringRef Kind, uint64_t Bytes) {
  LLVMContext &C = Rec.getContext();
  BasicBlock *Slow = Rec.getIncomingBlock(0);
  Slow->getSinglePredecessor()->getTerminator()->setMetadata(
      Kind, MDNode::get(C, ConstantAsMetadata::get(
                               ConstantInt::get(Type::getInt64Ty(C), Bytes))));
}

Value *RuntimeABI::emitTapePush(IRBuilder<> &B, uint64_t Bytes) {
  Type *Ptr = B.getPtrTy();
  Value *TopAddr = tapeField(B, TopField);
  Value *Top = B.CreateLoad(Ptr, TopAddr, "tape.top");
  Value *End = B.CreateLoad(Ptr, tapeField(B, ChunkEndField), "tape.end");
  Value *Room = B.CreatePtrDiff(B.getInt8Ty(), End, Top);
  Value *Full = B.CreateICmpSLT(Room, B.getInt64(Bytes));
  auto *Rec = cast<PHINode>(emitRareSlowPath(
      B, Full, "__capsule_tape_push_slow", Bytes,
      [&](IRBuilder<> &FB) {
        FB.CreateStore(
            FB.CreateConstInBoundsGEP1_64(FB.getInt8Ty(), Top, Bytes), TopAddr);
        return Top;
      },
      "push"));
  tagSlowPathBranch(*Rec, TapePushKind, Bytes);
  return Rec;
}

Value *RuntimeABI::emitTapePop(IRBuilder<> &B, uint64_t Bytes) {
  Type *Ptr = B.getPtrTy();
  Value *TopAddr = tapeField(B, TopField);
  Value *Top = B.CreateLoad(Ptr, TopAddr, "tape.top");
  Value *Begin = B.CreateLoad(Ptr, tapeField(B, ChunkBeginField), "tape.begin");
  Value *Empty = B.CreateICmpEQ(Top, Begin);
  auto *Rec = cast<PHINode>(emitRareSlowPath(
      B, Empty, "__capsule_tape_pop_slow", Bytes,
      [&](IRBuilder<> &FB) {
        Value *Rec = FB.CreateConstInBoundsGEP1_64(
            FB.getInt8Ty(), Top, -static_cast<int64_t>(Bytes));
        FB.CreateStore(Rec, TopAddr);
        return Rec;
      },
      "pop"));
  tagSlowPathBranch(*Rec, TapePopKind, Bytes);
  return Rec;
}

FunctionCallee RuntimeABI::gradientBegin() {
  return onTape("__capsule_gradient_begin", Type::getVoidTy(M.getContext()),
                {});
}
FunctionCallee RuntimeABI::gradientForwardDone() {
  return onTape("__capsule_gradient_forward_done",
                Type::getVoidTy(M.getContext()), {});
}
FunctionCallee RuntimeABI::gradientEnd() {
  return onTape("__capsule_gradient_end", Type::getVoidTy(M.getContext()), {});
}

FunctionCallee RuntimeABI::gradientKeepGlobals() {
  LLVMContext &C = M.getContext();
  return function("__capsule_gradient_keep_globals", Type::getVoidTy(C),
                  {PointerType::getUnqual(C), Type::getInt64Ty(C)});
}

static StringRef elementSuffix(Type *ElementTy) {
  return ElementTy->isFloatTy() ? "f32" : "f64";
}

FunctionCallee RuntimeABI::copyAdjoint(Type *ElementTy, bool SharedSource) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function((Twine("__capsule_copy_adjoint_") +
                   (SharedSource ? "shared_" : "") + elementSuffix(ElementTy))
                      .str(),
                  Type::getVoidTy(C), {Ptr, Ptr, Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::unknownCallTarget() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionCallee Callee =
      function("__capsule_unknown_call_target", Type::getVoidTy(C), {Ptr, Ptr});
  cast<Function>(Callee.getCallee())->setDoesNotReturn();
  return Callee;
}

FunctionCallee RuntimeABI::shadowAlloc() {
  LLVMContext &C = M.getContext();
  return function("__capsule_shadow_alloc", PointerType::getUnqual(C),
                  {Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::shadowRealloc() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_shadow_realloc", Ptr, {Ptr, Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::reallocAdjoint(Type *ElementTy) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function(
      ("__capsule_realloc_adjoint_" + elementSuffix(ElementTy)).str(),
      Type::getVoidTy(C), {Ptr, Ptr});
}

FunctionCallee RuntimeABI::onShadow(StringRef Name) {
  LLVMContext &C = M.getContext();
  return function(Name, Type::getVoidTy(C), {PointerType::getUnqual(C)});
}

FunctionCallee RuntimeABI::splitBegin() {
  Type *Ptr = PointerType::getUnqual(M.getContext());
  return function("__capsule_split_begin", Ptr, {Ptr});
}
FunctionCallee RuntimeABI::splitKeepGlobals() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_split_keep_globals", Type::getVoidTy(C),
                  {Ptr, Ptr, Type::getInt64Ty(C)});
}
FunctionCallee RuntimeABI::splitForwardDone() {
  Type *Ptr = PointerType::getUnqual(M.getContext());
  return function("__capsule_split_forward_done", Ptr, {Ptr});
}
FunctionCallee RuntimeABI::splitReverseBegin() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_split_reverse_begin", Type::getVoidTy(C),
                  {Ptr, Ptr});
}
FunctionCallee RuntimeABI::splitEnd() {
  LLVMContext &C = M.getContext();
  return function("__capsule_split_end", Type::getVoidTy(C),
                  {PointerType::getUnqual(C)});
}
FunctionCallee RuntimeABI::splitCheckBytes() {
  LLVMContext &C = M.getContext();
  return function("__capsule_split_check_bytes", Type::getVoidTy(C),
                  {Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::ompRegionBegin() {
  return function("__capsule_omp_region_begin",
                  PointerType::getUnqual(M.getContext()), {});
}
FunctionCallee RuntimeABI::ompRegionStep(StringRef Step) {
  return onShadow(("__capsule_omp_" + Step).str());
}
FunctionCallee RuntimeABI::ompTeamBegin() {
  return function("__capsule_omp_team_begin", Type::getInt64Ty(M.getContext()),
                  {});
}
FunctionCallee RuntimeABI::ompTeamStep(StringRef Step) {
  LLVMContext &C = M.getContext();
  return function(("__capsule_omp_" + Step).str(), Type::getVoidTy(C),
                  {Type::getInt64Ty(C)});
}
FunctionCallee RuntimeABI::ompReverseCritical(bool Enter) {
  LLVMContext &C = M.getContext();
  return function(Enter ? "__capsule_omp_reverse_enter_critical"
                        : "__capsule_omp_reverse_exit_critical",
                  Type::getVoidTy(C),
                  {PointerType::getUnqual(C), Type::getInt64Ty(C)});
}
FunctionCallee RuntimeABI::ompReverseBarrier() {
  return function("__capsule_omp_reverse_barrier",
                  Type::getVoidTy(M.getContext()), {});
}

FunctionCallee RuntimeABI::deferFree() {
  LLVMContext &C = M.getContext();
  return onTape("__capsule_defer_free", Type::getVoidTy(C),
                {PointerType::getUnqual(C)});
}

FunctionCallee RuntimeABI::shadowNoteFree() {
  return onShadow("__capsule_shadow_note_free");
}

FunctionCallee RuntimeABI::shadowRelease() {
  return onShadow("__capsule_shadow_release");
}

FunctionCallee RuntimeABI::shadowFree() {
  return onShadow("__capsule_shadow_free");
}

FunctionCallee RuntimeABI::scratchShadowAlloc() {
  LLVMContext &C = M.getContext();
  return function("__capsule_scratch_shadow_alloc", PointerType::getUnqual(C),
                  {Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::scratchShadowFree() {
  return onShadow("__capsule_scratch_shadow_free");
}

GlobalVariable *RuntimeABI::threadLocal(StringRef Name, Type *Ty) {
  if (GlobalVariable *G = M.getGlobalVariable(Name))
    return G;
  return new GlobalVariable(M, Ty, /*isConstant=*/false,
                            GlobalValue::ExternalLinkage, nullptr, Name,
                            nullptr, GlobalValue::InitialExecTLSModel);
}

Value *RuntimeABI::budgetAddress(IRBuilder<> &B) {
  return B.CreateThreadLocalAddress(
      threadLocal("__capsule_budget", B.getInt64Ty()));
}

Value *RuntimeABI::journalDepthAddress(IRBuilder<> &B) {
  return B.CreateThreadLocalAddress(
      threadLocal("__capsule_journal_depth", B.getInt32Ty()));
}

Value *RuntimeABI::frameLimitAddress(IRBuilder<> &B) {
  return B.CreateThreadLocalAddress(
      threadLocal("__capsule_frame_limit", B.getPtrTy()));
}

Value *RuntimeABI::journalFilterAddress(IRBuilder<> &B) {
  return B.CreateThreadLocalAddress(
      threadLocal("__capsule_journal_filter",
                  ArrayType::get(B.getInt64Ty(), JournalFilterSlots)));
}

/// Saving memory for the journal only reads the memory it is given (the old
/// contents it saves) and the runtime's own state, so the optimizer may keep
/// the step budget and other values in registers across it.
static FunctionCallee savesOnlyArgMemory(FunctionCallee Callee) {
  auto *F = cast<Function>(Callee.getCallee());
  F->setMemoryEffects(MemoryEffects::argMemOnly(ModRefInfo::Ref) |
                      MemoryEffects::inaccessibleMemOnly());
  F->addFnAttr(Attribute::WillReturn);
  return Callee;
}

FunctionCallee RuntimeABI::journalWrite() {
  LLVMContext &C = M.getContext();
  return savesOnlyArgMemory(
      function("__capsule_journal_write", Type::getVoidTy(C),
               {PointerType::getUnqual(C), Type::getInt64Ty(C)}));
}

FunctionCallee RuntimeABI::journalBarrier() {
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  return savesOnlyArgMemory(function(JournalBarrierName, Type::getVoidTy(C),
                                     {PointerType::getUnqual(C), I64, I64}));
}

FunctionCallee RuntimeABI::frameGrow() {
  LLVMContext &C = M.getContext();
  return function("__capsule_frame_grow", Type::getVoidTy(C),
                  {PointerType::getUnqual(C)});
}

FunctionCallee RuntimeABI::arenaFunction(CalleeKind Kind) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *I64 = Type::getInt64Ty(C);
  switch (Kind) {
  case CalleeKind::Alloc:
    return function("__capsule_malloc", Ptr, {I64});
  case CalleeKind::Calloc:
    return function("__capsule_calloc", Ptr, {I64, I64});
  case CalleeKind::AlignedAlloc:
    return function("__capsule_aligned_alloc", Ptr, {I64, I64});
  case CalleeKind::Realloc:
    return function("__capsule_realloc", Ptr, {Ptr, I64});
  case CalleeKind::Free:
    return function("__capsule_free", Type::getVoidTy(C), {Ptr});
  default:
    llvm_unreachable("not an allocation function");
  }
}

StructType *RuntimeABI::entryType() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *I64 = Type::getInt64Ty(C);
  return StructType::get(C, {Ptr, I64, I64, I64, Ptr});
}

FunctionCallee RuntimeABI::replayPending() {
  return function("__capsule_replay_pending", Type::getInt8Ty(M.getContext()),
                  {});
}
/// The replay log's entry points come in i64, f64 and f32 flavours.
static std::pair<StringRef, Type *> replayFlavour(Type *T) {
  if (T->isDoubleTy())
    return {"_f64", T};
  if (T->isFloatTy())
    return {"_f32", T};
  return {"", Type::getInt64Ty(T->getContext())};
}

FunctionCallee RuntimeABI::replayTake(Type *T) {
  auto [Suffix, Ty] = replayFlavour(T);
  return function(("__capsule_replay_take" + Suffix).str(), Ty, {});
}
FunctionCallee RuntimeABI::replayTakeBytes() {
  LLVMContext &C = M.getContext();
  return function("__capsule_replay_take_bytes", Type::getVoidTy(C),
                  {PointerType::getUnqual(C), Type::getInt64Ty(C)});
}
FunctionCallee RuntimeABI::replayWillWrite() {
  LLVMContext &C = M.getContext();
  return function("__capsule_replay_will_write", Type::getVoidTy(C),
                  {PointerType::getUnqual(C), Type::getInt64Ty(C)});
}
FunctionCallee RuntimeABI::replayRecord(Type *T) {
  auto [Suffix, Ty] = replayFlavour(T);
  return function(("__capsule_replay_record" + Suffix).str(),
                  Type::getVoidTy(M.getContext()), {Ty});
}
FunctionCallee RuntimeABI::replayRecordBytes() {
  LLVMContext &C = M.getContext();
  return function("__capsule_replay_record_bytes", Type::getVoidTy(C),
                  {PointerType::getUnqual(C), Type::getInt64Ty(C)});
}

StructType *RuntimeABI::shadowGlobalType() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  return StructType::get(C, {Ptr, Ptr, I64, Ptr, Ptr, I64});
}

FunctionCallee RuntimeABI::bindShadowGlobals() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  return function("__capsule_bind_shadow_globals", Type::getVoidTy(C),
                  {Ptr, I64, Ptr, Ptr, Ptr, I64});
}

FunctionCallee RuntimeABI::checkNestedDupArgs() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  return function("__capsule_check_nested_dup_args", Type::getVoidTy(C),
                  {Ptr, I64, Ptr, I64});
}

FunctionCallee RuntimeABI::unbindShadowGlobals() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C), *I64 = Type::getInt64Ty(C);
  return function("__capsule_unbind_shadow_globals", Type::getVoidTy(C),
                  {Ptr, I64, Ptr, Ptr, I64});
}

FunctionCallee RuntimeABI::sinkOf() {
  Type *Ptr = PointerType::getUnqual(M.getContext());
  return function("__capsule_sink_of", Ptr, {Ptr});
}

FunctionCallee RuntimeABI::blasKeepTapes() {
  LLVMContext &C = M.getContext();
  return function("__capsule_blas_keep_tapes", Type::getVoidTy(C),
                  {Type::getInt32Ty(C)});
}

FunctionCallee RuntimeABI::sinkFill() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_sink_fill", Type::getVoidTy(C),
                  {Ptr, Ptr, Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::tangentBegin() {
  return function("__capsule_tangent_begin", Type::getVoidTy(M.getContext()),
                  {});
}

FunctionCallee RuntimeABI::checkpointedTangent() {
  return M.getOrInsertFunction(
      "__capsule_checkpointed_tangent",
      FunctionType::get(Type::getVoidTy(M.getContext()), {}, true));
}

FunctionCallee RuntimeABI::tangentSinkOf(SinkLevel L) {
  Type *Ptr = PointerType::getUnqual(M.getContext());
  const char *Name = L == SinkLevel::Own ? "__capsule_tangent_sink_of"
                     : L == SinkLevel::Nested
                         ? "__capsule_tangent_nested_sink_of"
                         : "__capsule_tangent_sink_twin";
  return function(Name, Ptr, {Ptr});
}

FunctionCallee RuntimeABI::tangentSinkFill(SinkLevel L) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  const char *Name = L == SinkLevel::Own ? "__capsule_tangent_sink_fill"
                     : L == SinkLevel::Nested
                         ? "__capsule_tangent_nested_sink_fill"
                         : "__capsule_tangent_sink_fill_twin";
  return function(Name, Type::getVoidTy(C), {Ptr, Ptr, Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::tangentOfLoadedPointer() {
  Type *Ptr = PointerType::getUnqual(M.getContext());
  return function("__capsule_tangent_of_loaded_pointer", Ptr, {Ptr, Ptr});
}

FunctionCallee RuntimeABI::tangentLaneSinkOf() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_tangent_lane_sink_of", Ptr,
                  {Ptr, Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::tangentLaneSinkFill() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *I64 = Type::getInt64Ty(C);
  return function("__capsule_tangent_lane_sink_fill", Type::getVoidTy(C),
                  {Ptr, Ptr, I64, I64});
}

FunctionCallee RuntimeABI::tangentAlloc() {
  LLVMContext &C = M.getContext();
  return function("__capsule_tangent_alloc", PointerType::getUnqual(C),
                  {Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::tangentRealloc() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_tangent_realloc", Ptr, {Ptr, Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::tangentArenaFree() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_tangent_arena_free", Type::getVoidTy(C), {Ptr});
}

FunctionCallee RuntimeABI::tangentFree() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_tangent_free", Type::getVoidTy(C), {Ptr});
}

Constant *RuntimeABI::tangentTape(unsigned Lane) {
  if (!Lane)
    return threadLocal("__capsule_tangent_tape", TapeTy);
  auto *Lanes = ArrayType::get(TapeTy, MaxLanes);
  return ConstantExpr::getInBoundsGetElementPtr(
      Lanes, threadLocal("__capsule_tangent_tape_lanes", Lanes),
      ArrayRef<Constant *>{
          ConstantInt::get(Type::getInt64Ty(M.getContext()), 0),
          ConstantInt::get(Type::getInt64Ty(M.getContext()), Lane)});
}

FunctionCallee RuntimeABI::tangentTapeMirror() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_tangent_tape_lane_mirror", Ptr,
                  {Ptr, Type::getInt64Ty(C)});
}

GlobalVariable *RuntimeABI::adjointTape() {
  return threadLocal("__capsule_adjoint_tape", TapeTy);
}

FunctionCallee RuntimeABI::adjointTapeMirror() {
  Type *Ptr = PointerType::getUnqual(M.getContext());
  return function("__capsule_adjoint_tape_mirror", Ptr, {Ptr});
}

FunctionCallee RuntimeABI::reallocCopyPrefix() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_realloc_copy_prefix", Type::getVoidTy(C),
                  {Ptr, Ptr});
}

FunctionCallee RuntimeABI::adjointOfSinkPlace() {
  Type *Ptr = PointerType::getUnqual(M.getContext());
  return function("__capsule_adjoint_of_sink_place", Ptr, {Ptr});
}

FunctionCallee RuntimeABI::adjointSinkFillPlaces() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_adjoint_sink_fill_places", Type::getVoidTy(C),
                  {Ptr, Ptr, Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::adjointTapeClear() {
  return function("__capsule_adjoint_tape_clear",
                  Type::getVoidTy(M.getContext()), {});
}

FunctionCallee RuntimeABI::tangentOfSinkPlace() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_tangent_lane_of_sink_place", Ptr,
                  {Ptr, Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::tangentSinkFillPlaces() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *I64 = Type::getInt64Ty(C);
  return function("__capsule_tangent_lane_sink_fill_places", Type::getVoidTy(C),
                  {Ptr, Ptr, I64, I64});
}

FunctionCallee RuntimeABI::deferTangentFree() {
  return onShadow("__capsule_defer_tangent_free");
}

FunctionCallee RuntimeABI::rootFrame() {
  Type *Ptr = PointerType::getUnqual(M.getContext());
  return function("__capsule_root_frame", Ptr, {Ptr});
}

FunctionCallee RuntimeABI::runPrimops() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_run_primops", Type::getInt64Ty(C), {Ptr, Ptr});
}

FunctionCallee RuntimeABI::runInterrupt() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_run_interrupt", Ptr,
                  {Ptr, Ptr, Type::getInt64Ty(C)});
}

GlobalVariable *RuntimeABI::external(StringRef Name, Type *Ty) {
  if (GlobalVariable *G = M.getGlobalVariable(Name))
    return G;
  return new GlobalVariable(M, Ty, /*isConstant=*/false,
                            GlobalValue::ExternalLinkage, nullptr, Name);
}

Value *RuntimeABI::loadRegionBase(IRBuilder<> &B) {
  Value *Address = B.CreateThreadLocalAddress(
      threadLocal("__capsule_region_base", B.getPtrTy()));
  return B.CreateLoad(B.getPtrTy(), Address, "region.base");
}

Value *RuntimeABI::loadRegionSpan(IRBuilder<> &B) {
  return B.CreateLoad(B.getInt64Ty(),
                      external("__capsule_region_span", B.getInt64Ty()),
                      "region.span");
}

Value *RuntimeABI::loadSinkBase(IRBuilder<> &B) {
  return B.CreateLoad(
      B.getPtrTy(), external("__capsule_sink_base", B.getPtrTy()), "sink.base");
}

FunctionCallee RuntimeABI::copyPointerShadows() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_copy_pointer_shadows", Type::getVoidTy(C),
                  {Ptr, Ptr, Ptr, Ptr, Type::getInt64Ty(C)});
}

FunctionCallee RuntimeABI::tangentArenaUsableSize() {
  LLVMContext &C = M.getContext();
  return function("__capsule_tangent_arena_usable_size", Type::getInt64Ty(C),
                  {PointerType::getUnqual(C)});
}

FunctionCallee RuntimeABI::arenaUsableSize() {
  LLVMContext &C = M.getContext();
  return function("__capsule_arena_usable_size", Type::getInt64Ty(C),
                  {PointerType::getUnqual(C)});
}

StructType *RuntimeABI::checkpointedEntryType() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  Type *I32 = Type::getInt32Ty(C);
  return StructType::get(C, {Ptr, Ptr, Ptr, Ptr, I32, I32});
}

FunctionCallee RuntimeABI::checkCheckpointedShadow() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  return function("__capsule_check_checkpointed_shadow", Type::getVoidTy(C),
                  {Ptr, Ptr, Type::getInt32Ty(C)});
}

FunctionCallee RuntimeABI::runCheckpointed() {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  // Not nounwind, unlike the other runtime functions: the driver runs the
  // program's code, whose exceptions pass through it (and leave the
  // computation abandoned: docs/checkpointing.md).
  return M.getOrInsertFunction(
      "__capsule_run_checkpointed",
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr}, false));
}

} // namespace capsule
