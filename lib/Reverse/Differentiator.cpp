//===- Differentiator.cpp - Derivatives of the functions of a module ------===//
#include "Reverse/Differentiator.h"

#include "Analysis/Activity.h"
#include "Analysis/MemoryKinds.h"
#include "Forward/CustomTangent.h"
#include "Forward/TangentGenerator.h"
#include "Reverse/CustomGradient.h"
#include "Reverse/GradientGenerator.h"
#include "Reverse/ReverseVectorization.h"
#include "Support/Diagnostics.h"
#include "Support/GeneratedCode.h"
#include "Support/Lanes.h"
#include "Support/LinkTime.h"
#include "Support/MarkerCalls.h"
#include "Support/NestingOrder.h"
#include "Support/Preprocess.h"
#include "Support/RepeatableArithmetic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace capsule {

StructType *reverseResultType(FunctionType *FT, ArrayRef<ArgActivity> Args,
                              unsigned Width) {
  SmallVector<Type *, 4> Elements;
  for (unsigned I = 0; I < Args.size(); ++I)
    if (Args[I] == ArgActivity::Out)
      Elements.push_back(laneType(FT->getParamType(I), Width));
  return StructType::get(FT->getContext(), Elements);
}

Type *forwardReturnType(Type *RetTy, unsigned Width) {
  if (!carriesPointer(RetTy))
    return RetTy;
  return StructType::get(RetTy->getContext(), {RetTy, laneType(RetTy, Width)});
}

Type *tangentReturnType(Type *RetTy, unsigned Width) {
  if (!carriesFloat(RetTy) && !carriesPointer(RetTy))
    return RetTy;
  return StructType::get(RetTy->getContext(), {RetTy, laneType(RetTy, Width)});
}

/// A readable suffix naming the signature: c/d/o per argument, then r when
/// the result is active.
static std::string signatureSuffix(const DiffSignature &Sig) {
  std::string S = ".";
  for (ArgActivity A : Sig.Args)
    S += A == ArgActivity::Dup ? 'd' : A == ArgActivity::Out ? 'o' : 'c';
  if (Sig.ActiveReturn)
    S += "r";
  if (!Sig.TopLevel && Sig.StableArgs)
    S += ".s" + utohexstr(Sig.StableArgs);
  if (Sig.Width > 1)
    S += ".w" + utostr(Sig.Width);
  if (Sig.Parallel)
    S += ".omp";
  return S;
}

/// f.capsule.fwd.<signature>. A function differentiated both for a marker
/// and as a callee (recursion) has two derivatives of the same signature;
/// the second one created says which it is.
std::string Differentiator::derivativeName(const DiffSignature &Sig,
                                           StringRef Sweep) const {
  std::string Name =
      (Sig.Fn->getName() + ".capsule." + Sweep + signatureSuffix(Sig)).str();
  if (M.getFunction(Name))
    Name += Sig.TopLevel ? ".top" : ".nested";
  return Name;
}

Differentiator::Differentiator(Module &M, FunctionAnalysisManager &FAM)
    : M(M), FAM(FAM), ABI(M) {}
Differentiator::~Differentiator() = default;

/// A derivative of checkpointed code runs the primal again and must
/// compute it as the other copies do (Support/RepeatableArithmetic.h).
static void keepArithmeticOfCheckpointedCode(const DiffSignature &Sig,
                                             Function &Derivative) {
  if (isCheckpointedCode(*Sig.Fn))
    makeArithmeticRepeatable(Derivative);
}

Function *Differentiator::declareForward(const DiffSignature &Sig) {
  FunctionType *FT = Sig.Fn->getFunctionType();
  SmallVector<Type *, 8> Params(FT->params());
  for (ArgActivity A : Sig.Args)
    if (A == ArgActivity::Dup)
      Params.push_back(
          laneType(PointerType::getUnqual(M.getContext()), Sig.Width));
  auto *Ty = FunctionType::get(
      forwardReturnType(FT->getReturnType(), Sig.Width), Params, false);
  Function *Fwd =
      Function::Create(Ty, GlobalValue::InternalLinkage,
                       derivativeName(Sig, Sig.Untaped ? "untaped" : "fwd"), M);
  keepArithmeticOfCheckpointedCode(Sig, *Fwd);
  return Fwd;
}

