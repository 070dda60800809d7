//===- Preprocess.cpp - Canonical form for differentiation ----------------===//
#include "Support/Preprocess.h"

#include "Analysis/CallClassifier.h"
#include "Analysis/MemoryKinds.h"
#include "Support/Cloning.h"
#include "Support/CompareExchangeLoops.h"
#include "Support/EigenPacketMath.h"
#include "Support/FloatBitOperations.h"
#include "Support/IntegerAddresses.h"
#include "Support/LibcMemoryCalls.h"
#include "Support/LibmPointerOutputs.h"
#include "Support/LibraryBodies.h"
#include "Support/MaskedMemoryLanes.h"
#include "Support/ParallelRegions.h"
#include "Support/PointerVectorLanes.h"
#include "Support/SearchCalls.h"
#include "Support/SlotLaneLoads.h"
#include "Support/SortCalls.h"
#include "Support/UnprototypedCalls.h"
#include "Support/X86VectorOps.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/CallPromotionUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace capsule {

/// Exceptions thrown through differentiated code are not supported (the
/// tape would be left half-written), so an invoke becomes a call that
/// continues at the normal destination; landing pads become unreachable.
static void lowerInvokes(Function &F) {
  SmallVector<InvokeInst *, 8> Invokes;
  for (BasicBlock &BB : F)
    if (auto *II = dyn_cast<InvokeInst>(BB.getTerminator()))
      Invokes.push_back(II);
  for (InvokeInst *II : Invokes)
    changeToCall(II);
}

/// Functions that must be inlined (the SIMD intrinsics' wrappers in clang's
/// headers) are inlined at -O0 only after Capsule runs; inlined first, the
/// bits of a double they pass around as an integer vector (__m128i) stay in
/// one function, where the copy can be seen for what it is.
static void inlineAlwaysInlineCalls(Function &F) {
  // {call, depth}: the wrappers nest a few deep; a function that calls
  // itself stays a call (a depth bound stops mutual recursion).
  SmallVector<std::pair<CallBase *, unsigned>, 8> Work;
  auto Collect = [&](Instruction &I, unsigned Depth) {
    auto *Call = dyn_cast<CallBase>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (Callee && Callee != &F && !Callee->isDeclaration() &&
        Callee->hasFnAttribute(Attribute::AlwaysInline) && Depth < 8 &&
        none_of(Callee->users(), [&](const User *U) {
          auto *Inner = dyn_cast<CallBase>(U);
          return Inner && Inner->getFunction() == Callee;
        }))
      Work.push_back({Call, Depth});
  };
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      Collect(I, 0);
  while (!Work.empty()) {
    auto [Call, Depth] = Work.pop_back_val();
    InlineFunctionInfo IFI;
    if (!InlineFunction(*Call, IFI).isSuccess())
      continue;
    for (CallBase *Inlined : IFI.InlinedCallSites)
      Collect(*Inlined, Depth + 1);
  }
}

/// Gives the function a single return block, so that the reverse sweep has
/// a single entry.
static void unifyReturns(Function &F) {
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : F)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(RI);
  if (Returns.size() < 2)
    return;
  LLVMContext &C = F.getContext();
  BasicBlock *Exit = BasicBlock::Create(C, "capsule.return", &F);
  IRBuilder<> B(Exit);
  Type *RetTy = F.getReturnType();
  PHINode *Result =
      RetTy->isVoidTy() ? nullptr : B.CreatePHI(RetTy, Returns.size(), "ret");
  ReturnInst *NewRet = Result ? B.CreateRet(Result) : B.CreateRetVoid();
  NewRet->setDebugLoc(Returns.front()->getDebugLoc());
  for (ReturnInst *RI : Returns) {
    if (Result)
      Result->addIncoming(RI->getReturnValue(), RI->getParent());
    BranchInst::Create(Exit, RI->getParent());
    RI->eraseFromParent();
  }
}

/// Loops get preheaders and dedicated exits, where the reverse sweep's
/// loop-invariant values are taped once per loop run.
static void simplifyLoops(Function &F) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (Loop *L : LI)
    simplifyLoop(L, &DT, &LI, nullptr, nullptr, nullptr,
                 /*PreserveLCSSA=*/false);
}

static void promoteStackSlots(Function &F) {
  DominatorTree DT(F);
  SmallVector<AllocaInst *, 16> Promotable;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (isAllocaPromotable(AI))
        Promotable.push_back(AI);
  if (!Promotable.empty())
    PromoteMemToReg(Promotable, DT);
}

/// A cast of an integer load's bits back to what they hold: a float of the
/// same size (`bitcast i64 to double`, what optimization leaves of a double
/// copied through an int64_t; `bitcast <2 x i64> to <2 x double>`, of SIMD
/// code loading doubles as __m128i), or a pointer (`inttoptr i64`, of a
/// pointer field loaded as an integer).
static bool readsBitsBack(const User *U) {
  if (isa<IntToPtrInst>(U))
    return !U->getType()->isVectorTy();
  return isa<BitCastInst>(U) && U->getType()->isFPOrFPVectorTy();
}

