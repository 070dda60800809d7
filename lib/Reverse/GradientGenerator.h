//===- GradientGenerator.h - Generates one derivative -----------*- C++ -*-===//
//
// Generates the bodies of the fwd and rev functions of one signature (see
// Differentiator.h) from the prepared clone of the primal.
//
// Tape records. Every basic block B of the primal that can reach the return
// owns one fixed-layout record: the primal values (and shadow pointers) that
// B's reverse code needs, plus the index of the predecessor B was entered
// from when B has several. The forward sweep pushes the record at the end of
// B; the reverse block of B pops it first. Calls inside B push their own
// records before B's, and their reverse sweeps pop them after B's, so the
// tape stays LIFO. The reverse sweep is generated first: what it asks for
// defines each record's layout, which the forward sweep then fills.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_GRADIENTGENERATOR_H
#define CAPSULE_GRADIENTGENERATOR_H

#include "Analysis/Activity.h"
#include "Analysis/CallClassifier.h"
#include "Analysis/Differentiability.h"
#include "Reverse/Differentiator.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <set>
#include <tuple>

namespace capsule {

class GradientGenerator {
public:
  GradientGenerator(Differentiator &D, const DiffSignature &Sig,
                    llvm::Function &Prepared, Derivative Target,
                    llvm::FunctionAnalysisManager &FAM);
  void run();

  /// Floating-point arithmetic worth redoing in the reverse sweep rather
  /// than taping its result (ReverseValues.cpp).
  static bool isCheapArithmetic(const llvm::Instruction &I);

private:
  // ---- Tape records (TapeRecords.cpp) ----
  /// What a record field holds about its value V.
  enum FieldKind : unsigned {
    PrimalField = 0, ///< V itself
    ShadowField = 1, ///< the shadow of pointer V
    /// the runtime's object for parallel region V (Support/ParallelRegions.h)
    RegionField = 2,
    /// + K: the shadow copy made for byval argument K of call V
    ByValShadowField = 3
  };
  struct Field {
    llvm::Value *V; ///< the primal value; null for the predecessor index
    unsigned Kind;  ///< a FieldKind
    llvm::Type *Ty;
    uint64_t Offset;
    llvm::LoadInst *Load; ///< where the reverse block reads it
  };
  struct Record {
    llvm::SmallVector<Field, 8> Fields;
    /// Keyed by (value, field kind).
    llvm::DenseMap<std::pair<llvm::Value *, unsigned>, llvm::Value *> Loaded;
    uint64_t Size = 0;
    llvm::Instruction *Base = nullptr; ///< placeholder for the popped address
    /// Placeholder ending the record's header: the field loads and whatever
    /// is recomputed from them go before it, so they dominate the whole
    /// reverse block.
    llvm::Instruction *HeaderEnd = nullptr;
  };
  llvm::Value *recordField(llvm::BasicBlock *BB, llvm::Value *V, unsigned Kind,
                           llvm::Type *Ty);
  void redoFieldsFromOthers();
  void layOutFields(Record &R);
  void emitPops();
  void emitPushes();

  // ---- Where the reverse sweep gets primal values (ReverseValues.cpp) ----
  /// The value of \p V (Kind PrimalField) or its shadow (ShadowField) for
  /// the block being reversed: a constant, recomputed from cheaper values,
  /// cached at the exits of a loop it is invariant in, or taped.
  llvm::Value *reverseValue(llvm::Value *V, unsigned Kind);
  bool isRecomputable(const llvm::Instruction &I, unsigned Kind) const;
  /// How many levels of arithmetic cheapToRedo and atHandInReverse look
  /// down.
  static constexpr unsigned RedoDepth = 4;
  bool atHandInReverse(llvm::Value *V, unsigned Depth);
  bool cheapToRedo(llvm::Instruction &I, unsigned Depth);
  llvm::Value *recompute(llvm::Instruction &I, unsigned Kind);
  llvm::Loop *hoistingLoop(llvm::BasicBlock *BB, llvm::Value *V) const;
  llvm::Value *hoistedValue(llvm::Loop *L, llvm::Value *V, unsigned Kind);

