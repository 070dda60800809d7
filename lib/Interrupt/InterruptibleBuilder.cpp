//===- InterruptibleBuilder.cpp - Interruptible variants of a call graph -===//
//
// For the roots and every function they may call:
//  1. clone each into canonical form (Preprocess), dispatch its indirect
//     calls to direct ones and point its calls at the other clones (the
//     code of OpenMP parallel regions gets clones of its own, team code,
//     run inside the runtime's team: TeamRegions.h; in a checkpointed
//     gradient, functions with gradient rules of the user's and their
//     rules get theirs, rule code: RuleCode.h);
//  2. classify the clones into bounded leaves and resumable functions and
//     count their steps (StepModel);
//  3. instrument them: step charges, journal barriers, deterministic
//     allocation (StepInstrumentation);
//  4. turn each resumable clone into a step function (ResumableSplitter);
//  5. describe each root to the runtime (a capsule_entry constant).
//===----------------------------------------------------------------------===//
#include "Interrupt/InterruptibleBuilder.h"

#include "Analysis/CallClassifier.h"
#include "Analysis/MemoisationCheck.h"
#include "Analysis/MemoryKinds.h"
#include "Interrupt/ReplayCalls.h"
#include "Interrupt/ResumableSplitter.h"
#include "Interrupt/RuleCode.h"
#include "Interrupt/StaticInits.h"
#include "Interrupt/StepInstrumentation.h"
#include "Interrupt/StepModel.h"
#include "Interrupt/TeamRegions.h"
#include "Support/CustomRules.h"
#include "Support/Diagnostics.h"
#include "Support/GeneratedCode.h"
#include "Support/IndirectDispatch.h"
#include "Support/LibraryRules.h"
#include "Support/LinkTime.h"
#include "Support/ParallelRegions.h"
#include "Support/Preprocess.h"
#include "Support/RepeatableArithmetic.h"
#include "Support/RuntimeABI.h"
#include "Support/RuntimeStateInRegisters.h"
#include "Support/SortCalls.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PointerIntPair.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

namespace {

/// Builds the interruptible variants of everything reachable from the
/// roots; returns the capsule_entry constant of each root, or nothing after
/// reporting errors.
class InterruptibleBuilder {
public:
  InterruptibleBuilder(Module &M, RuntimeABI &ABI, bool ForCheckpointing)
      : M(M), ABI(ABI), ForCheckpointing(ForCheckpointing) {}

  std::optional<DenseMap<Function *, InterruptibleRoot>>
  build(ArrayRef<Function *> Roots);

private:
  /// What a clone is: interruptible code; team code, which runs in a
  /// parallel region, whose team never yields; or rule code (RuleCode.h),
  /// journaled (a function with a rule of the user's, its augmented rule,
  /// what they call) or not (its gradient rule, what that calls).
  enum CloneKind : unsigned { Interruptible, Team, Rule, ReverseRule };
  using CloneKey = PointerIntPair<Function *, 2, CloneKind>;

  bool cloneReachable(ArrayRef<Function *> Roots);
  CloneKind calleeKind(const CallBase &Call, const Function *Callee,
                       CloneKind Caller) const;
  void queueRuleCode(Function &Callee, const GradientRule &Rule,
                     SetVector<CloneKey> &Work);
  bool giveRuleClones();
  Function *routeIterationMarkers();
  bool checkCloneable(Function &F);
  void dispatchIndirectCalls(Function &Clone, const Function &Origin);
  void callClones(Function &Clone, CloneKind Kind);
  void callShells();
  GlobalVariable *entryOf(Function &Root, Function &Step, uint64_t Bytes);
  void discardGenerated();

  Module &M;
  RuntimeABI &ABI;
  bool ForCheckpointing;
  /// (original function, kind) -> its clone, in reach order.
  MapVector<CloneKey, Function *> Clones;
  /// The shells of the team code regions call (TeamRegions.h).
  SmallVector<Function *, 4> Shells;
  /// The initializations of statics moved out of the clones
  /// (StaticInits.h).
  SmallVector<Function *, 4> StaticInits;
  StepFunctions Steps;
};

} // namespace

/// Whether landing pad \p Pad catches exceptions of some type, i.e. code
/// that handles an error and goes on. catch (...) in the C++ library only
/// cleans up and rethrows, or calls std::terminate.
static bool catchesTyped(const LandingPadInst &Pad) {
  for (unsigned I = 0, E = Pad.getNumClauses(); I < E; ++I)
    if (Pad.isCatch(I) && !isa<ConstantPointerNull>(Pad.getClause(I)))
      return true;
  return false;
}

