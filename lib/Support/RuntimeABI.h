//===- RuntimeABI.h - Runtime entry points of generated code ----*- C++ -*-===//
//
// The pass-side mirror of runtime/abi.h: declares the runtime's globals and
// functions in the module being transformed and emits the inline tape fast
// paths. Change both files together.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIMEABI_H
#define CAPSULE_RUNTIMEABI_H

#include "Analysis/CallClassifier.h"

#include "llvm/IR/IRBuilder.h"

namespace capsule {

/// The alignment an access to shadow or tangent memory may assume, given
/// the primal access's: a double's. A shadow lies at the primal's offset
/// from its own block or slot, and the two need not agree modulo 16: a
/// stack object aligned to 8 (Eigen's LLT<Matrix3d>) and its tangent slot,
/// a dup argument and the shadow the program passes. Code that peels a
/// loop to the primal's 16-byte boundary (Eigen's packets) then accesses
/// the shadow with an aligned SSE load that faults; 8 keeps x86 code to
/// loads that do not require alignment.
inline llvm::Align shadowAlign(llvm::Align Primal) {
  return std::min(Primal, llvm::Align(8));
}

/// CAPSULE_SINK_MASK of runtime/abi.h: the sink holds the adjoints of the
/// byte at address p at sink base + (p & SinkMask).
inline constexpr uint64_t SinkMask = (uint64_t(1) << 38) - 1;
/// SinkBytes of runtime/RuntimeRegion.h: the sink's extent, a margin past
/// the mask for objects near its top.
inline constexpr uint64_t SinkBytes = SinkMask + 1 + (uint64_t(1) << 34);

/// CAPSULE_JOURNAL_FILTER_SLOTS of runtime/abi.h.
inline constexpr uint64_t JournalFilterSlots = 2048;

/// The pseudo-function of journal barriers (JournalBarriers.h).
inline constexpr const char *JournalBarrierName = "__capsule_journal_barrier";

/// The metadata kind emitTapePush puts on the branch of an inline push to
/// its slow path (the tape is full): !{i64 Bytes}, for LoopTapeReservation.
inline constexpr const char *TapePushKind = "capsule.tape.push";
/// The same for emitTapePop's branch to its slow path (the chunk is empty).
inline constexpr const char *TapePopKind = "capsule.tape.pop";

/// Which of a thread's two tapes generated code pushes its records on
/// (runtime/Tape.h): the outer one serves the derivatives that
/// differentiate a gradient in reverse mode, whose records would otherwise
/// interleave with the inner gradient's.
enum class TapeLevel { Inner, Outer };

class RuntimeABI {
public:
  explicit RuntimeABI(llvm::Module &M);

  /// The tape that the tape functions below (header, pushes and pops, the
  /// brackets of a gradient call, postponed frees) use from now on.
  void useTape(TapeLevel L);
  /// The header of the tape in use (an initial-exec TLS global).
  llvm::GlobalVariable *tapeHeader() const { return Tape; }

  /// The address of field \p Index of this thread's tape header.
  llvm::Value *tapeField(llvm::IRBuilder<> &B, unsigned Index);
  /// Reserves \p Bytes on the tape; returns the address of the record.
  llvm::Value *emitTapePush(llvm::IRBuilder<> &B, uint64_t Bytes);
  /// Pops \p Bytes off the tape; returns the address of the record.
  llvm::Value *emitTapePop(llvm::IRBuilder<> &B, uint64_t Bytes);

