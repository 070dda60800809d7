//===- Differentiability.cpp - Constructs that would lose derivatives -----===//
#include "Analysis/Differentiability.h"

#include "Analysis/MemoryKinds.h"
#include "Support/CustomRules.h"
#include "Support/Diagnostics.h"
#include "Support/FloatBitOperations.h"
#include "Support/LibraryRules.h"
#include "Support/MarkerCalls.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace capsule {

/// An address in the first page, made from a constant: a member of a null
/// object, which optimized code keeps on a path no valid run takes
/// (`max_element(v.begin(), v.end())->w` of an empty vector reads address
/// 8). The primal's access faults before any derivative of it runs.
static bool isNullPageAddress(const Value &V) {
  constexpr uint64_t PageBytes = 4096;
  auto *Cast = dyn_cast<ConstantExpr>(&V);
  auto *Address = Cast && Cast->getOpcode() == Instruction::IntToPtr
                      ? dyn_cast<ConstantInt>(Cast->getOperand(0))
                      : nullptr;
  return Address && Address->getValue().ult(PageBytes);
}

bool DifferentiabilityChecks::knownWithoutDerivative(const Value *Ptr) const {
  SmallVector<const Value *, 8> Work{Ptr};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val()->stripPointerCasts();
    if (!Seen.insert(V).second || isa<ConstantPointerNull, UndefValue>(V) ||
        isNullPageAddress(*V))
      continue;
    if (auto *GEP = dyn_cast<GEPOperator>(V))
      Work.push_back(GEP->getPointerOperand());
    else if (auto *LI = dyn_cast<LoadInst>(V))
      Work.push_back(LI->getPointerOperand());
    else if (auto *Phi = dyn_cast<PHINode>(V))
      append_range(Work, Phi->incoming_values());
    else if (auto *Sel = dyn_cast<SelectInst>(V))
      Work.append({Sel->getTrueValue(), Sel->getFalseValue()});
    else if (auto *G = dyn_cast<GlobalVariable>(V)) {
      if (constantHasShadow(G))
        return false;
    } else if (auto *Call = dyn_cast<CallBase>(V)) {
      if (classifyCall(*Call).Kind == CalleeKind::PointerMove)
        Work.push_back(Call->getArgOperand(0));
      else if (!returnsMemoryWithoutDerivatives(*Call))
        return false;
    } else if (!isa<Argument>(V) && !isa<Function>(V)) {
      return false;
    }
  }
  return true;
}

namespace {

/// A global defined in another file (declared here, writable) whose memory
/// a pointer addresses, or out of which it was loaded.
struct ExternalGlobal {
  const GlobalVariable *G;
  bool PointerLoaded;
};

/// Capsule gives the globals of the module shadows; one defined elsewhere
/// (a file compiled without -flto, or a regular object in an LTO link) has
/// none here, and what the program stored in it before the call (a pointer
/// to the dup argument) is unknown.
std::optional<ExternalGlobal> externalGlobalBehind(const Value *Ptr) {
  bool Loaded = false;
  for (const Value *V = Ptr;;) {
    V = getUnderlyingObject(V);
    if (auto *G = dyn_cast<GlobalVariable>(V)) {
      if (!G->isDeclaration() || G->isConstant() ||
          G->getName().starts_with("llvm.") || isInactiveGlobal(*G))
        return std::nullopt;
      return ExternalGlobal{G, Loaded};
    }
    auto *Load = dyn_cast<LoadInst>(V);
    if (!Load || Loaded)
      return std::nullopt;
    Loaded = true;
    V = Load->getPointerOperand();
  }
}

} // namespace

std::optional<std::string>
DifferentiabilityChecks::externalGlobalAccess(const Instruction &I) const {
  const Value *Ptr = getLoadStorePointerOperand(&I);
  std::optional<ExternalGlobal> External =
      Ptr ? externalGlobalBehind(Ptr) : std::nullopt;
  if (!External)
    return std::nullopt;
  std::string Name = "'" + External->G->getName().str() + "'";
  const char *Remedy = "define the global in this file, or compile every "
                       "file with -flto (full LTO: ThinLTO differentiates "
                       "each file with only what it imports)";
  bool VariedStore =
      isa<StoreInst>(I) && AI.isVaried(cast<StoreInst>(I).getValueOperand());
  if (External->PointerLoaded &&
      (VariedStore || (isa<LoadInst>(I) && carriesFloat(I.getType()))))
    return "floating-point data accessed through a pointer held by " + Name +
           ", a global defined in another file (only declared here): the "
           "memory it points to may carry derivatives, which Capsule cannot "
           "see; " +
           Remedy;
  if (!External->PointerLoaded && VariedStore)
    return "differentiated value stored into " + Name +
           ", a global defined in another file (only declared here), which "
           "has no shadow in this file: its derivative would be lost; " +
           Remedy;
  return std::nullopt;
}