/// Exceptions cannot unwind through step functions (a yield returns through
/// the same frames), so code that catches them to go on is refused in
/// interruptible runs, whose primal behaviour must not change. A checkpointed
/// gradient accepts it as the plain gradient does: invokes become calls and
/// handlers are dropped. Throwing out of either is not supported
/// (docs/interrupt.md).
bool InterruptibleBuilder::checkCloneable(Function &F) {
  if (std::optional<std::string> Why = ruleInlinedBeforeTheLink(F)) {
    reportUnsupported(firstLocatedInstruction(F), F, *Why);
    return false;
  }
  if (F.isVarArg()) {
    reportNotInterruptible(firstLocatedInstruction(F), F,
                           "functions with a variable number of arguments "
                           "are not supported");
    return false;
  }
  for (Instruction &I : instructions(F))
    if (auto *Pad = dyn_cast<LandingPadInst>(&I))
      if (!ForCheckpointing && catchesTyped(*Pad)) {
        reportNotInterruptible(*Pad, F,
                               "catching C++ exceptions is not supported in "
                               "interruptible code");
        return false;
      }
  return true;
}

/// Whether \p Call, in team code if \p InTeam, calls team code: a parallel
/// region, or a microtask called directly (a region whose `if` clause is
/// false, a team of one that must not yield either).
static bool callsTeamCode(const CallBase &Call, bool InTeam) {
  const Function *Callee = Call.getCalledFunction();
  return InTeam || isParallelRegionCall(Call) ||
         (Callee && isForkedMicrotask(*Callee));
}

/// Why \p Call, of \p Callee, which has a gradient rule, cannot be
/// differentiated in checkpointed code, if it cannot. The BLAS routines'
/// rules can: the journal saves what the routine writes
/// (runtime/blas/Steps.c) and their augmented rules touch no shadow
/// memory. So can qsort of elements known to hold no pointers
/// (SortCalls.h); elements with pointers would need their shadow pointers
/// moved in every run, green runs too, and where checkpointed code keeps
/// them (beside runtime memory, or journaled): not yet. The user's rules
/// run as rule code (RuleCode.h), but not in team code (\p InTeam), whose
/// threads journal through their team.
static std::optional<std::string>
whyRuleNotCheckpointable(const CallBase &Call, const Function &Callee,
                         bool InTeam) {
  std::optional<GradientRule> Rule = gradientRule(Callee);
  if (!Rule)
    return std::nullopt;
  std::optional<StringRef> Routine = libraryRoutineOfRule(*Rule->Augment);
  if (!Routine && InTeam)
    return "a call of '" + displayName(Callee) +
           "', which has a gradient rule of yours, inside an OpenMP parallel "
           "region of a checkpointed gradient is not supported yet";
  if (!Routine)
    return whyUserRuleNotCheckpointable(Callee, *Rule);
  if (*Routine != "qsort" || !sortMovesShadowPointers(Call))
    return std::nullopt;
  return "a call of '" + displayName(Callee) +
         "', which has a built-in gradient rule, inside a checkpointed "
         "gradient is not supported yet (for elements that hold pointers, or "
         "whose layout is unknown, the rule moves their shadows as it sorts); "
         "use the plain gradient";
}

/// The kind of the clone of \p Callee that \p Call, in a clone of kind
/// \p Caller, calls: rule code calls rule code of its own kind; a
/// checkpointed gradient's call of a function with a rule of the user's
/// calls rule code.
InterruptibleBuilder::CloneKind
InterruptibleBuilder::calleeKind(const CallBase &Call, const Function *Callee,
                                 CloneKind Caller) const {
  if (Caller == Rule || Caller == ReverseRule)
    return Caller;
  if (ForCheckpointing && Callee && userGradientRule(*Callee))
    return Rule;
  return callsTeamCode(Call, Caller == Team) ? Team : Interruptible;
}

/// Queues \p Callee and its augmented rule as journaled rule code, its
/// gradient rule as rule code that journals nothing.
void InterruptibleBuilder::queueRuleCode(Function &Callee,
                                         const GradientRule &R,
                                         SetVector<CloneKey> &Work) {
  Work.insert(CloneKey(&Callee, Rule));
  Work.insert(CloneKey(R.Augment, Rule));
  Work.insert(CloneKey(R.Gradient, ReverseRule));
}