Function *Differentiator::declareReverse(const DiffSignature &Sig) {
  FunctionType *FT = Sig.Fn->getFunctionType();
  SmallVector<Type *, 1> Params;
  if (Sig.ActiveReturn)
    Params.push_back(laneType(FT->getReturnType(), Sig.Width));
  auto *Ty = FunctionType::get(reverseResultType(FT, Sig.Args, Sig.Width),
                               Params, false);
  Function *Rev = Function::Create(Ty, GlobalValue::InternalLinkage,
                                   derivativeName(Sig, "rev"), M);
  Rev->addFnAttr(Attribute::NoUnwind);
  // Not vectorized unless ReverseVectorizationPass finds that no loop of it
  // updates neighbouring shadow elements.
  Rev->addFnAttr(Attribute::NoImplicitFloat);
  Rev->addFnAttr(ReverseSweepAttr);
  return Rev;
}

Function *Differentiator::declareTangent(const DiffSignature &Sig) {
  Function &F = *Sig.Fn;
  FunctionType *FT = F.getFunctionType();
  SmallVector<Type *, 8> Params(FT->params());
  SmallVector<unsigned, 4> Twins;
  for (auto [K, A] : enumerate(Sig.Args))
    if (A != ArgActivity::Const) {
      Params.push_back(laneType(FT->getParamType(K), Sig.Width));
      Twins.push_back(K);
    }
  auto *Ty = FunctionType::get(
      tangentReturnType(FT->getReturnType(), Sig.Width), Params, false);
  Function *Tan = Function::Create(Ty, GlobalValue::InternalLinkage,
                                   derivativeName(Sig, "tan"), M);
  keepArithmeticOfCheckpointedCode(Sig, *Tan);
  // The callee's copy of a byval argument is its own, and so is the copy of
  // its shadow: writing to it must not reach the caller's shadow. (Several
  // shadows, in vector mode, are copied by the tangent function itself.)
  if (Sig.Width == 1)
    for (auto [I, K] : enumerate(Twins))
      if (Type *ByVal = F.getParamByValType(K))
        Tan->addParamAttr(FT->getNumParams() + I,
                          Attribute::getWithByValType(M.getContext(), ByVal));
  return Tan;
}

Derivative Differentiator::get(const DiffSignature &Sig) {
  auto It = Derivatives.find(Sig);
  if (It != Derivatives.end())
    return It->second;
  if (Sig.Tangent) {
    Derivative Dv;
    Dv.Tangent = declareTangent(Sig);
    Derivatives[Sig] = Dv;
    Pending.push_back(Sig);
    return Dv;
  }
  Derivative Dv{declareForward(Sig),
                Sig.Untaped ? nullptr : declareReverse(Sig)};
  Derivatives[Sig] = Dv;
  Pending.push_back(Sig);
  return Dv;
}

Function *Differentiator::prepared(Function &F) {
  Function *&P = Prepared[&F];
  if (!P)
    P = prepareForDifferentiation(F);
  return P;
}

/// A computed goto jumps to addresses of the user's function's blocks,
/// which generated code does not have (the interruptible builder refuses it
/// for the same reason).
/// clang gathers every `goto *p` of a function in one indirectbr without a
/// source line; the address it jumps to, or a branch of one of the gotos to
/// it, has one.
static const Instruction *computedGoto(const Function &F) {
  auto HasLine = [](const Instruction *I) {
    return I && I->getDebugLoc() && I->getDebugLoc().getLine() != 0;
  };
  for (const BasicBlock &BB : F) {
    const Instruction *Goto = BB.getTerminator();
    if (!isa<IndirectBrInst, CallBrInst>(Goto))
      continue;
    SmallVector<const Instruction *, 4> Candidates{Goto};
    if (auto *IB = dyn_cast<IndirectBrInst>(Goto))
      Candidates.push_back(dyn_cast<Instruction>(IB->getAddress()));
    for (const BasicBlock *Pred : predecessors(&BB))
      Candidates.push_back(Pred->getTerminator());
    auto Located = find_if(Candidates, HasLine);
    return Located != Candidates.end() ? *Located : Goto;
  }
  return nullptr;
}