std::optional<std::string>
DifferentiabilityChecks::untrackedAccess(const Instruction &I) const {
  if (std::optional<std::string> Why = externalGlobalAccess(I))
    return Why;
  const Value *Ptr = getLoadStorePointerOperand(&I);
  if (!Ptr || !untrackedPointer(Ptr))
    return std::nullopt;
  bool Active = isa<LoadInst>(I)
                    ? carriesFloat(I.getType())
                    : AI.isVaried(cast<StoreInst>(I).getValueOperand());
  if (!Active)
    return std::nullopt;
  return "floating-point data accessed through a pointer whose memory has "
         "no tracked derivatives (it comes from a returned struct, an "
         "integer, or an unknown function)";
}

/// Whether the \p Bytes bytes at \p Ptr are exactly what a copy of
/// floating-point data wrote (a double memcpy'd into an int64_t at -O0):
/// the copy's destination is \p Ptr's object at the same offset, and its
/// source holds floats or doubles.
static bool copiedFromFloatData(const Value *Ptr, uint64_t Bytes,
                                const DataLayout &DL) {
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Offset, true);
  for (const User *U : Base->users()) {
    auto *Copy = dyn_cast<MemTransferInst>(U);
    auto *Len = Copy ? dyn_cast<ConstantInt>(Copy->getLength()) : nullptr;
    if (!Len || Len->getZExtValue() != Bytes || Offset != 0 ||
        Copy->getRawDest()->stripPointerCasts() != Base)
      continue;
    const Value *Src = Copy->getRawSource();
    ElementKind K = pointeeKind(Src);
    if (K == ElementKind::Unknown)
      K = kindAtAddress(Src, Bytes, DL);
    if (K == ElementKind::F64 || K == ElementKind::F32)
      return true;
  }
  return false;
}

/// What load \p LI reads, by its metadata, or else by the layout or other
/// accesses of the memory.
static ElementKind loadedKind(const LoadInst &LI, const DataLayout &DL) {
  const Value *Ptr = LI.getPointerOperand();
  uint64_t Bytes = DL.getTypeStoreSize(LI.getType());
  ElementKind K = declaredAccessKind(LI);
  if (K == ElementKind::Unknown)
    K = kindAtOffset(Ptr, Bytes, DL);
  if (K == ElementKind::Unknown)
    K = kindAtAddress(Ptr, Bytes, DL);
  return K;
}

/// Whether \p LI reads memory known to hold floats or doubles: by its
/// types, or as the destination of a copy of them.
static bool loadsFloatData(const LoadInst &LI, const DataLayout &DL) {
  ElementKind K = loadedKind(LI, DL);
  return K == ElementKind::F64 || K == ElementKind::F32 ||
         copiedFromFloatData(LI.getPointerOperand(),
                             DL.getTypeStoreSize(LI.getType()), DL);
}

bool DifferentiabilityChecks::readsFloatBitsAsNumber(const LoadInst &LI) const {
  Type *T = LI.getType();
  const Value *Ptr = LI.getPointerOperand();
  unsigned Width = T->getScalarSizeInBits();
  if (!T->isIntOrIntVectorTy() || (Width != 32 && Width != 64) ||
      !AI.hasShadow(Ptr))
    return false;
  if (all_of(LI.users(), [&](const User *U) {
        auto *SI = dyn_cast<StoreInst>(U);
        return SI && SI->getValueOperand() == &LI;
      }))
    return false;
  return loadsFloatData(LI, DL);
}

/// Whether integer \p Bits are computed from integers loaded out of memory
/// with derivatives that may hold floating-point data (not known to hold
/// integers), through integer operations, lane moves, phis and selects.
/// With \p KnownFloat, from memory known to hold floating-point data (a
/// varied float's own bits are refused where they are cast: floatToBits).
bool DifferentiabilityChecks::bitsOfShadowedData(const Value *Bits,
                                                 bool KnownFloat) const {
  SmallVector<const Value *, 8> Work{Bits};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second || !V->getType()->isIntOrIntVectorTy())
      continue;
    if (auto *LI = dyn_cast<LoadInst>(V)) {
      if (AI.hasShadow(LI->getPointerOperand()) &&
          (KnownFloat ? loadsFloatData(*LI, DL)
                      : loadedKind(*LI, DL) != ElementKind::Integer))
        return true;
      continue;
    }
    if (isa<BinaryOperator, ShuffleVectorInst, InsertElementInst,
            ExtractElementInst, PHINode, SelectInst, FreezeInst, CastInst>(V))
      for (const Use &Op : cast<User>(V)->operands())
        Work.push_back(Op);
  }
  return false;
}