/// The rule code of each function with a rule of the user's carries the
/// rule's clones: the derivative of the stage calls them, and green runs
/// call the function's clone. Returns false after reporting an augmented
/// rule that may write to a shadow.
bool InterruptibleBuilder::giveRuleClones() {
  bool Ok = true;
  for (auto &[Key, Clone] : Clones) {
    if (Key.getInt() != Rule)
      continue;
    std::optional<GradientRule> R = userGradientRule(*Key.getPointer());
    Function *Augment = R ? Clones.lookup(CloneKey(R->Augment, Rule)) : nullptr;
    Function *Gradient =
        R ? Clones.lookup(CloneKey(R->Gradient, ReverseRule)) : nullptr;
    if (!Augment || !Gradient)
      continue;
    Ok &= checkAugmentLeavesShadows(*Key.getPointer(), *R->Augment, *Augment);
    setGradientRule(*Clone, *Augment, *Gradient);
  }
  return Ok;
}

/// A function of \p F's type that calls \p F: the root of the checkpointed
/// gradient of a function with a gradient rule of the user's, whose call
/// then runs the rule as rule code, as a call inside the root would.
static Function *callerOf(Function &F) {
  CallInst &Call = forwardingCall(F, F.getName() + ".capsule.prep");
  Function *Caller = Call.getFunction();
  Caller->addFnAttr(OriginalFunctionAttr, F.getName());
  if (DISubprogram *SP = F.getSubprogram())
    Call.setDebugLoc(DILocation::get(F.getContext(), SP->getLine(), 0, SP));
  return Caller;
}

/// Clones the roots and, transitively, every function the canonical clones
/// may call, directly or through function pointers (so code only reachable
/// from landing pads, which canonicalization drops, is not cloned).
bool InterruptibleBuilder::cloneReachable(ArrayRef<Function *> Roots) {
  bool Ok = true;
  SetVector<CloneKey> Work;
  for (Function *Root : Roots)
    Work.insert(CloneKey(Root, Interruptible));
  static const char *const Suffixes[] = {".capsule.interruptible",
                                         ".capsule.team", ".capsule.rule",
                                         ".capsule.rule.reverse"};
  for (size_t I = 0; I < Work.size(); ++I) {
    Function *F = Work[I].getPointer();
    CloneKind Kind = Work[I].getInt();
    if (!checkCloneable(*F)) {
      Ok = false;
      continue;
    }
    Function *Clone = nullptr;
    if (Kind == Interruptible && is_contained(Roots, F) && ForCheckpointing &&
        userGradientRule(*F)) {
      Clone = callerOf(*F);
    } else {
      Clone = prepareForDifferentiation(*F);
      // Before the split makes what types them byte offsets, and cuts the
      // paths from the call's start.
      recordIntegerCopies(*Clone);
      recordStaticsWrittenFirst(*Clone);
    }
    if (ForCheckpointing)
      makeArithmeticRepeatable(*Clone);
    Clone->setName(F->getName() + Suffixes[Kind]);
    append_range(StaticInits, outlineStaticInits(*Clone));
    // Then a team's loops have trip counts: they charge their steps and
    // save their chunks of arrays for the journal once, before they run.
    if (Kind == Team)
      hoistLoopInvariantLoads(*Clone);
    Clones[CloneKey(F, Kind)] = Clone;
    bool InRuleCode = Kind == Rule || Kind == ReverseRule;
    for (Instruction &Inst : instructions(*Clone)) {
      auto *Call = dyn_cast<CallBase>(&Inst);
      if (!Call || Call->isInlineAsm())
        continue;
      if (InRuleCode && isParallelRegionCall(*Call)) {
        reportNotInterruptible(*Call, *F,
                               "an OpenMP parallel region inside a function "
                               "with a gradient rule of yours, or inside its "
                               "rules, is not supported in a checkpointed "
                               "gradient yet");
        Ok = false;
        continue;
      }
      auto Reach = [&](Function &Callee, bool Defined) {
        if (std::optional<std::string> Why =
                ForCheckpointing && !InRuleCode
                    ? whyRuleNotCheckpointable(*Call, Callee, Kind == Team)
                    : std::nullopt) {
          reportNotInterruptible(*Call, *F, *Why);
          Ok = false;
          return;
        }
        CloneKind CalleeKind = calleeKind(*Call, &Callee, Kind);
        if (CalleeKind == Rule && !InRuleCode)
          queueRuleCode(Callee, *userGradientRule(Callee), Work);
        else if (Defined)
          Work.insert(CloneKey(&Callee, CalleeKind));
      };
      if (Function *Callee = Call->getCalledFunction())
        // A function differentiated as a libm function runs as one, and a
        // static's initialization as the program's code.
        Reach(*Callee, !Callee->isDeclaration() && !functionLikeName(*Callee) &&
                           !isStaticInit(*Callee));
      else
        for (Function *Target : indirectCallTargets(M, Call->getFunctionType()))
          Reach(*Target, /*Defined=*/true);
    }
  }
  return Ok;
}