/// Refuses, each reason once, the runtime calls of inner derivative calls
/// in \p Sig's function that its mode cannot differentiate. A reverse sweep
/// has no source lines; what it refuses, the forward sweep it pairs with
/// usually refuses at the user's line: refusals without a line wait until
/// the end of the run (reportUnlocatedRefusals).
bool Differentiator::refuseNestedCalls(const DiffSignature &Sig) {
  SmallVector<std::pair<std::string, const Instruction *>, 2> Refusals;
  for (const Instruction &I : instructions(*Sig.Fn))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (std::optional<NestedRuntime> Kind = nestedRuntimeCall(*Call))
        if (std::optional<std::string> Why =
                DifferentiabilityChecks::whyNotNestable(*Kind, Sig.Tangent)) {
          auto Known =
              find_if(Refusals, [&](auto &R) { return R.first == *Why; });
          if (Known == Refusals.end())
            Refusals.emplace_back(*Why, &I);
          else if (!Known->second->getDebugLoc() && I.getDebugLoc())
            Known->second = &I;
        }
  for (auto &[Why, At] : Refusals) {
    if (!At->getDebugLoc()) {
      Unlocated.push_back({At, Sig.Fn, Why});
      continue;
    }
    reportUnsupported(*At, *Sig.Fn, Why);
    RefusedAtLines.insert({displayName(*Sig.Fn), Why});
  }
  return !Refusals.empty();
}

void Differentiator::reportUnlocatedRefusals() {
  for (auto &[At, Origin, Why] : Unlocated)
    if (!RefusedAtLines.count({displayName(*Origin), Why}))
      reportUnsupported(*At, *Origin, Why);
  Unlocated.clear();
}

/// Bodies for the derivatives of a function that was refused: the
/// compilation fails, but the module must stay valid until it does, and
/// what a refusal left unfinished (values without twins) must not reach
/// the optimizer, which the compilation still runs.
static void giveUnreachableBodies(const Derivative &Dv) {
  for (Function *F : {Dv.Fwd, Dv.Rev, Dv.Tangent})
    if (F) {
      GlobalValue::LinkageTypes Linkage = F->getLinkage();
      F->deleteBody();
      F->setLinkage(Linkage);
      new UnreachableInst(F->getContext(),
                          BasicBlock::Create(F->getContext(), "refused", F));
    }
}

/// A function with a rule of the user's for \p Sig's mode gets a
/// derivative that calls the rule instead of one made from its body.
static bool emitRuleDerivative(RuntimeABI &ABI, const DiffSignature &Sig,
                               const Derivative &Dv) {
  // Vector mode calls the rules once per lane where that is safe; the
  // calls are refused elsewhere.
  if (Sig.Tangent) {
    Function *Rule = tangentRule(*Sig.Fn);
    if (!Rule || (Sig.Width > 1 && !rulesCallablePerLane(*Sig.Fn)))
      return false;
    emitTangentRuleBody(ABI, Sig, *Rule, *Dv.Tangent);
    return true;
  }
  std::optional<GradientRule> Rule = gradientRule(*Sig.Fn);
  if (!Rule || (Sig.Width > 1 && !gradientRuleRunsPerLane(*Sig.Fn)))
    return false;
  emitGradientRuleSweeps(ABI, Sig, *Rule, Dv);
  return true;
}

void Differentiator::run() {
  while (!Pending.empty()) {
    DiffSignature Sig = Pending.front();
    Pending.pop_front();
    if (emitRuleDerivative(ABI, Sig, Derivatives[Sig]))
      continue;
    // A function with a rule for the other mode only (the call was
    // refused).
    if (Sig.Fn->isDeclaration()) {
      noteFailure();
      giveUnreachableBodies(Derivatives[Sig]);
      continue;
    }
    if (const Instruction *Goto = computedGoto(*Sig.Fn)) {
      reportUnsupported(*Goto, *Sig.Fn,
                        "computed goto (goto *p, indirectbr) and asm goto "
                        "are not supported");
      noteFailure();
      giveUnreachableBodies(Derivatives[Sig]);
      continue;
    }
    if (std::optional<std::string> Why = ruleInlinedBeforeTheLink(*Sig.Fn)) {
      reportUnsupported(firstLocatedInstruction(*Sig.Fn), *Sig.Fn, *Why);
      noteFailure();
      giveUnreachableBodies(Derivatives[Sig]);
      continue;
    }
    if (refuseNestedCalls(Sig)) {
      noteFailure();
      giveUnreachableBodies(Derivatives[Sig]);
      continue;
    }
    Function &P = *prepared(*Sig.Fn);
    unsigned FailuresBefore = Failures;
    if (Sig.Tangent)
      TangentGenerator(*this, Sig, P, *Derivatives[Sig].Tangent).run();
    else
      GradientGenerator(*this, Sig, P, Derivatives[Sig], FAM).run();
    if (Failures != FailuresBefore)
      giveUnreachableBodies(Derivatives[Sig]);
    else if (Sig.Width > 1)
      for (Function *F : {Derivatives[Sig].Fwd, Derivatives[Sig].Rev,
                          Derivatives[Sig].Tangent})
        if (F)
          scalarizeLanes(*F, FAM);
  }
  reportUnlocatedRefusals();
}

