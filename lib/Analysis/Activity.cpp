//===- Activity.cpp - Which values carry derivatives ----------------------===//
#include "Analysis/Activity.h"

#include "Analysis/CallClassifier.h"
#include "Support/CustomRules.h"
#include "Support/MarkerCalls.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace capsule {

static bool globalHasShadow(const GlobalVariable &G,
                            SmallPtrSetImpl<const GlobalVariable *> &Seen);

/// Whether constant data holds the address of memory with a shadow.
static bool
holdsShadowedAddress(const Constant &C,
                     SmallPtrSetImpl<const GlobalVariable *> &Seen) {
  if (auto *G = dyn_cast<GlobalVariable>(&C))
    return globalHasShadow(*G, Seen);
  return any_of(C.operands(), [&](const Use &U) {
    auto *Operand = dyn_cast<Constant>(U.get());
    return Operand && holdsShadowedAddress(*Operand, Seen);
  });
}

/// Mutable globals have shadows (unless the user said they are inactive:
/// Support/CustomRules.h), and so do constant ones that hold the
/// address of memory with a shadow (`double *const rows[] = {a, b}`, or
/// clang's -O0 source for a local array initialised with addresses): code
/// reaches that memory through the pointers it loads from them, so their
/// shadows hold the pointers' shadows (filled in at each gradient call,
/// runtime/GlobalShadows.cpp).
static bool globalHasShadow(const GlobalVariable &G,
                            SmallPtrSetImpl<const GlobalVariable *> &Seen) {
  if (G.isDeclaration() || G.getName().starts_with("llvm.") ||
      isInactiveGlobal(G))
    return false;
  if (!G.isConstant())
    return true;
  return G.hasInitializer() && Seen.insert(&G).second &&
         holdsShadowedAddress(*G.getInitializer(), Seen);
}

bool constantHasShadow(const Constant *C) {
  const Value *Base = C->stripPointerCasts();
  if (auto *GEP = dyn_cast<GEPOperator>(Base))
    return constantHasShadow(cast<Constant>(GEP->getPointerOperand()));
  auto *G = dyn_cast<GlobalVariable>(Base);
  SmallPtrSet<const GlobalVariable *, 4> Seen;
  return G && globalHasShadow(*G, Seen);
}

/// A stack slot only ever read and written as integers needs no shadow.
static bool onlyIntegerAccesses(const AllocaInst &AI) {
  for (const User *U : AI.users()) {
    if (auto *LI = dyn_cast<LoadInst>(U)) {
      if (!LI->getType()->isIntegerTy())
        return false;
    } else if (auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getValueOperand() == &AI ||
          !SI->getValueOperand()->getType()->isIntegerTy())
        return false;
    } else if (!isa<LifetimeIntrinsic>(U)) {
      return false;
    }
  }
  return true;
}

ActivityInfo::ActivityInfo(Function &Prepared, const DiffSignature &Sig)
    : F(Prepared), Sig(Sig), Slots(Prepared) {
  computeShadows();
  computeVaried();
  computeUseful();
}

bool ActivityInfo::hasShadow(const Value *V) const {
  if (auto *A = dyn_cast<Argument>(V))
    return Sig.Args[A->getArgNo()] == ArgActivity::Dup;
  if (auto *C = dyn_cast<Constant>(V))
    // The inner tape's header: forward and reverse mode over a gradient give
    // it a twin (the tangent or the adjoint tape).
    return V->getType()->isPointerTy() &&
           (constantHasShadow(C) || isTapeHeader(C));
  return Shadowed.contains(V);
}

bool ActivityInfo::shadowSource(const Instruction &I) const {
  if (auto *AI = dyn_cast<AllocaInst>(&I))
    return !onlyIntegerAccesses(*AI);
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&I))
    return hasShadow(GEP->getPointerOperand());
  if (auto *Phi = dyn_cast<PHINode>(&I))
    return any_of(Phi->incoming_values(),
                  [&](const Value *V) { return hasShadow(V); });
  if (auto *Sel = dyn_cast<SelectInst>(&I))
    return hasShadow(Sel->getTrueValue()) || hasShadow(Sel->getFalseValue());
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return hasShadow(LI->getPointerOperand());
  if (isa<AddrSpaceCastInst, FreezeInst>(I))
    return hasShadow(I.getOperand(0));
  // Pointers travel in aggregates too ({ptr, ptr} returned in registers).
  if (auto *EV = dyn_cast<ExtractValueInst>(&I))
    return hasShadow(EV->getAggregateOperand());
  if (auto *IV = dyn_cast<InsertValueInst>(&I))
    return hasShadow(IV->getAggregateOperand()) ||
           hasShadow(IV->getInsertedValueOperand());
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    // An inner forward-mode call's tangent blocks (nested differentiation).
    std::optional<NestedRuntime> Nested = nestedRuntimeCall(*Call);
    // An inner gradient's tape records and shadow blocks (forward or
    // reverse mode over a gradient).
    if (Nested == NestedRuntime::TangentAlloc ||
        Nested == NestedRuntime::TangentRealloc ||
        Nested == NestedRuntime::SinkOf ||
        Nested == NestedRuntime::LoadedSinkOf ||
        Nested == NestedRuntime::NestedSinkOf ||
        Nested == NestedRuntime::TapeSlowPath ||
        Nested == NestedRuntime::ShadowAlloc ||
        Nested == NestedRuntime::ShadowRealloc ||
        Nested == NestedRuntime::PlaceOf)
      return true;
    switch (classifyCall(*Call).Kind) {
    case CalleeKind::Alloc:
    case CalleeKind::Calloc:
    case CalleeKind::AlignedAlloc:
    case CalleeKind::Realloc:
    case CalleeKind::Module:
    case CalleeKind::Indirect:
      return true;
    case CalleeKind::PointerCast:
    case CalleeKind::PointerMove:
      return hasShadow(Call->getArgOperand(0));
    default:
      return false;
    }
  }
  return false;
}