void InterruptibleBuilder::dispatchIndirectCalls(Function &Clone,
                                                 const Function &Origin) {
  SmallVector<CallBase *, 4> Indirect;
  for (Instruction &I : instructions(Clone))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (!Call->getCalledFunction() && !Call->isInlineAsm())
        Indirect.push_back(Call);
  for (CallBase *Call : Indirect) {
    IRBuilder<> B(Call);
    SmallVector<Value *, 8> Args(Call->args());
    Value *Result = emitIndirectDispatch(
        B, ABI, *Call, Call->getCalledOperand(), Call->getType(), Origin,
        [&](IRBuilder<> &TB, Function *Target) -> Value * {
          CallInst *Direct = TB.CreateCall(Target, Args);
          Direct->setDebugLoc(Call->getDebugLoc());
          return Call->getType()->isVoidTy() ? nullptr : Direct;
        },
        // External targets become direct calls that instrumentation then
        // treats as such (free goes to the arena, printf is reported).
        /*IncludeDeclarations=*/true);
    if (Result)
      Call->replaceAllUsesWith(Result);
    Call->eraseFromParent();
  }
}

void InterruptibleBuilder::callClones(Function &Clone, CloneKind Kind) {
  for (Instruction &I : instructions(Clone))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction())
        if (Function *Target = Clones.lookup(
                CloneKey(Callee, calleeKind(*Call, Callee, Kind))))
          // A replayed call runs the program's own function, once.
          if (!isReplayedCall(*Call))
            Call->setCalledFunction(Target);
}

/// Each parallel region calls the shell of its team code, in a team.
void InterruptibleBuilder::callShells() {
  DenseMap<Function *, Function *> ShellOf;
  SmallVector<CallBase *, 4> Regions;
  for (auto &[Key, Clone] : Clones)
    for (Instruction &I : instructions(*Clone))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (isParallelRegionCall(*Call))
          Regions.push_back(Call);
  for (CallBase *Region : Regions) {
    Function *Body = Region->getCalledFunction();
    Function *&Shell = ShellOf[Body];
    if (!Shell) {
      Shell = teamShell(*Body, ABI);
      Shells.push_back(Shell);
    }
    callInTeam(*Region, *Shell, ABI);
  }
}

GlobalVariable *InterruptibleBuilder::entryOf(Function &Root, Function &Step,
                                              uint64_t Bytes) {
  const DataLayout &DL = M.getDataLayout();
  Type *RetTy = Root.getReturnType();
  uint64_t ResultBytes = RetTy->isVoidTy() ? 0 : DL.getTypeStoreSize(RetTy);
  IRBuilder<> B(M.getContext());
  Constant *Name = B.CreateGlobalStringPtr(
      displayName(Root), Root.getName() + ".capsule.name", 0, &M);
  StructType *Ty = ABI.entryType();
  Constant *Init = ConstantStruct::get(
      Ty, {&Step, B.getInt64(Bytes), B.getInt64(frameHeader(Root).ResultOffset),
           B.getInt64(ResultBytes), Name});
  return new GlobalVariable(M, Ty, /*isConstant=*/true,
                            GlobalValue::PrivateLinkage, Init,
                            Root.getName() + ".capsule.entry");
}