void Differentiator::finish() {
  // Analyses cached for the scratch clones must not outlive them.
  FAM.clear();
  for (auto &[F, P] : Prepared)
    P->dropAllReferences();
  for (auto &[F, P] : Prepared)
    P->eraseFromParent();
  Prepared.clear();
}

DiffSignature Differentiator::signatureAtCall(const CallBase &Call,
                                              Function *Callee,
                                              const ActivityInfo &AI) const {
  DiffSignature S;
  S.Fn = Callee;
  for (const Use &U : Call.args()) {
    Type *T = U->getType();
    if (T->isPointerTy())
      S.Args.push_back(AI.hasShadow(U) ? ArgActivity::Dup : ArgActivity::Const);
    else if (carriesFloat(T) && AI.isVaried(U))
      S.Args.push_back(ArgActivity::Out);
    else
      S.Args.push_back(ArgActivity::Const);
  }
  S.ActiveReturn = carriesFloat(Call.getType()) && AI.isActive(&Call);
  return S;
}

GlobalVariable *Differentiator::shadowGlobal(GlobalVariable *G, unsigned Lane,
                                             unsigned Level) {
  GlobalVariable *&S = ShadowOf[G];
  if (!S) {
    S = new GlobalVariable(M, G->getValueType(), /*isConstant=*/false,
                           GlobalValue::InternalLinkage,
                           Constant::getNullValue(G->getValueType()),
                           G->getName() + ".capsule.shadow");
    S->setAlignment(G->getAlign());
    // A thread_local global's adjoints are each thread's own.
    S->setThreadLocalMode(G->getThreadLocalMode());
    ShadowGlobals.push_back(S);
  }
  if (!Lane && !Level)
    return S;
  GlobalVariable *&Extra = ExtraShadowOf[{G, Lane, Level}];
  if (!Extra) {
    std::string Suffix = Level ? ".level" + std::to_string(Level) : "";
    if (Lane)
      Suffix += ".lane" + std::to_string(Lane);
    Extra = new GlobalVariable(M, G->getValueType(), /*isConstant=*/false,
                               GlobalValue::InternalLinkage,
                               Constant::getNullValue(G->getValueType()),
                               S->getName() + Suffix);
    Extra->setAlignment(S->getAlign());
    Extra->setThreadLocalMode(S->getThreadLocalMode());
  }
  return Extra;
}

Constant *Differentiator::shadowOfConstant(Constant *C, unsigned Lane,
                                           unsigned Level) {
  // Reverse mode over a gradient: the inner tape's records have adjoints in
  // the adjoint twins (forward mode asks for the tangent tape instead).
  if (isTapeHeader(C))
    return abi().adjointTape();
  if (!C->getType()->isPointerTy() || !constantHasShadow(C))
    return nullptr;
  if (auto *G = dyn_cast<GlobalVariable>(C))
    return shadowGlobal(G, Lane, Level);
  if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    SmallVector<Constant *, 4> Ops;
    for (const Use &U : CE->operands())
      Ops.push_back(cast<Constant>(U));
    Ops[0] = shadowOfConstant(Ops[0], Lane, Level);
    return Ops[0] ? CE->getWithOperands(Ops) : nullptr;
  }
  return nullptr;
}

/// What the address \p V points into, through the running thread's
/// address of a thread_local global too.
static Value *storedAddressTarget(Value *V) {
  Value *Object = getUnderlyingObject(V);
  if (auto *II = dyn_cast<IntrinsicInst>(Object);
      II && II->getIntrinsicID() == Intrinsic::threadlocal_address)
    return getUnderlyingObject(II->getArgOperand(0));
  return Object;
}