std::optional<std::string>
DifferentiabilityChecks::floatToBits(const Instruction &I) const {
  if (!isa<BitCastInst>(I) || !AI.isVaried(I.getOperand(0)) ||
      carriesFloat(I.getType()) || floatBitsOnlyTested(I))
    return std::nullopt;
  return "floating-point value reinterpreted as bits; its derivative would "
         "be lost";
}

std::optional<std::string>
DifferentiabilityChecks::floatFromBits(const Instruction &I) const {
  auto *Cast = dyn_cast<BitCastInst>(&I);
  if (!Cast || !Cast->getType()->isFPOrFPVectorTy() ||
      !Cast->getSrcTy()->isIntOrIntVectorTy() ||
      !bitsOfShadowedData(Cast->getOperand(0)))
    return std::nullopt;
  return "floating-point value made from integer bits of memory that has "
         "derivatives (SIMD integer operations on doubles' bits); its "
         "derivative would be lost";
}

std::optional<std::string>
DifferentiabilityChecks::floatBitsStored(const Instruction &I) const {
  auto *SI = dyn_cast<StoreInst>(&I);
  auto *Op = SI ? dyn_cast<BinaryOperator>(SI->getValueOperand()) : nullptr;
  unsigned Width = Op ? Op->getType()->getScalarSizeInBits() : 0;
  if (!Op || (Width != 32 && Width != 64) ||
      !AI.hasShadow(SI->getPointerOperand()) ||
      // Integer vector operations on memory with derivatives are SIMD code
      // on doubles' bits unless the memory is known to hold integers; a
      // scalar one (a reference count at -O0, untyped) counts only where
      // the memory is known to hold floating point.
      !bitsOfShadowedData(Op, /*KnownFloat=*/!Op->getType()->isVectorTy()))
    return std::nullopt;
  return "integer operation on the bits of floating-point data stored into "
         "memory that has derivatives (SIMD integer operations on doubles' "
         "bits); its derivative would be lost";
}

std::optional<std::string>
DifferentiabilityChecks::handedPointer(const Value *V) const {
  if (!V->getType()->isPointerTy() || !untrackedPointer(V))
    return std::nullopt;
  return "pointer of unknown origin (made from an integer, or returned by a "
         "function without a body) passed to or returned from a "
         "differentiated function";
}

/// The first operand of phi or select \p I that is a pointer of unknown
/// origin, when \p I has a shadow.
static const Value *untrackedMerged(const DifferentiabilityChecks &Checks,
                                    const ActivityInfo &AI,
                                    const Instruction &I) {
  if (!isa<PHINode, SelectInst>(I) || !I.getType()->isPointerTy() ||
      !AI.hasShadow(&I))
    return nullptr;
  for (const Use &U : I.operands())
    if (U->getType()->isPointerTy() && Checks.untrackedPointer(U.get()))
      return U.get();
  return nullptr;
}

const Instruction &
DifferentiabilityChecks::mergeSite(const Instruction &I) const {
  auto *Made = dyn_cast_or_null<Instruction>(untrackedMerged(*this, AI, I));
  return Made && Made->getDebugLoc() ? *Made : I;
}

std::optional<std::string>
DifferentiabilityChecks::mergedPointer(const Instruction &I) const {
  if (!untrackedMerged(*this, AI, I))
    return std::nullopt;
  return "pointer of unknown origin (made from an integer, or returned by a "
         "function without a body) merged with pointers that have "
         "derivatives";
}

std::optional<std::string>
DifferentiabilityChecks::handedInteger(const Value *V) const {
  auto *Load = dyn_cast<LoadInst>(V);
  if (!Load || !V->getType()->isIntegerTy() ||
      !AI.hasShadow(Load->getPointerOperand()) ||
      !layoutHasFloatingPoint(Load->getPointerOperand(),
                              DL.getTypeStoreSize(V->getType()), DL))
    return std::nullopt;
  return "struct with floating-point fields passed by value in an integer "
         "register (such as {int, float}); its derivative would be lost "
         "(pass it by pointer)";
}