/// Loop-iteration checkpointing: calls of capsule_checkpoint_iteration()
/// in checkpointed code become calls of one new resumable function, the
/// iteration boundary, whose calls are then the only steps and its entry the
/// only yield point, so that stages start and end at iteration boundaries.
/// Interrupted runs ignore the marker (its calls go). Returns the boundary,
/// or null when there is none.
Function *InterruptibleBuilder::routeIterationMarkers() {
  SmallVector<CallBase *, 4> Markers;
  for (auto &[Key, Clone] : Clones)
    for (Instruction &I : instructions(*Clone))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (Callee->getName() == IterationMarkerName)
            Markers.push_back(Call);
  if (Markers.empty())
    return nullptr;
  if (!ForCheckpointing) {
    for (CallBase *Call : Markers)
      Call->eraseFromParent();
    return nullptr;
  }
  LLVMContext &C = M.getContext();
  Function *Boundary = Function::Create(
      FunctionType::get(Type::getVoidTy(C), /*isVarArg=*/false),
      GlobalValue::InternalLinkage, "capsule.iteration.boundary", M);
  ReturnInst::Create(C, BasicBlock::Create(C, "entry", Boundary));
  for (CallBase *Call : Markers)
    Call->setCalledFunction(Boundary);
  Clones[CloneKey(Boundary, Interruptible)] = Boundary;
  return Boundary;
}

/// The functions whose calls may charge steps to the budget: the step
/// functions, team code (a team's threads charge what they run), the end of
/// a team (which charges the team's sum), and the leaves that fork a team
/// or call one that may.
static SmallPtrSet<Function *, 16>
chargingFunctions(const SmallPtrSetImpl<Function *> &StepFns,
                  ArrayRef<Function *> TeamCode, ArrayRef<Function *> Leaves,
                  RuntimeABI &ABI) {
  SmallPtrSet<Function *, 16> Charging(StepFns.begin(), StepFns.end());
  Charging.insert(TeamCode.begin(), TeamCode.end());
  if (!TeamCode.empty())
    Charging.insert(cast<Function>(ABI.ompTeamStep("team_end").getCallee()));
  auto ChargesAtCall = [&](const Instruction &I) {
    auto *Call = dyn_cast<CallBase>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    return Callee && Charging.count(Callee);
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function *Leaf : Leaves)
      if (!Charging.count(Leaf) && any_of(instructions(*Leaf), ChargesAtCall))
        Changed |= Charging.insert(Leaf).second;
  }
  return Charging;
}

/// After an error: the half-built functions go, so that the module stays
/// valid until the compilation stops.
void InterruptibleBuilder::discardGenerated() {
  SmallVector<Function *, 16> Generated;
  for (auto &[Key, Clone] : Clones)
    Generated.push_back(Clone);
  for (auto &[Clone, Step] : Steps)
    Generated.push_back(Step);
  append_range(Generated, Shells);
  append_range(Generated, StaticInits);
  for (Function *F : Generated)
    F->dropAllReferences();
  for (Function *F : Generated) {
    F->replaceAllUsesWith(PoisonValue::get(F->getType()));
    F->eraseFromParent();
  }
}