/// Globals whose address the program stores anywhere (`gp = g;` in main)
/// may be reached through a pointer the runtime ties to its shadow at each
/// gradient call (a shadowed pointer global, a pointer table): they get
/// shadow globals too, even where no differentiated code names them, or
/// the pointer would be tied to nothing.
void Differentiator::shadowStoredAddressTargets() {
  for (Function &F : M) {
    // Generated code stores shadows, not the program's addresses.
    if (F.getName().contains(".capsule."))
      continue;
    for (Instruction &I : instructions(F))
      if (auto *SI = dyn_cast<StoreInst>(&I))
        if (SI->getValueOperand()->getType()->isPointerTy())
          if (auto *G = dyn_cast<GlobalVariable>(
                  storedAddressTarget(SI->getValueOperand()));
              G && constantHasShadow(G) && !G->getName().contains(".capsule."))
            shadowGlobal(G);
  }
}

/// To a derivative of round \p Level, the shadow globals of earlier rounds
/// are mutable globals too, and the pointers they hold (shadows of the
/// program's pointers) point into each other: each gets a shadow global of
/// this round, so that the runtime's binding finds what they point to.
void Differentiator::shadowEarlierRounds(unsigned Level) {
  SmallVector<GlobalVariable *, 8> Program;
  for (GlobalVariable *Shadow : ShadowGlobals)
    if (GlobalVariable *G = primalOf(Shadow);
        !G->getName().contains(".capsule."))
      Program.push_back(G);
  for (GlobalVariable *G : Program)
    for (unsigned Earlier = 0; Earlier < Level; ++Earlier)
      if (!Earlier || ExtraShadowOf.count({G, 0, Earlier}))
        shadowGlobal(shadowGlobal(G, /*Lane=*/0, Earlier), /*Lane=*/0, Level);
}

/// Globals that shadowed globals point to from their initializers (`double
/// *wp = W;`) get shadow globals too, even where no code names them, so
/// that the runtime can give the pointers their shadows.
void Differentiator::shadowInitializerTargets() {
  for (size_t I = 0; I < ShadowGlobals.size(); ++I) {
    GlobalVariable *G = primalOf(ShadowGlobals[I]);
    if (!G->hasInitializer())
      continue;
    SmallVector<Constant *, 8> Work{G->getInitializer()};
    while (!Work.empty()) {
      Constant *C = Work.pop_back_val();
      if (auto *Target = dyn_cast<GlobalVariable>(C)) {
        if (constantHasShadow(Target))
          shadowGlobal(Target);
        continue;
      }
      for (Use &U : C->operands())
        if (auto *Operand = dyn_cast<Constant>(U.get()))
          Work.push_back(Operand);
    }
  }
}

GlobalVariable *Differentiator::primalOf(GlobalVariable *Shadow) const {
  for (auto &[Primal, S] : ShadowOf)
    if (S == Shadow)
      return Primal;
  llvm_unreachable("not a shadow global");
}

/// The runtime's view of global \p G and its shadow global of round
/// \p Level and lane \p Lane: {global, shadow, bytes, name, offsets of the
/// pointers it holds, their count} (abi.h).
Constant *Differentiator::shadowGlobalEntry(GlobalVariable *G, unsigned Lane,
                                            unsigned Level) {
  const DataLayout &DL = M.getDataLayout();
  IRBuilder<> B(M.getContext());
  // The name and the pointers' offsets are the global's, whatever the
  // table: made once.
  GlobalDescription &Desc = Descriptions[G];
  if (!Desc.Name) {
    SmallVector<Constant *, 4> Offsets;
    for (const MemoryRun &Run : layoutRuns(G->getValueType(), DL))
      if (Run.Kind == ElementKind::Pointer)
        for (uint64_t O = 0; O < Run.Bytes; O += DL.getPointerSize())
          Offsets.push_back(B.getInt64(Run.Offset + O));
    auto *OffsetsTy = ArrayType::get(B.getInt64Ty(), Offsets.size());
    Desc.Offsets = new GlobalVariable(M, OffsetsTy, /*isConstant=*/true,
                                      GlobalValue::PrivateLinkage,
                                      ConstantArray::get(OffsetsTy, Offsets),
                                      G->getName() + ".capsule.pointers");
    Desc.Count = Offsets.size();
    Desc.Name = B.CreateGlobalStringPtr(G->getName(),
                                        G->getName() + ".capsule.name", 0, &M);
  }
  return ConstantStruct::get(
      ABI.shadowGlobalType(),
      {G, shadowGlobal(G, Lane, Level),
       B.getInt64(DL.getTypeAllocSize(G->getValueType())), Desc.Name,
       Desc.Offsets, B.getInt64(Desc.Count)});
}