  llvm::FunctionCallee gradientBegin();
  llvm::FunctionCallee gradientForwardDone();
  llvm::FunctionCallee gradientEnd();
  /// void (ptr table, i64 n): what an enclosing gradient call has in the
  /// shadow globals, saved by a call inside it.
  llvm::FunctionCallee gradientKeepGlobals();
  /// Split mode (abi.h): ptr (ptr rev), void (ptr split, ptr table, i64 n),
  /// ptr (ptr split), void (ptr split, ptr rev), void (ptr split), void (i64
  /// bytes).
  llvm::FunctionCallee splitBegin();
  llvm::FunctionCallee splitKeepGlobals();
  llvm::FunctionCallee splitForwardDone();
  llvm::FunctionCallee splitReverseBegin();
  llvm::FunctionCallee splitEnd();
  llvm::FunctionCallee splitCheckBytes();
  /// OpenMP parallel regions (abi.h): ptr () for region_begin, void (ptr
  /// region) for the region's other steps ("forward_enter", ...).
  llvm::FunctionCallee ompRegionBegin();
  llvm::FunctionCallee ompRegionStep(llvm::StringRef Step);
  /// Parallel regions of interruptible code (abi.h): i64 () for
  /// team_begin, void (i64 team) for the team's other steps ("team_enter",
  /// "team_leave", "team_end").
  llvm::FunctionCallee ompTeamBegin();
  llvm::FunctionCallee ompTeamStep(llvm::StringRef Step);
  /// The reverses of a region's synchronisation: void (ptr lock, i64
  /// ticket) to enter or leave a critical section, void () for a barrier.
  llvm::FunctionCallee ompReverseCritical(bool Enter);
  llvm::FunctionCallee ompReverseBarrier();
  /// void (ptr block): free() postponed to the end of the gradient call.
  llvm::FunctionCallee deferFree();
  /// void (ptr dsrc, ptr ddst, i64 bytes), for f64 or f32 elements; with
  /// atomic additions to dsrc where other threads may add to it too.
  llvm::FunctionCallee copyAdjoint(llvm::Type *ElementTy,
                                   bool SharedSource = false);
  /// void (ptr target, ptr site) — never returns.
  llvm::FunctionCallee unknownCallTarget();
  /// ptr (i64 bytes): zeroed shadow of a heap allocation.
  llvm::FunctionCallee shadowAlloc();
  /// ptr (ptr old shadow, i64 bytes): shadow of realloc's result; copies the
  /// old shadow's contents.
  llvm::FunctionCallee shadowRealloc();
  /// void (ptr dold, ptr dnew): the adjoint of realloc's copy of f64/f32
  /// elements (the runtime knows both shadows' sizes).
  llvm::FunctionCallee reallocAdjoint(llvm::Type *ElementTy);
  /// void (ptr from, ptr to): the adjoint of reallocAdjoint() (reverse mode
  /// over a gradient), the copy of the prefix both shadows hold.
  llvm::FunctionCallee reallocCopyPrefix();
  /// void (ptr shadow): the primal was freed; the shadow goes when the
  /// reverse sweep passes its allocation.
  llvm::FunctionCallee shadowNoteFree();
  /// void (ptr shadow): the reverse sweep passed the allocation.
  llvm::FunctionCallee shadowRelease();
  /// void (ptr shadow): frees the shadow of a stack slot.
  llvm::FunctionCallee shadowFree();
  /// The same two for the stack slots and byval copies of checkpointed
  /// code, whose shadows the journal must not save.
  llvm::FunctionCallee scratchShadowAlloc();
  llvm::FunctionCallee scratchShadowFree();

  // Interruptible execution (the second half of runtime/abi.h).