/// A use of an integer load that only moves its bits: storing it, or
/// reading them back (readsBitsBack).
static bool movesBits(const Use &U) {
  if (auto *SI = dyn_cast<StoreInst>(U.getUser()))
    return U.getOperandNo() == 0 && !SI->isVolatile();
  return readsBitsBack(U.getUser());
}

/// The type \p LI is retyped to: the type its bits are read back as, or
/// \p Kind's scalar type (a vector of them for a vector load).
static Type *retypedLoadType(LoadInst &LI, ElementKind Kind) {
  Type *ReadAs = nullptr;
  for (const User *U : LI.users())
    if (readsBitsBack(U)) {
      if (ReadAs && ReadAs != U->getType())
        return nullptr;
      ReadAs = U->getType();
    }
  // A pointer only where the memory holds pointers: an integer that was a
  // pointer (uintptr_t) has no shadow where the memory's shadow is.
  if (ReadAs && ReadAs->isPointerTy())
    return Kind == ElementKind::Pointer ? ReadAs : nullptr;
  if (ReadAs)
    return ReadAs;
  Type *T = scalarTypeOf(Kind, LI.getContext());
  auto *VTy = dyn_cast<FixedVectorType>(LI.getType());
  if (!T || !VTy)
    return T;
  const DataLayout &DL = LI.getDataLayout();
  uint64_t Bytes = DL.getTypeStoreSize(VTy), Each = DL.getTypeStoreSize(T);
  return Bytes % Each ? nullptr : FixedVectorType::get(T, Bytes / Each);
}

/// What integer copy \p LI (a load whose uses all move its bits) moves,
/// from the layouts of the memories it reads and writes at the bytes it
/// copies (a pointer field of an Eigen expression object, copied as an i64
/// beside the expression's double), else how those memories are typed
/// elsewhere, and from the float types its bits are read back as: the one
/// kind they all have;
/// or, where some are integers and the others one floating-point kind, that
/// kind (integers may share memory with one floating-point kind:
/// MemoryKinds.h), which is what a double copied through an int64_t is.
/// Pointers must agree exactly.
static ElementKind copyKindFromMemory(LoadInst &LI) {
  const DataLayout &DL = LI.getDataLayout();
  uint64_t Bytes = DL.getTypeStoreSize(LI.getType());
  auto KindOf = [&](const Value *Ptr) {
    ElementKind K = kindAtOffset(Ptr, Bytes, DL);
    return K != ElementKind::Unknown ? K : pointeeKind(Ptr);
  };
  SmallVector<ElementKind, 4> Kinds{KindOf(LI.getPointerOperand())};
  for (const User *U : LI.users())
    if (auto *SI = dyn_cast<StoreInst>(U))
      Kinds.push_back(KindOf(SI->getPointerOperand()));
    else if (U->getType()->isPointerTy())
      Kinds.push_back(ElementKind::Pointer);
    else
      Kinds.push_back(U->getType()->getScalarType()->isDoubleTy()
                          ? ElementKind::F64
                          : ElementKind::F32);
  if (all_equal(Kinds))
    return Kinds.front();
  ElementKind Float = ElementKind::Unknown;
  for (ElementKind K : Kinds) {
    if (K == ElementKind::Integer)
      continue;
    if ((K != ElementKind::F64 && K != ElementKind::F32) ||
        (Float != ElementKind::Unknown && Float != K))
      return ElementKind::Unknown;
    Float = K;
  }
  return Float;
}

/// A store of a float's or a pointer's bits (`store i64 (ptrtoint p)`, how
/// optimization may keep a reference in an expression object) stores the
/// float or the pointer: the same bytes, and the shadow memory mirrors it.
static void storeWithoutCasts(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  auto Uncastable = [&](const CastInst *Cast) {
    Type *From = Cast->getSrcTy();
    if (isa<BitCastInst>(Cast))
      return From->isFPOrFPVectorTy();
    return isa<PtrToIntInst>(Cast) && From->isPointerTy() &&
           DL.getTypeStoreSize(Cast->getType()) == DL.getTypeStoreSize(From);
  };
  SmallVector<StoreInst *, 8> Stores;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *SI = dyn_cast<StoreInst>(&I))
        if (auto *Cast = dyn_cast<CastInst>(SI->getValueOperand());
            Cast && Uncastable(Cast))
          Stores.push_back(SI);
  for (StoreInst *SI : Stores) {
    auto *Cast = cast<CastInst>(SI->getValueOperand());
    SI->setOperand(0, Cast->getOperand(0));
    // Left unused, a float's cast to bits would still read as its value
    // reinterpreted as bits.
    if (Cast->use_empty())
      Cast->eraseFromParent();
  }
}