/// Whether \p Entry (shadowGlobalEntry) names a thread_local global, whose
/// address is each thread's and so no constant.
static bool isThreadLocalEntry(const Constant *Entry) {
  return cast<GlobalVariable>(Entry->getOperand(0))->isThreadLocal();
}

Value *Differentiator::tableOf(IRBuilder<> &B, ArrayRef<Constant *> Entries) {
  auto *TableTy = ArrayType::get(ABI.shadowGlobalType(), Entries.size());
  if (none_of(Entries, isThreadLocalEntry))
    return new GlobalVariable(
        M, TableTy, /*isConstant=*/true, GlobalValue::PrivateLinkage,
        ConstantArray::get(TableTy, Entries), "capsule.shadow.globals");
  // The running thread's addresses of thread_local globals and their
  // shadows, filled in where the function starts: every use of the table
  // in it comes after.
  Function *F = B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F->getEntryBlock(),
                    F->getEntryBlock().getFirstNonPHIOrDbgOrAlloca());
  Value *Table = Entry.CreateAlloca(TableTy, nullptr, "capsule.shadow.globals");
  for (auto [K, C] : enumerate(Entries)) {
    Value *Row = C;
    for (unsigned Field : {0u, 1u})
      if (auto *G = dyn_cast<GlobalVariable>(C->getOperand(Field));
          G && G->isThreadLocal())
        Row = Entry.CreateInsertValue(Row, Entry.CreateThreadLocalAddress(G),
                                      Field);
    Entry.CreateStore(Row,
                      Entry.CreateConstInBoundsGEP2_64(TableTy, Table, 0, K));
  }
  return Table;
}

Value *Differentiator::shadowGlobalTable(IRBuilder<> &B, unsigned Level,
                                         unsigned Lane) {
  // A table naming thread_local globals is on a function's stack and serves
  // that function only.
  Function *Owner = any_of(ShadowGlobals,
                           [](GlobalVariable *S) { return S->isThreadLocal(); })
                        ? B.GetInsertBlock()->getParent()
                        : nullptr;
  auto &[Table, Covered] = ShadowGlobalTables[{Owner, Level, Lane}];
  if (Table && Covered == ShadowGlobals.size())
    return Table;
  Covered = ShadowGlobals.size();
  SmallVector<Constant *, 8> Entries;
  for (GlobalVariable *Shadow : ShadowGlobals)
    Entries.push_back(shadowGlobalEntry(primalOf(Shadow), Lane, Level));
  Table = tableOf(B, Entries);
  return Table;
}

/// The number of entries of a table of shadowGlobalTable().
static Value *tableSize(IRBuilder<> &B, Value *Table) {
  Type *TableTy = isa<AllocaInst>(Table)
                      ? cast<AllocaInst>(Table)->getAllocatedType()
                      : cast<GlobalVariable>(Table)->getValueType();
  return B.getInt64(cast<ArrayType>(TableTy)->getNumElements());
}

/// Adjoints or tangents left from a previous call never leak into the
/// next.
void Differentiator::zeroShadowGlobals(IRBuilder<> &B, unsigned Level,
                                       unsigned Lane) {
  const DataLayout &DL = M.getDataLayout();
  for (GlobalVariable *Shadow : ShadowGlobals) {
    GlobalVariable *S = shadowGlobal(primalOf(Shadow), Lane, Level);
    Value *Ptr = S;
    if (S->isThreadLocal())
      Ptr = B.CreateThreadLocalAddress(S);
    B.CreateMemSet(Ptr, B.getInt8(0),
                   DL.getTypeAllocSize(Shadow->getValueType()),
                   Shadow->getAlign());
  }
}

/// An array of \p Values in a stack slot of the caller's entry block.
static Value *stackArray(IRBuilder<> &B, ArrayRef<Value *> Values,
                         const Twine &Name) {
  Function *F = B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F->getEntryBlock(), F->getEntryBlock().begin());
  auto *Ty = ArrayType::get(B.getPtrTy(), std::max<size_t>(Values.size(), 1));
  Value *Array = Entry.CreateAlloca(Ty, nullptr, Name);
  for (auto [I, V] : enumerate(Values))
    B.CreateStore(V, B.CreateConstInBoundsGEP2_64(Ty, Array, 0, I));
  return Array;
}