std::string DifferentiabilityChecks::whyNoDerivative(const CallBase &Call,
                                                     const Function *Callee) {
  // A marker declared with several prototypes (`pair __enzyme_autodiff2(...)
  // __asm__("__enzyme_autodiff")`) is called through a type of its own.
  if (auto *Target =
          dyn_cast<Function>(Call.getCalledOperand()->stripPointerCasts());
      !Callee && Target && markerKind(*Target))
    Callee = Target;
  if (!Callee)
    return Call.isInlineAsm()
               ? "inline assembly receives active data"
               : "indirect call of a variadic function type receives "
                 "active data";
  std::string Name = "'" + displayName(*Callee) + "'";
  if (markerKind(*Callee) == MarkerKind::AutodiffCheckpointed)
    return "a checkpointed gradient inside code differentiated in reverse "
           "mode (reverse over reverse) is not supported yet; for second "
           "derivatives use forward mode over it (__enzyme_fwddiff of a "
           "function that calls __capsule_autodiff_checkpointed)";
  if (markerKind(*Callee))
    return "a derivative call inside differentiated code that cannot be "
           "lowered first (it differentiates a function that reaches it) is "
           "not supported";
  if (runMarkerKind(*Callee))
    return "interruptible execution (__capsule_interrupt, "
           "__capsule_primops) inside differentiated code is not supported";
  if (std::optional<StringRef> Routine = libraryRoutineOfRule(*Callee))
    return "nested derivatives (forward over reverse, reverse over reverse, "
           "or derivatives of a derivative) of the library routine '" +
           Routine->str() +
           "' are not supported yet: Capsule's built-in rules of this "
           "routine cannot be differentiated in turn (those of BLAS can, on "
           "x86-64 Linux); register rules of your own for it "
           "(CAPSULE_GRADIENT, CAPSULE_DERIVATIVE), whose bodies Capsule "
           "differentiates";
  if (Callee->isDeclaration() && tangentRule(*Callee) && !gradientRule(*Callee))
    return Name +
           " has a tangent rule (forward mode) but no gradient rule, and no "
           "body here to differentiate in reverse mode; register one "
           "(__enzyme_register_gradient or CAPSULE_GRADIENT)";
  if (Callee->isDeclaration() && gradientRule(*Callee) && !tangentRule(*Callee))
    return Name +
           " has a gradient rule (reverse mode) but no tangent rule, and no "
           "body here to differentiate in forward mode; register one "
           "(__enzyme_register_derivative or CAPSULE_DERIVATIVE)";
  if (Callee->isVarArg() && !Callee->isDeclaration())
    return "call to the variadic function " + Name +
           " with active data; variadic functions cannot be "
           "differentiated yet";
  if (Callee->isIntrinsic())
    return "LLVM intrinsic " + Name +
           " receives active data, and Capsule has no derivative rule for "
           "it";
  return "call to a function without a body and without a known "
         "derivative (" +
         Name +
         "); define it in this translation unit, register a derivative rule "
         "for it (CAPSULE_GRADIENT and CAPSULE_DERIVATIVE, or Enzyme's "
         "__enzyme_register_gradient and __enzyme_register_derivative), or "
         "pass only constant data to it";
}

std::optional<std::string>
DifferentiabilityChecks::whyNotNestable(NestedRuntime Kind, bool Forward) {
  switch (Kind) {
  case NestedRuntime::GradientCall:
  case NestedRuntime::BindGlobals:
  case NestedRuntime::PlaceOf:
  case NestedRuntime::PlaceFill:
  case NestedRuntime::TapeSlowPath:
  case NestedRuntime::ShadowAlloc:
  case NestedRuntime::ShadowUpdate:
  case NestedRuntime::CopyAdjoint:
  case NestedRuntime::DeferFree:
  case NestedRuntime::ShadowRealloc:
  case NestedRuntime::ReallocAdjoint:
  case NestedRuntime::SinkOf:
  case NestedRuntime::LoadedSinkOf:
  case NestedRuntime::SinkFill:
  case NestedRuntime::TangentAlloc:
  case NestedRuntime::TangentFree:
  case NestedRuntime::TangentRealloc:
  case NestedRuntime::TangentBegin:
    return std::nullopt;
  case NestedRuntime::OverGradient:
    return std::string(
        "differentiating a forward-mode derivative of a gradient (a third "
        "level over reverse mode) is not supported yet");
  case NestedRuntime::OuterGradient:
    return std::string(
        "differentiating a gradient of code that itself computes gradients "
        "(a third level over reverse mode) is not supported yet");
  case NestedRuntime::CheckpointedTangent:
    return std::string(
        "differentiating a forward-mode derivative of a checkpointed "
        "gradient (a third level over reverse mode) is not supported yet");
  case NestedRuntime::NestedSinkOf:
  case NestedRuntime::NestedSinkFill:
    if (!Forward)
      return std::nullopt;
    return std::string(
        "forward mode nested three or more levels deep over code that "
        "keeps tangents of memory without derivatives (pointers to constant "
        "data beside pointers with tangents, such as an accessor's result) "
        "is not supported yet");
  }
  llvm_unreachable("unknown runtime call");
}

} // namespace capsule