  /// A loop counter the reverse sweep runs backwards instead of taping it:
  /// Phi = phi [Start, preheader], [Phi + Step, latch], without wrapping.
  struct InductionVariable {
    llvm::PHINode *Phi;
    llvm::Value *Start;
    llvm::ConstantInt *Step;
    llvm::Loop *L;
  };
  void findInductionVariables();
  /// Records \p Phi as a sibling of a counter already found, if it is one.
  bool addSiblingCounter(llvm::PHINode &Phi);
  void findWriters();
  void findReloadableLoads();
  /// A load findReloadableLoads considers, with what it asks of every
  /// writer computed once.
  struct ReloadCandidate {
    const llvm::LoadInst *L;
    const llvm::Value *Object; ///< its underlying object
    llvm::MemoryLocation Loc;
    bool Fresh;   ///< Object is a postponableBlock
    bool Ordered; ///< writers that run before L are over by its reload
  };
  /// Whether the reverse sweep may reload \p C although \p Writer is there;
  /// sets \p Postpones when that takes postponing \p Writer, a free().
  bool writerSpares(const llvm::Instruction &Writer, const ReloadCandidate &C,
                    bool &Postpones);
  bool postponableBlock(const llvm::Value *Object) const;
  bool mayRunAfter(const llvm::Instruction &W, const llvm::LoadInst &L);
  bool mayWrite(const llvm::Instruction &W, const llvm::MemoryLocation &Loc,
                const llvm::Value *Object) const;
  bool stableObject(const llvm::Value *Object) const;
  /// The StableArgs a call site passes on to its callee's derivative.
  uint64_t stableArgsAt(const llvm::CallBase &Call) const;
  /// The signature of the callee's derivative a call site uses (the same in
  /// both sweeps).
  DiffSignature signatureAt(const llvm::CallBase &Call,
                            llvm::Function *Callee) const;
  const InductionVariable *inductionVariable(llvm::Value *V) const;

  // ---- Alias scopes of the reverse sweep (ShadowScopes.cpp) ----
  /// Records that \p Access reads or writes the shadow of the memory
  /// \p PrimalPtr points to (or the tape, for a null pointer).
  void noteMemoryAccess(llvm::Instruction *Access, llvm::Value *PrimalPtr);
  /// Tags the recorded accesses once every root is known.
  void emitAliasScopes();

  // ---- Reverse sweep (ReverseSweep.cpp) ----
  void buildReverse();
  void reverseBlock(llvm::BasicBlock *BB);
  void reverseInstruction(llvm::Instruction &I);
  void checkUntrackedAccess(llvm::Instruction &I);
  void checkHandedPointer(llvm::Instruction &Where, llvm::Value *V);
  void checkHandedInteger(llvm::Instruction &Where, llvm::Value *V);
  void reverseLoad(llvm::LoadInst &LI);
  void reverseStore(llvm::StoreInst &SI);
  void reverseAtomicAccumulation(llvm::AtomicRMWInst &RMW);
  void reverseIntegerStore(llvm::StoreInst &SI);
  void reverseCall(llvm::CallBase &Call);
  void reverseMath(llvm::CallBase &Call, MathOp Op);
  void reverseComplexMath(llvm::CallBase &Call, MathOp Op);
  void reverseDifferentiatedCall(llvm::CallBase &Call);
  llvm::Value *reallocShadow(llvm::IRBuilder<> &B, llvm::CallBase &Call,
                             llvm::Value *Old, llvm::Value *Bytes);
  void reverseNestedRuntime(llvm::CallBase &Call, NestedRuntime Kind);
  void reverseReallocCopy(llvm::CallBase &Call);
  void reverseCopyAdjoint(llvm::CallBase &Call);
  void reverseMemTransfer(llvm::CallBase &Call);
  void reverseLibraryOutputs(llvm::CallBase &Call);
  void reverseRealloc(llvm::CallBase &Call);
  void reverseArenaAllocation(llvm::CallBase &Call, CalleeKind Kind);
  void reverseArithmetic(llvm::Instruction &I);
  void reverseAggregate(llvm::Instruction &I);
  void branchToPredecessors(llvm::BasicBlock *BB);
  /// The primal value of \p V in the reverse sweep (taped if needed).
  llvm::Value *primal(llvm::Value *V);
  /// The shadow of pointer \p V in the reverse sweep (taped).
  llvm::Value *shadow(llvm::Value *V);
  llvm::Value *takeAdjoint(llvm::Value *V);
  void addAdjoint(llvm::Value *V, llvm::Value *D);
  /// shadow[PrimalPtr] += D.
  /// (\p Ty: the type of the primal value, of which \p D is the adjoint.)
  void addToShadowMemory(llvm::Value *PrimalPtr, llvm::Type *Ty, llvm::Value *D,
                         llvm::Align Alignment);
  llvm::AllocaInst *adjointSlot(llvm::Value *V);