Differentiator::ShadowBinding
Differentiator::bindShadowGlobals(IRBuilder<> &B, const GradientRequest &R) {
  ShadowBinding SB;
  ArrayRef<Value *> Shadows = R.Shadows;
  SB.Shadows.assign(Shadows.begin(), Shadows.end());
  if (ShadowGlobals.empty())
    return SB;
  SmallVector<Value *, 4> DupArgs = dupArguments(R);
  unsigned Level = R.Sig.Level;
  if (R.Nested)
    return bindNestedShadowGlobals(B, R, std::move(SB));
  if (!TargetsShadowed) {
    shadowStoredAddressTargets();
    shadowInitializerTargets();
    TargetsShadowed = true;
  }
  shadowEarlierRounds(Level);
  unsigned Width = R.Sig.Width;
  SB.Args = stackArray(B, DupArgs, "dup.args");
  SB.Count = B.getInt64(DupArgs.size());
  // Each lane of vector mode is bound as a call of its own.
  SmallVector<Value *, 1> Bounds;
  for (unsigned Lane = 0; Lane < Width; ++Lane) {
    zeroShadowGlobals(B, Level, Lane);
    SmallVector<Value *, 4> LaneShadows;
    for (Value *S : Shadows)
      LaneShadows.push_back(laneOf(B, S, Lane, Width));
    SB.Tables.push_back(shadowGlobalTable(B, Level, Lane));
    SB.UserShadows.push_back(stackArray(B, LaneShadows, "dup.shadows"));
    Bounds.push_back(stackArray(B, LaneShadows, "dup.bound.shadows"));
    B.CreateCall(ABI.bindShadowGlobals(),
                 {SB.Tables.back(), tableSize(B, SB.Tables.back()), SB.Args,
                  SB.UserShadows.back(), Bounds.back(), SB.Count});
  }
  auto *Ty = ArrayType::get(B.getPtrTy(), std::max<size_t>(Shadows.size(), 1));
  for (unsigned I = 0; I < Shadows.size(); ++I)
    SB.Shadows[I] = makeLanes(B, Width, [&](unsigned Lane) -> Value * {
      return B.CreateLoad(B.getPtrTy(),
                          B.CreateConstInBoundsGEP2_64(Ty, Bounds[Lane], 0, I));
    });
  return SB;
}

/// A nested request (one inside code another request differentiates) binds
/// only what the outer derivative can follow: its round's shadow globals are
/// zeroed, as memsets the outer level differentiates, and the runtime checks
/// that no dup argument points into a global, which the binding would have
/// tied to its shadow global. Pointers held by globals get their shadows
/// from the runtime's binding, whose effect on the shadow globals the outer
/// generators repeat one level up (bindShadowGlobalsOneLevelUp); the inner
/// derivative gets the user's shadows as they are.
Differentiator::ShadowBinding Differentiator::bindNestedShadowGlobals(
    IRBuilder<> &B, const GradientRequest &R, ShadowBinding SB) {
  unsigned Level = R.Sig.Level;
  SmallVector<Value *, 4> DupArgs = dupArguments(R);
  SmallSetVector<GlobalVariable *, 4> Named = namedShadowedGlobals(*R.Sig.Fn);
  bool HoldsPointers = any_of(Named, [](GlobalVariable *G) {
    return carriesPointer(G->getValueType());
  });
  // The globals those pointers may reach get shadow globals first, so that
  // they are zeroed too.
  if (HoldsPointers && !TargetsShadowed) {
    shadowStoredAddressTargets();
    shadowInitializerTargets();
    TargetsShadowed = true;
  }
  zeroShadowGlobals(B, Level, /*Lane=*/0);
  if (!HoldsPointers) {
    if (Named.empty() || DupArgs.empty())
      return SB;
    SmallVector<Constant *, 4> Entries;
    for (GlobalVariable *G : Named)
      Entries.push_back(shadowGlobalEntry(G, /*Lane=*/0, Level));
    Value *Table = tableOf(B, Entries);
    B.CreateCall(ABI.checkNestedDupArgs(), {Table, tableSize(B, Table),
                                            stackArray(B, DupArgs, "dup.args"),
                                            B.getInt64(DupArgs.size())});
    return SB;
  }
  Value *Table = shadowGlobalTable(B, Level, /*Lane=*/0);
  Value *Args = stackArray(B, DupArgs, "dup.args");
  Value *Count = B.getInt64(DupArgs.size());
  B.CreateCall(ABI.checkNestedDupArgs(),
               {Table, tableSize(B, Table), Args, Count});
  // The runtime writes the shadows it binds to the last array, which no
  // one reads: no dup argument is in a global.
  B.CreateCall(ABI.bindShadowGlobals(),
               {Table, tableSize(B, Table), Args,
                stackArray(B, R.Shadows, "dup.shadows"),
                stackArray(B, R.Shadows, "dup.bound.shadows"), Count});
  return SB;
}