/// Adds to \p Set every instruction of a type \p Carries accepts that
/// \p Source says derives from the set, until nothing changes (loops make
/// one pass not enough).
template <typename CarriesFn, typename SourceFn>
static void growToFixpoint(Function &F, DenseSet<const Value *> &Set,
                           CarriesFn Carries, SourceFn Source) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction &I : instructions(F))
      if (Carries(I.getType()) && !Set.contains(&I) && Source(I)) {
        Set.insert(&I);
        Changed = true;
      }
  }
}

void ActivityInfo::computeShadows() {
  growToFixpoint(F, Shadowed, carriesPointer,
                 [&](const Instruction &I) { return shadowSource(I); });
}

bool ActivityInfo::variedSource(const Instruction &I) const {
  auto AnyOperandVaried = [&] {
    return any_of(I.operands(), [&](const Use &U) { return isVaried(U); });
  };
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return hasShadow(LI->getPointerOperand()) &&
           !inQuietSlot(LI->getPointerOperand());
  // The old value an atomic update returns.
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->isFloatingPointOperation() &&
           hasShadow(RMW->getPointerOperand());
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    // The adjoints a checkpointed gradient returns depend on its arguments
    // (forward mode over it: Forward/CheckpointedTangents.cpp).
    if (markerCallKind(*Call) == MarkerKind::AutodiffCheckpointed)
      return true;
    switch (classifyCall(*Call).Kind) {
    case CalleeKind::Math:
      return any_of(Call->args(), [&](const Use &U) { return isVaried(U); });
    case CalleeKind::Module:
    case CalleeKind::Indirect:
      // The callee may read active memory, whatever its arguments.
      return true;
    default:
      return false;
    }
  }
  if (isa<SIToFPInst, UIToFPInst, BitCastInst>(I))
    return false;
  if (isa<PHINode, SelectInst, UnaryOperator, BinaryOperator, FPExtInst,
          FPTruncInst, FreezeInst, ExtractValueInst, InsertValueInst,
          ExtractElementInst, InsertElementInst, ShuffleVectorInst>(I))
    return AnyOperandVaried();
  return false;
}

bool ActivityInfo::inQuietSlot(const Value *Ptr) const {
  std::optional<LocalSlot> Slot = Slots.slotOf(Ptr);
  return Slot && QuietSlots.contains(*Slot);
}

void ActivityInfo::computeVaried() {
  for (Argument &A : F.args())
    if (Sig.Args[A.getArgNo()] == ArgActivity::Out)
      Varied.insert(&A);
  // Private slots start out quiet (holding no derivatives) and lose that as
  // soon as an active value is stored into them. In checkpointed code this
  // is what keeps constant data inactive across yields.
  QuietSlots = Slots.privateSlots();
  for (bool Changed = true; Changed;) {
    growToFixpoint(F, Varied, carriesFloat,
                   [&](const Instruction &I) { return variedSource(I); });
    Changed = false;
    for (Instruction &I : instructions(F))
      if (auto *SI = dyn_cast<StoreInst>(&I))
        if (isVaried(SI->getValueOperand()))
          if (std::optional<LocalSlot> Slot =
                  Slots.slotOf(SI->getPointerOperand()))
            Changed |= QuietSlots.erase(*Slot);
  }
}

void ActivityInfo::markUsefulRoots(SmallVectorImpl<const Value *> &Work) {
  auto Root = [&](const Value *V) {
    if (isVaried(V) && Useful.insert(V).second)
      Work.push_back(V);
  };
  for (Instruction &I : instructions(F)) {
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      if (hasShadow(SI->getPointerOperand()))
        Root(SI->getValueOperand());
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      if (hasShadow(RMW->getPointerOperand()))
        Root(RMW->getValOperand());
    } else if (auto *RI = dyn_cast<ReturnInst>(&I)) {
      if (Sig.ActiveReturn && RI->getReturnValue())
        Root(RI->getReturnValue());
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      CalleeKind Kind = classifyCall(*Call).Kind;
      if (Kind == CalleeKind::Module || Kind == CalleeKind::Indirect)
        for (const Use &U : Call->args())
          Root(U);
    }
  }
}

void ActivityInfo::computeUseful() {
  SmallVector<const Value *, 64> Work;
  markUsefulRoots(Work);
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || isa<LoadInst>(I))
      continue;
    if (auto *Call = dyn_cast<CallBase>(I))
      if (classifyCall(*Call).Kind != CalleeKind::Math)
        continue;
    for (const Use &U : I->operands())
      if (isVaried(U) && Useful.insert(U).second)
        Work.push_back(U);
  }
}

} // namespace capsule