/// Optimization turns small copies (memcpy of 8 bytes, struct assignment)
/// into integer loads and stores. Where TBAA says the integers are really
/// doubles, floats or pointers, the copy is retyped so that the sweeps see
/// what it moves; so are copies whose bits are read back as a float or, from
/// memory holding pointers, as a pointer. Integer copies left untyped are
/// checked by the reverse sweep.
static void retypeIntegerCopies(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<LoadInst *, 8> Loads;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *LI = dyn_cast<LoadInst>(&I))
        if (LI->getType()->isIntOrIntVectorTy() && !LI->use_empty() &&
            all_of(LI->uses(), movesBits))
          Loads.push_back(LI);
  for (LoadInst *LI : Loads) {
    bool ReadBack = any_of(LI->users(), readsBitsBack);
    // TBAA says what the access is declared as; bits read back as a float
    // or pointer say more. Without TBAA (-O0, -fno-strict-aliasing), how
    // the memory is typed elsewhere tells.
    ElementKind Kind =
        ReadBack ? ElementKind::Unknown : declaredAccessKind(*LI);
    if (Kind == ElementKind::Unknown)
      Kind = copyKindFromMemory(*LI);
    Type *T = retypedLoadType(*LI, Kind);
    if (!T || DL.getTypeStoreSize(T) != DL.getTypeStoreSize(LI->getType()))
      continue;
    IRBuilder<> B(LI);
    LoadInst *Typed = B.CreateAlignedLoad(T, LI->getPointerOperand(),
                                          LI->getAlign(), LI->isVolatile());
    Typed->copyMetadata(*LI);
    for (User *U : make_early_inc_range(LI->users())) {
      if (readsBitsBack(U)) {
        U->replaceAllUsesWith(Typed);
        cast<Instruction>(U)->eraseFromParent();
        continue;
      }
      auto *SI = cast<StoreInst>(U);
      IRBuilder<> SB(SI);
      StoreInst *New = SB.CreateAlignedStore(Typed, SI->getPointerOperand(),
                                             SI->getAlign(), SI->isVolatile());
      New->copyMetadata(*SI);
      SI->eraseFromParent();
    }
    LI->eraseFromParent();
  }
}

/// Library functions whose address the program takes (sin in a table of
/// functions, free passed as a deleter) have rules but no body, so an
/// indirect call that reaches one could not be dispatched to a derivative.
/// Each indirect call gets a direct call of every such function of its type,
/// taken when the pointer equals it; what is left stays indirect.
static void devirtualizeKnownLibraryCalls(Function &F) {
  SmallVector<CallBase *, 4> Indirect;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (classifyCall(*Call).Kind == CalleeKind::Indirect)
          Indirect.push_back(Call);
  for (CallBase *Call : Indirect)
    for (Function *Target :
         indirectCallTargets(*F.getParent(), Call->getFunctionType(),
                             /*IncludeDeclarations=*/true))
      if (Target->isDeclaration() &&
          classifyFunction(*Target).Kind != CalleeKind::External)
        promoteCallWithIfThenElse(*Call, Target);
}

Function *prepareForDifferentiation(Function &F) {
  ValueToValueMapTy VMap;
  Function *P = cloneFunction(F, VMap);
  P->setName(F.getName() + ".capsule.prep");
  P->addFnAttr(OriginalFunctionAttr, F.getName());
  P->setLinkage(GlobalValue::InternalLinkage);
  P->removeFnAttr(Attribute::OptimizeNone);
  P->removeFnAttr(Attribute::NoInline);
  lowerInvokes(*P);
  inlineAlwaysInlineCalls(*P);
  // After inlining: Fortran rules' shims call the rules.
  callRuleBodies(*P);
  lowerX86VectorOps(*P);
  callLibmForEigenPacketMath(*P);
  callMemoryIntrinsics(*P);
  // Before pointer vectors move by lane: a gather's addresses may be one.
  accessMaskedMemoryByLane(*P);
  movePointerVectorsByLane(*P);
  callUnprototypedPointersByArguments(*P);
  devirtualizeKnownLibraryCalls(*P);
  separateLibmPointerOutputs(*P);
  lowerSearchCalls(*P);
  lowerSynchronisation(*P);
  removeUnreachableBlocks(*P);
  unifyReturns(*P);
  loadSlotLanesApart(*P);
  castBitsStoredAsFloat(*P);
  promoteStackSlots(*P);
  // In SSA form, where the pointers -O0 code reloads are one value each.
  lowerSortCalls(*P);
  rebaseIntegerAddresses(*P);
  lowerCompareExchangeUpdates(*P);
  rewriteFloatBitOperations(*P);
  storeWithoutCasts(*P);
  retypeIntegerCopies(*P);
  lowerParallelForks(*P);
  simplifyLoops(*P);
  return P;
}

} // namespace capsule