/// What the runtime's binding call \p Bind of an inner derivative did to
/// the shadow globals of its round (pointers they hold now point to the
/// shadows the call had, or into other shadow globals), done again for
/// the shadows of round \p Level of those shadow globals, from the
/// shadows of the inner call's shadows, \p OuterShadows (an array like the
/// call's shadows): the outer derivative then finds, behind each pointer a
/// shadow global holds, the shadow of what it points to.
void Differentiator::bindShadowGlobalsOneLevelUp(IRBuilder<> &B, CallBase &Bind,
                                                 Value *InnerShadows,
                                                 Value *OuterShadows,
                                                 unsigned Level,
                                                 unsigned Lane) {
  auto *Inner = dyn_cast<GlobalVariable>(Bind.getArgOperand(0));
  if (!Inner) {
    reportUnsupported(Bind, *Bind.getFunction(),
                      "a thread_local global that holds pointers, in code "
                      "differentiated in reverse mode over a gradient "
                      "(reverse over reverse), is not supported yet");
    return noteFailure();
  }
  SmallVector<Constant *, 8> Entries;
  for (Use &Entry : cast<ConstantArray>(Inner->getInitializer())->operands()) {
    auto *InnerShadow =
        cast<GlobalVariable>(cast<ConstantStruct>(Entry.get())->getOperand(1));
    Entries.push_back(shadowGlobalEntry(InnerShadow, Lane, Level));
  }
  Value *Table = tableOf(B, Entries);
  Value *Count = Bind.getArgOperand(5);
  SmallVector<Value *, 4> Unread(cast<ConstantInt>(Count)->getZExtValue(),
                                 ConstantPointerNull::get(B.getPtrTy()));
  B.CreateCall(ABI.bindShadowGlobals(),
               {Table, tableSize(B, Table), InnerShadows, OuterShadows,
                stackArray(B, Unread, "dup.bound.shadows"), Count});
}

void Differentiator::unbindShadowGlobals(IRBuilder<> &B,
                                         const ShadowBinding &SB) {
  for (auto [Table, UserShadows] : zip(SB.Tables, SB.UserShadows))
    B.CreateCall(ABI.unbindShadowGlobals(),
                 {Table, tableSize(B, Table), SB.Args, UserShadows, SB.Count});
}

void Differentiator::keepShadowGlobals(CallInst &Begin, const ShadowBinding &SB,
                                       FunctionCallee Keep,
                                       ArrayRef<Value *> Lead) {
  if (SB.Tables.empty())
    return;
  IRBuilder<> B(Begin.getNextNode());
  SmallVector<Value *, 3> Args(Lead.begin(), Lead.end());
  Args.push_back(SB.Tables[0]);
  Args.push_back(tableSize(B, SB.Tables[0]));
  B.CreateCall(Keep, Args);
}

Differentiator::ShadowBinding
Differentiator::boundShadowGlobals(IRBuilder<> &B, const GradientRequest &R) {
  ShadowBinding SB;
  SB.Shadows.assign(R.Shadows.begin(), R.Shadows.end());
  if (ShadowGlobals.empty())
    return SB;
  SmallVector<Value *, 4> DupArgs = dupArguments(R);
  SB.Args = stackArray(B, DupArgs, "dup.args");
  SB.Count = B.getInt64(DupArgs.size());
  SB.Tables.push_back(shadowGlobalTable(B, R.Sig.Level, /*Lane=*/0));
  SB.UserShadows.push_back(stackArray(B, R.Shadows, "dup.shadows"));
  return SB;
}

void Differentiator::addCheckpointedRequest(GradientRequest R) {
  CheckpointedRequests.push_back(std::move(R));
}

std::vector<GradientRequest> Differentiator::takeCheckpointedRequests() {
  return std::exchange(CheckpointedRequests, {});
}

} // namespace capsule