  // ---- Forward sweep (ForwardSweep.cpp) ----
  void buildForward();
  void createPredecessorIndices();
  void forwardInstruction(llvm::Instruction &I);
  void forwardCall(llvm::CallBase &Call, llvm::Instruction *FwdI);
  void forwardNestedRuntime(llvm::CallBase &Call, NestedRuntime Kind,
                            llvm::Instruction *FwdI);
  void forwardDifferentiatedCall(llvm::CallBase &Call, llvm::CallBase *FwdCall);
  // OpenMP parallel regions (ParallelCalls.cpp).
  void forwardParallelCall(llvm::CallBase &Call, llvm::CallBase *FwdCall,
                           const DiffSignature &S);
  void reverseParallelCall(llvm::CallBase &Call, const DiffSignature &S);
  void reverseParallelSync(llvm::CallBase &Call);
  /// Whether the memory \p PrimalPtr points to belongs to the running
  /// thread alone (its stack slots): other threads of a parallel region
  /// cannot be adding adjoints to it.
  bool threadPrivate(llvm::Value *PrimalPtr) const;
  // Shared scalars' adjoints summed per thread (DeferredAdjoints.cpp).
  void findDeferredAdjoints();
  /// Sums \p D for shadow[PrimalPtr] in the thread's own register when
  /// PrimalPtr is such a scalar; false otherwise.
  bool deferAdjoint(llvm::Value *PrimalPtr, llvm::Value *D);
  void flushDeferredAdjointsBefore(llvm::Instruction &I);
  void flushDeferredAdjoints();
  void flushDeferredAdjoint(llvm::Value *A, llvm::AllocaInst *Sum,
                            llvm::Value *When);
  llvm::Value *forwardByValShadow(llvm::CallBase &Call, unsigned ArgNo);
  void reverseByValShadow(llvm::CallBase &Call, unsigned ArgNo);
  void forwardReturn(llvm::ReturnInst &RI);
  void createShadow(llvm::Instruction &I, llvm::Instruction *FwdI);
  void completeShadowPhis();
  llvm::Value *fwdValue(llvm::Value *V);
  // Checkpointed code (CheckpointedShadows.cpp).
  llvm::Value *pointerShadowSlot(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                                 llvm::Value *Shadow);
  void storePointerShadow(llvm::IRBuilder<> &B, llvm::StoreInst &SI);
  llvm::Value *derivedArenaShadow(llvm::IRBuilder<> &B, llvm::Value *Block);
  /// Allocates and frees the shadows of stack slots and byval copies.
  llvm::FunctionCallee slotShadowAlloc();
  llvm::FunctionCallee slotShadowFree();
  /// The shadow of \p V in the forward sweep; a null pointer for pointers
  /// that have none (so that shadow memory never aliases primal memory).
  llvm::Value *fwdShadow(llvm::Value *V);