  /// The thread's step budget (i64, initial-exec TLS).
  llvm::Value *budgetAddress(llvm::IRBuilder<> &B);
  /// The number of live snapshots (i32, initial-exec TLS).
  llvm::Value *journalDepthAddress(llvm::IRBuilder<> &B);
  /// The end of the committed frame stack (ptr, initial-exec TLS).
  llvm::Value *frameLimitAddress(llvm::IRBuilder<> &B);
  /// The journal's filter of saved granules (i64 array, initial-exec TLS).
  llvm::Value *journalFilterAddress(llvm::IRBuilder<> &B);
  /// void (ptr addr, i64 bytes).
  llvm::FunctionCallee journalWrite();
  /// void (ptr addr, i64 bytes, i64 align): the pseudo-function of journal
  /// barriers, replaced by expandJournalBarriers().
  llvm::FunctionCallee journalBarrier();
  /// void (ptr end).
  llvm::FunctionCallee frameGrow();
  /// The deterministic allocator's replacement for an allocation function
  /// of kind \p Kind (Alloc, Calloc, AlignedAlloc, Realloc or Free), with
  /// the C function's parameters.
  llvm::FunctionCallee arenaFunction(CalleeKind Kind);
  /// The capsule_entry struct type: {ptr step, i64 frame_bytes, i64
  /// result_offset, i64 result_bytes, ptr name}.
  llvm::StructType *entryType();
  /// Replay of non-deterministic calls (abi.h; ReplayCalls.h).
  llvm::FunctionCallee replayPending();
  /// Of a result of type \p T: double, float, or an integer as i64.
  llvm::FunctionCallee replayTake(llvm::Type *T);
  llvm::FunctionCallee replayTakeBytes();
  llvm::FunctionCallee replayWillWrite();
  llvm::FunctionCallee replayRecord(llvm::Type *T);
  llvm::FunctionCallee replayRecordBytes();
  /// The capsule_shadow_global struct type: {ptr global, ptr shadow, i64
  /// bytes, ptr name, ptr pointer_offsets, i64 pointer_count}.
  llvm::StructType *shadowGlobalType();
  /// void (ptr table, i64 n, ptr args, ptr user_shadows, ptr shadows, i64
  /// count) and void (ptr table, i64 n, ptr args, ptr user_shadows, i64
  /// count).
  llvm::FunctionCallee bindShadowGlobals();
  llvm::FunctionCallee unbindShadowGlobals();
  /// void (ptr table, i64 n, ptr args, i64 count).
  llvm::FunctionCallee checkNestedDupArgs();
  /// ptr (ptr): sink(p), the sink reserved on first use.
  llvm::FunctionCallee sinkOf();
  /// void (i32 keep): while keep, the BLAS rules' frees of their tapes are
  /// skipped (reverse vector mode runs a gradient rule once per lane).
  llvm::FunctionCallee blasKeepTapes();
  /// void (ptr shadow, ptr src, i64 bytes).
  llvm::FunctionCallee sinkFill();

  // Forward mode (the tangent section of runtime/abi.h).

  /// void (): starts a forward-mode call.
  llvm::FunctionCallee tangentBegin();
  /// void (...): stands, in a tangent function, for the checkpointed
  /// gradient of a tangent function (forward mode over a checkpointed
  /// gradient) until the marker pass lowers it; never reaches the runtime.
  llvm::FunctionCallee checkpointedTangent();
  /// Which tangent sink a place is in (nested forward mode: an inner call's
  /// places run inside an outer call are Nested, their tangents Twin).
  enum class SinkLevel { Own, Nested, Twin };
  /// ptr (ptr): the place of a pointer in the tangent sink; for Twin, the
  /// tangent of a place.
  llvm::FunctionCallee tangentSinkOf(SinkLevel L = SinkLevel::Own);
  /// void (ptr shadow, ptr src, i64 bytes): the same for each pointer slot.
  llvm::FunctionCallee tangentSinkFill(SinkLevel L = SinkLevel::Own);
  /// ptr (ptr, i64 lane): vector mode's tangentSinkOf() for one lane.
  llvm::FunctionCallee tangentLaneSinkOf();
  /// ptr (ptr slot, ptr p): the tangent of a pointer loaded with a null one.
  llvm::FunctionCallee tangentOfLoadedPointer();
  /// void (ptr shadow, ptr src, i64 bytes, i64 lane).
  llvm::FunctionCallee tangentLaneSinkFill();
  /// ptr (i64 bytes): a zeroed tangent block.
  llvm::FunctionCallee tangentAlloc();
  /// ptr (ptr old tangent block, i64 bytes).
  llvm::FunctionCallee tangentRealloc();
  /// void (ptr tangent block).
  llvm::FunctionCallee tangentFree();
  /// void (ptr tangent block): the same for an arena block (interruptible
  /// code allocates tangent blocks with __capsule_calloc).
  llvm::FunctionCallee tangentArenaFree();

  // Forward mode over a gradient (the last part of runtime/abi.h).

  /// The tape header's twin in lane \p Lane: the tangent tape (lane 0) or
  /// its lane in the tangent tapes of vector mode (initial-exec TLS).
  llvm::Constant *tangentTape(unsigned Lane);
  /// ptr (ptr record, i64 lane): after the tape changed chunks, the twin
  /// of record in the lane.
  llvm::FunctionCallee tangentTapeMirror();
  /// ptr (ptr place in the sink, i64 lane): its tangent in the lane.
  llvm::FunctionCallee tangentOfSinkPlace();