std::optional<DenseMap<Function *, InterruptibleRoot>>
InterruptibleBuilder::build(ArrayRef<Function *> Roots) {
  bool Ok = cloneReachable(Roots);
  Function *Boundary = routeIterationMarkers();
  for (auto &[Key, Clone] : Clones) {
    reallocateTangentsByCopying(*Clone, ABI);
    if (ForCheckpointing) {
      reallocateByCopying(*Clone, ABI);
      recordCopyKinds(*Clone);
    }
  }
  for (auto &[Key, Clone] : Clones)
    dispatchIndirectCalls(*Clone, *Key.getPointer());
  for (auto &[Key, Clone] : Clones)
    Ok &= replayNondeterministicCalls(*Clone, *Key.getPointer(), ABI);
  for (auto &[Key, Clone] : Clones)
    callClones(*Clone, Key.getInt());
  callShells();
  Ok &= giveRuleClones();

  SmallVector<Function *, 16> AllClones(Shells.begin(), Shells.end());
  SmallVector<Function *, 16> TeamCode(Shells.begin(), Shells.end());
  // Statics' initializations run as rule code does: atomically, charged
  // nothing.
  SmallVector<Function *, 16> RuleCode(StaticInits.begin(), StaticInits.end());
  SmallVector<Function *, 16> RootClones;
  for (auto &[Key, Clone] : Clones) {
    AllClones.push_back(Clone);
    if (Key.getInt() == Team)
      TeamCode.push_back(Clone);
    else if (Key.getInt() != Interruptible)
      RuleCode.push_back(Clone);
  }
  for (Function *Root : Roots)
    RootClones.push_back(Clones.lookup(CloneKey(Root, Interruptible)));
  if (Boundary)
    RootClones.push_back(Boundary);
  StepModel Model(AllClones, RootClones, TeamCode, RuleCode, Boundary);
  SmallPtrSet<BasicBlock *, 16> AtomicHeaders;
  for (auto &[Key, Clone] : Clones)
    Ok &= instrumentForInterruption(*Clone, *Key.getPointer(), Model, ABI,
                                    AtomicHeaders,
                                    /*Journaled=*/Key.getInt() != ReverseRule);

  LLVMContext &C = M.getContext();
  FunctionType *StepTy = FunctionType::get(
      Type::getInt1Ty(C), {PointerType::getUnqual(C)}, /*isVarArg=*/false);
  SmallVector<Function *, 16> Leaves(Shells.begin(), Shells.end());
  for (auto &[Key, Clone] : Clones) {
    Function *F = Key.getPointer();
    if (!Model.isResumable(*Clone)) {
      if (Key.getInt() == Interruptible)
        Clone->setName(F->getName() + ".capsule.leaf");
      Leaves.push_back(Clone);
      continue;
    }
    Function *Step = Function::Create(StepTy, GlobalValue::InternalLinkage,
                                      F->getName() + ".capsule.step", M);
    // Code generation must see the same target as for the original.
    for (StringRef Attr : {"target-cpu", "target-features", "tune-cpu"})
      if (F->hasFnAttribute(Attr))
        Step->addFnAttr(F->getFnAttribute(Attr));
    // So must a checkpointed gradient: no derivative flows through it.
    if (isInactiveFunction(*F))
      markInactive(*Step);
    Steps[Clone] = Step;
  }
  if (!Ok) {
    discardGenerated();
    return std::nullopt;
  }
  DenseMap<Function *, InterruptibleRoot> Entries;
  for (auto &[Key, Clone] : Clones) {
    Function *F = Key.getPointer();
    Function *Step = Steps.lookup(Clone);
    if (!Step)
      continue;
    uint64_t FrameBytes = buildStepFunction(*Clone, Steps, ABI, AtomicHeaders,
                                            !Boundary || Clone == Boundary);
    if (is_contained(Roots, F))
      Entries[F] = {Step, entryOf(*F, *Step, FrameBytes), Boundary != nullptr};
  }
  // The resumable clones' bodies now live in their step functions.
  SmallPtrSet<Function *, 16> StepFns;
  for (auto &[Clone, Step] : Steps) {
    Clone->eraseFromParent();
    StepFns.insert(Step);
  }
  SmallPtrSet<Function *, 16> Charging =
      chargingFunctions(StepFns, TeamCode, Leaves, ABI);
  for (Function *Step : StepFns)
    keepBudgetInRegister(*Step, Charging, ABI);
  if (ForCheckpointing) {
    for (Function *Step : StepFns)
      Step->addFnAttr(CheckpointedCodeAttr);
    for (Function *Leaf : Leaves)
      Leaf->addFnAttr(CheckpointedCodeAttr);
  }
  return Entries;
}

std::optional<DenseMap<Function *, InterruptibleRoot>>
buildInterruptible(Module &M, RuntimeABI &ABI, ArrayRef<Function *> Roots,
                   bool ForCheckpointing) {
  return InterruptibleBuilder(M, ABI, ForCheckpointing).build(Roots);
}

Value *emitRootFrame(IRBuilder<> &B, RuntimeABI &ABI,
                     const InterruptibleRoot &Root, const Function &Fn,
                     ArrayRef<Value *> Args) {
  Value *Frame = B.CreateCall(ABI.rootFrame(), {Root.Entry}, "frame");
  FrameHeader H = frameHeader(Fn);
  const DataLayout &DL = Fn.getDataLayout();
  for (auto [I, Arg] : enumerate(Args)) {
    Value *Slot =
        B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Frame, H.ArgOffsets[I]);
    // A struct passed by value is the callee's own copy: the frame holds it.
    if (Fn.getArg(I)->hasByValAttr())
      B.CreateMemCpy(Slot, MaybeAlign(), Arg, MaybeAlign(),
                     DL.getTypeAllocSize(H.ArgTypes[I]));
    else
      B.CreateStore(Arg, Slot);
  }
  return Frame;
}

} // namespace capsule