  // ---- Vector mode (enzyme_width): W adjoints per value, W shadows per
  // pointer, in lanes (Support/Lanes.h) ----
  /// The type of the shadow or adjoint of a value of type \p T.
  llvm::Type *twinType(llvm::Type *T) const;
  /// The type of a record field of kind \p Kind about \p V.
  llvm::Type *fieldType(llvm::Value *V, unsigned Kind) const {
    return Kind == ShadowField ? twinType(V->getType()) : V->getType();
  }
  /// The shadow, in lanes, of constant \p C (null lanes where it has none),
  /// or null.
  llvm::Constant *constantShadow(llvm::Constant *C);
  /// \p Adj times the primal value \p Partial in every lane.
  llvm::Value *scaledAdjoint(llvm::IRBuilder<> &B, llvm::Value *Adj,
                             llvm::Value *Partial);
  /// The shadow of address arithmetic \p I (a GEP, addrspacecast, freeze or
  /// extractvalue) on \p BaseShadow, the shadow of its operand 0; the other
  /// operands from \p Operand.
  llvm::Value *
  shadowOfAddress(llvm::IRBuilder<> &B, llvm::Instruction &I,
                  llvm::Value *BaseShadow,
                  llvm::function_ref<llvm::Value *(llvm::Value *)> Operand);
  /// Refuses the SIMD values that have derivatives, in vector mode; true if
  /// there were any.
  bool refusedSimdInVectorMode();
  /// Refuses \p I, which \p What describes, in vector mode; true if it did.
  bool refusedInVectorMode(const llvm::Instruction &I, const llvm::Twine &What);
  /// The same for a call of a differentiated callee that vector mode
  /// cannot make: into a parallel region, or through a rule (which takes
  /// one shadow per argument).
  bool callRefusedInVectorMode(const llvm::CallBase &Call);

  // ---- Shared ----
  /// Emits code selecting on the run-time callee of an indirect call: one
  /// branch per possible target, \p EmitCall producing the call for one.
  llvm::Value *dispatchIndirect(
      llvm::IRBuilder<> &B, llvm::CallBase &Call, llvm::Value *Callee,
      llvm::Type *ResultTy,
      llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &, llvm::Function *)>
          EmitCall);
  bool reachesExit(llvm::BasicBlock *BB) const {
    return ReachesExit.contains(BB);
  }
  void unsupported(const llvm::Instruction &I, const llvm::Twine &Why);
  llvm::Value *shadowOrSink(llvm::IRBuilder<> &B, llvm::Value *V);
  llvm::Value *sinkPlacesWhere(llvm::IRBuilder<> &B, llvm::Value *SinkBase,
                               llvm::Value *Primal, llvm::Value *Shadow,
                               llvm::Value *InSink);
  llvm::Value *inSink(llvm::IRBuilder<> &B, llvm::Value *SinkBase,
                      llvm::Value *ShadowAddress);
  /// The shadow of the aggregate \p Agg that a field with a shadow is
  /// being inserted into: where Agg has none, the insertvalue chain that
  /// built it, its pointers in the sink.
  llvm::Value *aggregateShadowOrSink(llvm::IRBuilder<> &B, llvm::Value *Agg);