  // Reverse mode over a gradient (runtime/abi.h).

  /// The inner tape header's adjoint twin (initial-exec TLS).
  llvm::GlobalVariable *adjointTape();
  /// ptr (ptr record): after the inner tape changed chunks, the adjoint
  /// twin of record.
  llvm::FunctionCallee adjointTapeMirror();
  /// void (): zeroes what earlier inner calls' records wrote into the
  /// adjoint twins.
  llvm::FunctionCallee adjointTapeClear();
  /// ptr (ptr place in the sink): its adjoint.
  llvm::FunctionCallee adjointOfSinkPlace();
  /// void (ptr shadow, ptr src, i64 bytes): the outer shadow of sinkFill().
  llvm::FunctionCallee adjointSinkFillPlaces();
  /// void (ptr twin, ptr src, i64 bytes, i64 lane): the twin of sinkFill()
  /// in the lane.
  llvm::FunctionCallee tangentSinkFillPlaces();
  /// void (ptr tangent block): the twin of deferFree().
  llvm::FunctionCallee deferTangentFree();
  /// ptr (ptr entry).
  llvm::FunctionCallee rootFrame();
  /// i64 (ptr entry, ptr frame).
  llvm::FunctionCallee runPrimops();
  /// ptr (ptr entry, ptr frame, i64 limit).
  llvm::FunctionCallee runInterrupt();

  // Checkpointed gradients (the last part of runtime/abi.h).

  /// This thread's region of runtime memory: frame stack and arena (ptr,
  /// initial-exec TLS; loaded).
  llvm::Value *loadRegionBase(llvm::IRBuilder<> &B);
  /// The span of every thread's region: adjoints of runtime memory live one
  /// span above it, shadow pointers stored in it two spans above (i64,
  /// loaded).
  llvm::Value *loadRegionSpan(llvm::IRBuilder<> &B);
  /// The scratch adjoint space of memory without shadows (ptr, loaded).
  llvm::Value *loadSinkBase(llvm::IRBuilder<> &B);
  /// void (ptr dst, ptr dst shadow, ptr src, ptr src shadow, i64 bytes).
  llvm::FunctionCallee copyPointerShadows();
  /// i64 (ptr block).
  llvm::FunctionCallee arenaUsableSize();
  /// i64 (ptr tangent block): the same for a tangent block in the arena, 0
  /// for null and for places in the tangent sink.
  llvm::FunctionCallee tangentArenaUsableSize();
  /// The capsule_checkpointed_entry struct type: {ptr entry, ptr fwd, ptr
  /// rev, ptr untaped fwd, i32 result kind, i32 loop iterations}.
  llvm::StructType *checkpointedEntryType();
  /// void (ptr checkpointed entry, ptr frame).
  llvm::FunctionCallee runCheckpointed();
  /// void (ptr primal, ptr shadow, i32 arg)
  llvm::FunctionCallee checkCheckpointedShadow();

private:
  llvm::GlobalVariable *external(llvm::StringRef Name, llvm::Type *Ty);
  llvm::GlobalVariable *threadLocal(llvm::StringRef Name, llvm::Type *Ty);
  /// A `void (ptr shadow)` runtime function.
  llvm::FunctionCallee onShadow(llvm::StringRef Name);
  llvm::Value *
  emitRareSlowPath(llvm::IRBuilder<> &B, llvm::Value *TakeSlow,
                   llvm::StringRef SlowName, uint64_t Bytes,
                   llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &)> Fast,
                   const llvm::Twine &Label);
  llvm::FunctionCallee function(llvm::StringRef Name, llvm::Type *Ret,
                                llvm::ArrayRef<llvm::Type *> Params);

  /// The runtime function \p Name, or its outer tape's counterpart.
  llvm::FunctionCallee onTape(llvm::StringRef Name, llvm::Type *Ret,
                              llvm::ArrayRef<llvm::Type *> Params);

  llvm::Module &M;
  llvm::StructType *TapeTy;
  llvm::GlobalVariable *Tape;
  TapeLevel Level = TapeLevel::Inner;
};

} // namespace capsule

#endif