  Differentiator &D;
  DiffSignature Sig;
  /// Adjoints per value (Sig.Width).
  unsigned W;
  /// Generating for checkpointed code (isCheckpointedCode).
  bool Checkpointed;
  llvm::Function &P;
  Derivative Target;
  ActivityInfo AI;
  const llvm::DataLayout &DL;
  DifferentiabilityChecks Checks;
  llvm::BasicBlock *Exit = nullptr;
  llvm::DenseSet<llvm::BasicBlock *> ReachesExit;
  /// The distinct predecessors of each block, in a fixed order: a block's
  /// predecessor index is the position in this list.
  llvm::DenseMap<llvm::BasicBlock *, llvm::SmallVector<llvm::BasicBlock *, 2>>
      Preds;
  // Maps whose iteration order shapes the output are MapVectors (insertion
  // order, which follows the IR), so that the output is deterministic.
  llvm::MapVector<llvm::BasicBlock *, Record> Records;
  llvm::LoopInfo &Loops;
  llvm::ScalarEvolution &SE;
  /// Reverse-sweep variables holding loop-invariant values while their loop
  /// is reversed, keyed like record fields.
  llvm::MapVector<std::pair<llvm::Value *, unsigned>, llvm::AllocaInst *>
      CacheSlots;
  /// The counters of each loop header, first one used to tell iterations.
  llvm::DenseMap<llvm::BasicBlock *, llvm::SmallVector<InductionVariable, 2>>
      Counters;
  /// Counters that differ from an earlier counter of their loop by a
  /// constant: the reverse sweep adds the constant to that counter instead
  /// of counting a second one back. Address arithmetic then shares one base,
  /// which lets alias analysis tell `x[k]` from `x[k + 1]`.
  llvm::DenseMap<llvm::PHINode *, std::pair<llvm::PHINode *, llvm::Constant *>>
      SiblingCounters;
  /// Loads whose memory nothing overwrites before the reverse sweep: they
  /// are redone there instead of taped.
  llvm::DenseSet<const llvm::LoadInst *> Reloadable;
  /// Heap blocks whose free() the forward sweep postpones to the end of the
  /// gradient call, because the reverse sweep reloads from them.
  llvm::SmallPtrSet<const llvm::Value *, 4> PostponedFrees;
  /// The blocks reachable from a block through one edge or more.
  llvm::DenseMap<const llvm::BasicBlock *,
                 llvm::SmallPtrSet<const llvm::BasicBlock *, 16>>
      Reachable;
  /// The function's instructions that may write memory (libm's errno aside).
  llvm::SmallVector<const llvm::Instruction *, 32> Writers;
  llvm::AAResults &AA;
  /// (exit block, value, kind) whose cache slot the exit's record fills.
  std::set<std::tuple<llvm::BasicBlock *, llvm::Value *, unsigned>>
      CachedAtExit;

  // Reverse sweep state.
  llvm::IRBuilder<> RB;
  llvm::BasicBlock *Current = nullptr; ///< primal block being reversed
  llvm::MapVector<llvm::BasicBlock *, llvm::BasicBlock *> RevBlock;
  llvm::MapVector<llvm::Value *, llvm::AllocaInst *> AdjointSlots;
  /// Shared scalars whose adjoints the thread sums itself, and the sums.
  llvm::MapVector<llvm::Value *, llvm::AllocaInst *> DeferredAdjoints;
  llvm::BasicBlock *RevEntry = nullptr;
  llvm::BasicBlock *RevReturn = nullptr;

  /// Reverse-sweep memory accesses and the root of the memory each touches
  /// (see ShadowScopes.cpp).
  llvm::SmallVector<std::pair<llvm::Instruction *, const llvm::Value *>, 32>
      MemoryAccesses;

  // Forward sweep state.
  llvm::ValueToValueMapTy FwdMap;
  llvm::DenseMap<llvm::Value *, llvm::Value *> FwdShadows;
  llvm::DenseMap<llvm::BasicBlock *, llvm::PHINode *> FwdPredIndex;
  /// (primal phi, its shadow twin) pairs, completed once all blocks exist.
  llvm::SmallVector<std::pair<llvm::PHINode *, llvm::PHINode *>, 8> ShadowPhis;
  /// What the forward sweep made for a call that the reverse sweep needs
  /// (byval arguments' shadow copies, parallel regions), keyed like record
  /// fields.
  llvm::DenseMap<std::pair<llvm::Value *, unsigned>, llvm::Value *>
      FwdCallFields;
};

} // namespace capsule

#endif
