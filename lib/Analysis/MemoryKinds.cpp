//===- MemoryKinds.cpp - What kind of data a copy moves -------------------===//
#include "Analysis/MemoryKinds.h"

#include "Analysis/CallClassifier.h"
#include "Analysis/DeclaredTypes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

static ElementKind tagKind(const MDNode *Tag);

/// clang lays out a union as one of its members (`union.U = { i64, i64 }`
/// for libstdc++'s std::function storage, which holds the functor's
/// captured doubles): its type says nothing about what the bytes hold.
static bool isUnion(const Type *T) {
  auto *S = dyn_cast<StructType>(T);
  return S && S->hasName() && S->getName().starts_with("union.");
}

bool holdsUnion(const Type *T) {
  if (auto *A = dyn_cast<ArrayType>(T))
    return holdsUnion(A->getElementType());
  if (auto *S = dyn_cast<StructType>(T))
    return isUnion(S) || any_of(S->elements(), holdsUnion);
  return false;
}

namespace {

/// The kinds seen so far, as a bit set.
struct Evidence {
  bool F64 = false, F32 = false, Pointer = false, Integer = false;

  void addType(Type *T) {
    if (T->isDoubleTy())
      F64 = true;
    else if (T->isFloatTy())
      F32 = true;
    else if (T->isPointerTy())
      Pointer = true;
    // Byte-typed accesses say nothing: optimized code addresses any memory
    // with i8 offsets.
    else if (T->isIntegerTy() && !T->isIntegerTy(8))
      Integer = true;
    else if (holdsUnion(T))
      return;
    else if (auto *S = dyn_cast<StructType>(T))
      for (Type *E : S->elements())
        addType(E);
    else if (auto *A = dyn_cast<ArrayType>(T))
      addType(A->getElementType());
    else if (auto *V = dyn_cast<VectorType>(T))
      addType(V->getElementType());
  }
  /// A load or store: 32- and 64-bit integers say nothing, since optimized
  /// code copies doubles, floats and pointers as such integers, and SIMD
  /// code reads and writes doubles' bits as vectors of them.
  void addAccessType(Type *T) {
    Type *Lane = T->getScalarType();
    if (!Lane->isIntegerTy(32) && !Lane->isIntegerTy(64))
      addType(T);
  }
  bool any() const { return F64 || F32 || Pointer || Integer; }
  void addKind(ElementKind K) {
    F64 |= K == ElementKind::F64;
    F32 |= K == ElementKind::F32;
    Pointer |= K == ElementKind::Pointer;
    Integer |= K == ElementKind::Integer;
  }

  /// Integers may share memory with one floating-point kind: the shadow of
  /// integer data is never written (integer stores leave shadows alone,
  /// constant ones zero them), so the floating-point rule adds zeros there.
  /// Pointers may not: their shadow lanes hold live shadow pointers.
  ElementKind kind() const {
    bool Floats = F64 || F32;
    if (Floats && (Pointer || (F64 && F32)))
      return ElementKind::Unknown;
    if (F64)
      return ElementKind::F64;
    if (F32)
      return ElementKind::F32;
    if (Pointer)
      return ElementKind::Pointer;
    return Integer ? ElementKind::Integer : ElementKind::Unknown;
  }
};

/// Whether two address computations certainly give the same address.
bool sameAddress(const Value *A, const Value *B) {
  if (A == B)
    return true;
  auto *GA = dyn_cast<GEPOperator>(A), *GB = dyn_cast<GEPOperator>(B);
  return GA && GB && GA->getSourceElementType() == GB->getSourceElementType() &&
         GA->getNumOperands() == GB->getNumOperands() &&
         sameAddress(GA->getPointerOperand(), GB->getPointerOperand()) &&
         std::equal(GA->idx_begin(), GA->idx_end(), GB->idx_begin());
}

/// Pointers kept in memory (`a->v = realloc(a->v, n)`) are accessed through
/// other loads of the same field: those loads, in the same function.
SmallVector<const LoadInst *, 4> reloadsOf(const Value *Address,
                                           const Function &F) {
  SmallVector<const LoadInst *, 4> Loads;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *LI = dyn_cast<LoadInst>(&I))
        if (LI->getType()->isPointerTy() &&
            sameAddress(LI->getPointerOperand(), Address))
          Loads.push_back(LI);
  return Loads;
}

void addDirectUses(Evidence &E, const Value *Ptr);

/// Types of the accesses made through \p Ptr, directly or through reloads
/// of the memory it was stored to or loaded from.
void addUses(Evidence &E, const Value *Ptr) {
  addDirectUses(E, Ptr);
  const Function *F = nullptr;
  if (auto *I = dyn_cast<Instruction>(Ptr))
    F = I->getFunction();
  if (!F)
    return;
  SmallVector<const Value *, 4> Addresses;
  if (auto *LI = dyn_cast<LoadInst>(Ptr))
    Addresses.push_back(LI->getPointerOperand());
  for (const User *U : Ptr->users())
    if (auto *SI = dyn_cast<StoreInst>(U))
      if (SI->getValueOperand() == Ptr)
        Addresses.push_back(SI->getPointerOperand());
  for (const Value *Address : Addresses)
    for (const LoadInst *Reload : reloadsOf(Address, *F))
      if (Reload != Ptr)
        addDirectUses(E, Reload);
}

/// Whether \p U is a realloc of \p P.
bool reallocates(const User &U, const Value *P) {
  auto *Call = dyn_cast<CallBase>(&U);
  return Call && Call->arg_size() > 0 && Call->getArgOperand(0) == P &&
         classifyCall(*Call).Kind == CalleeKind::Realloc;
}

/// Whether \p GEP addresses a union, a member of one, or a struct that
/// holds one. Not another field of a struct holding a union (the manager
/// pointer beside std::function's storage): what is accessed there says
/// nothing about the union.
bool reachesUnion(const GetElementPtrInst &GEP) {
  for (gep_type_iterator T = gep_type_begin(GEP), End = gep_type_end(GEP);
       T != End; ++T)
    if (isUnion(T.getIndexedType()))
      return true;
  return holdsUnion(GEP.getResultElementType());
}

/// Types of the accesses made directly through \p Ptr, or through the
/// phis and selects that merge it with other pointers (a pointer kept in a
/// loop-carried variable), or through the blocks reallocs make of it and
/// it was made of, or through the addresses of the unions in it.
void addDirectUses(Evidence &E, const Value *Ptr) {
  SmallVector<const Value *, 8> Work{Ptr};
  SmallPtrSet<const Value *, 8> Seen{Ptr};
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val();
    for (const User *U : P->users()) {
      if (auto *LI = dyn_cast<LoadInst>(U))
        E.addAccessType(LI->getType());
      else if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() == P)
          E.addAccessType(SI->getValueOperand()->getType());
      } else if (auto *GEP = dyn_cast<GetElementPtrInst>(U)) {
        if (GEP->getPointerOperand() != P)
          continue;
        E.addType(GEP->getSourceElementType());
        // A union's type says nothing; how its members are accessed does.
        if (reachesUnion(*GEP) && Seen.insert(GEP).second)
          Work.push_back(GEP);
      } else if (isa<PHINode, SelectInst>(U) && Seen.insert(U).second) {
        Work.push_back(U);
      } else if (reallocates(*U, P) && Seen.insert(U).second) {
        Work.push_back(U); // the block it becomes holds the same data
      }
    }
    // A null or undefined incoming pointer is no memory: its users are
    // every null pointer of the module (other functions' empty vectors).
    if (auto *Phi = dyn_cast<PHINode>(P))
      for (const Value *In : Phi->incoming_values())
        if (In->getType()->isPointerTy() &&
            !isa<ConstantPointerNull, UndefValue>(In) && Seen.insert(In).second)
          Work.push_back(In);
    // A reallocated block holds the data of the block it was.
    if (auto *Call = dyn_cast<CallBase>(P);
        Call && reallocates(*Call, Call->getArgOperand(0)) &&
        Seen.insert(Call->getArgOperand(0)).second)
      Work.push_back(Call->getArgOperand(0));
  }
}

} // namespace

/// The user's function a (prepared clone's) argument stands for.
static const Function *originalFunction(const Function *F) {
  Attribute A = F->getFnAttribute(OriginalFunctionAttr);
  if (!A.isValid())
    return F;
  const Function *Original = F->getParent()->getFunction(A.getValueAsString());
  return Original ? Original : F;
}

SmallVector<const Value *, 4> argumentsPassedTo(const Argument &Param) {
  SmallVector<const Value *, 4> Args;
  const Function *F = originalFunction(Param.getParent());
  for (const User *U : F->users())
    if (auto *Call = dyn_cast<CallBase>(U))
      if (Call->getCalledOperand() == F && Param.getArgNo() < Call->arg_size())
        Args.push_back(Call->getArgOperand(Param.getArgNo()));
  return Args;
}

namespace {

/// The memory object a pointer table lives in: a stack slot or a global;
/// in a step function, where stack slots are parts of the record argument,
/// the record and the slot's offset.
struct Container {
  const Value *Object = nullptr;
  int64_t Slot = 0;
  bool operator==(const Container &O) const {
    return Object == O.Object && Slot == O.Slot;
  }
};

/// Where \p Address lies: down its GEPs (of any index: the table may be
/// indexed at run time) and through the phis of a step function's slot
/// pointer (reloaded after each resume), whose incoming addresses must all
/// agree, to the object. Offsets within a stack slot or global do not
/// matter; within a record argument, the constant offset of the GEP taken
/// of the record itself names the slot.
Container containerOf(const Value *Address, const DataLayout &DL) {
  constexpr unsigned MaxVisited = 64;
  SmallVector<const Value *, 8> Work{Address};
  SmallPtrSet<const Value *, 8> Seen{Address};
  std::optional<Container> Common;
  while (!Work.empty()) {
    const Value *P = Work.pop_back_val(), *Above = nullptr;
    while (auto *GEP = dyn_cast<GEPOperator>(P)) {
      Above = GEP;
      P = GEP->getPointerOperand();
    }
    if (auto *Phi = dyn_cast<PHINode>(P)) {
      for (const Value *In : Phi->incoming_values())
        if (Seen.insert(In).second)
          Work.push_back(In);
      if (Seen.size() > MaxVisited)
        return {};
      continue;
    }
    Container C;
    APInt Offset(DL.getIndexTypeSizeInBits(P->getType()), 0);
    if (isa<AllocaInst, GlobalVariable>(P))
      C = {P, 0};
    else if (isa<Argument>(P) && Above &&
             cast<GEPOperator>(Above)->accumulateConstantOffset(DL, Offset))
      C = {P, Offset.getSExtValue()};
    if (!C.Object || (Common && !(*Common == C)))
      return {};
    Common = C;
  }
  return Common.value_or(Container());
}

void addPointer(Evidence &E, const Value *Ptr, unsigned Depth = 0);

/// A pointer loaded out of a table of pointers (`double *rows[3] = {x, t,
/// g}`, permuted at run time) points to what is stored into that table: the
/// pointers stored there, or those of the constant it is initialised from;
/// in this function, or for a global table in any function and in its
/// initializer.
void addStoredPointers(Evidence &E, const LoadInst &Load, unsigned Depth) {
  const DataLayout &DL = Load.getDataLayout();
  Container Table = containerOf(Load.getPointerOperand(), DL);
  if (!Table.Object || Depth >= 2)
    return;
  auto AddInitializer = [&](const Constant &Init) {
    for (const Use &U : Init.operands())
      if (U->getType()->isPointerTy() && !cast<Constant>(U)->isNullValue())
        addPointer(E, U.get(), Depth + 1);
  };
  auto AddStoresIn = [&](const Function &F) {
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB) {
        if (auto *SI = dyn_cast<StoreInst>(&I)) {
          if (SI->getValueOperand()->getType()->isPointerTy() &&
              containerOf(SI->getPointerOperand(), DL) == Table)
            addPointer(E, SI->getValueOperand(), Depth + 1);
        } else if (auto *Copy = dyn_cast<MemTransferInst>(&I)) {
          auto *Init =
              dyn_cast<GlobalVariable>(getUnderlyingObject(Copy->getSource()));
          if (Init && Init->isConstant() && Init->hasInitializer() &&
              containerOf(Copy->getDest(), DL) == Table)
            AddInitializer(*Init->getInitializer());
        }
      }
  };
  auto *Global = dyn_cast<GlobalVariable>(Table.Object);
  if (!Global)
    return AddStoresIn(*Load.getFunction());
  if (const Constant *Init =
          Global->hasInitializer() ? Global->getInitializer() : nullptr) {
    if (!Init->getType()->isPointerTy())
      AddInitializer(*Init);
    else if (!Init->isNullValue())
      addPointer(E, Init, Depth + 1);
  }
  for (const Function &F : *Load.getModule())
    AddStoresIn(F);
}

/// In a step function, stack slots are parts of the record argument: what
/// is accessed in the same slot (not elsewhere in the record) tells what
/// the slot holds. Likewise for constant offsets from any pointer argument.
void addSlotAccesses(Evidence &E, const Value *Ptr) {
  auto *At = dyn_cast<Instruction>(Ptr);
  if (!At)
    return;
  const DataLayout &DL = At->getDataLayout();
  Container Slot = containerOf(Ptr, DL);
  if (!Slot.Object || !isa<Argument>(Slot.Object))
    return;
  for (const BasicBlock &BB : *At->getFunction())
    for (const Instruction &I : BB) {
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        if (containerOf(LI->getPointerOperand(), DL) == Slot)
          E.addAccessType(LI->getType());
      } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (containerOf(SI->getPointerOperand(), DL) == Slot)
          E.addAccessType(SI->getValueOperand()->getType());
      } else if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
        if (containerOf(GEP, DL) == Slot)
          E.addType(GEP->getSourceElementType());
      }
    }
}

/// The TBAA tag of a struct's field that \p Ptr is loaded from or stored
/// to, if it has one (a field of a named type: !{struct, access, offset}).
const MDNode *fieldTagOf(const Value *Ptr) {
  auto FieldTag = [](const Instruction &I) -> const MDNode * {
    const MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa);
    return Tag && Tag->getNumOperands() >= 3 &&
                   Tag->getOperand(0) != Tag->getOperand(1)
               ? Tag
               : nullptr;
  };
  if (auto *Load = dyn_cast<LoadInst>(Ptr))
    if (const MDNode *Tag = FieldTag(*Load))
      return Tag;
  for (const User *U : Ptr->users())
    if (auto *Store = dyn_cast<StoreInst>(U);
        Store && Store->getValueOperand() == Ptr)
      if (const MDNode *Tag = FieldTag(*Store))
        return Tag;
  return nullptr;
}

/// A pointer kept in a field of a struct (a container's buffer, copied by
/// its copy constructor): what the module accesses through the pointers it
/// loads from that field of that struct, wherever (TBAA names the field).
void addSameFieldUses(Evidence &E, const Value *Ptr) {
  const MDNode *Tag = fieldTagOf(Ptr);
  auto *I = dyn_cast<Instruction>(Ptr);
  if (!Tag || !I)
    return;
  for (const Function &F : *I->getModule())
    for (const Instruction &J : instructions(F))
      if (isa<LoadInst>(J) && J.getType()->isPointerTy() &&
          J.getMetadata(LLVMContext::MD_tbaa) == Tag)
        addDirectUses(E, &J);
}

/// Where the pointer phi \p V starts, when every other incoming value steps
/// the phi itself (`p++` in a hand-written copy loop: `*d++ = *s++`): the
/// pointer stays in the memory it starts in.
static const Value *startOfSteppedPointer(const Value *V) {
  auto *Phi = dyn_cast<PHINode>(V);
  if (!Phi)
    return nullptr;
  const Value *Start = nullptr;
  for (const Value *In : Phi->incoming_values()) {
    if (getUnderlyingObject(In) == Phi)
      continue;
    if (Start && Start != In)
      return nullptr;
    Start = In;
  }
  return Start;
}

void addPointer(Evidence &E, const Value *Ptr, unsigned Depth) {
  if (auto *GEP = dyn_cast<GEPOperator>(Ptr))
    E.addType(GEP->getResultElementType());
  addUses(E, Ptr);
  if (E.any())
    return;
  addSlotAccesses(E, Ptr);
  if (E.any())
    return;
  const Value *Base = getUnderlyingObject(Ptr);
  for (unsigned Hops = 0; Hops < 4; ++Hops) {
    const Value *Start = startOfSteppedPointer(Base);
    if (!Start)
      break;
    Base = getUnderlyingObject(Start);
  }
  if (auto *AI = dyn_cast<AllocaInst>(Base))
    E.addType(AI->getAllocatedType());
  else if (auto *G = dyn_cast<GlobalVariable>(Base))
    E.addType(G->getValueType());
  if (!E.any())
    addUses(E, Base);
  if (auto *Load = dyn_cast<LoadInst>(Base); Load && !E.any())
    addStoredPointers(E, *Load, Depth);
  if (!E.any())
    addSameFieldUses(E, Base);
  // What the source declared the pointer to point to (debug information):
  // a copy in a library's generic code, or at -O0, whose IR says nothing.
  for (const Value *P : {Ptr, Base})
    if (auto Runs = E.any() ? std::nullopt : declaredRunsUnder(P, 0)) {
      E.addKind(ElementKind::Integer); // beside floating point, it is that
      for (const MemoryRun &Run : *Runs)
        E.addKind(Run.Kind);
    }
  // A helper copying through its parameters (`*d = *s`) says nothing about
  // the type; its callers' arguments do. Two levels of callers at most.
  auto *Param = dyn_cast<Argument>(Base);
  if (E.any() || !Param || Depth >= 2)
    return;
  for (const Value *Arg : argumentsPassedTo(*Param))
    addPointer(E, Arg, Depth + 1);
}

/// The kinds clang records for an aggregate copy in !tbaa.struct: triples
/// of (offset, size, access tag). Used only when every field's kind is
/// known: clang tags arrays as `omnipotent char`, and a copy whose double
/// array was skipped would pass for integer data.
void addTBAAStruct(Evidence &E, const Instruction &Copy) {
  auto *MD = Copy.getMetadata(LLVMContext::MD_tbaa_struct);
  if (!MD)
    return;
  Evidence Fields;
  for (unsigned I = 2; I < MD->getNumOperands(); I += 3) {
    ElementKind K = tagKind(dyn_cast<MDNode>(MD->getOperand(I)));
    if (K == ElementKind::Unknown)
      return;
    Fields.addKind(K);
  }
  E = Fields;
}

} // namespace

/// The element type of \p T's arrays, however nested.
static Type *withoutArrays(Type *T) {
  while (auto *A = dyn_cast<ArrayType>(T))
    T = A->getElementType();
  return T;
}

/// What \p V holds when it is a load of a stack slot stored once, as an
/// -O0 function's copy of its parameter.
static const Value *storedOnceInSlot(const Value *V) {
  auto *Load = dyn_cast<LoadInst>(V);
  auto *Slot = Load ? dyn_cast<AllocaInst>(Load->getPointerOperand()) : nullptr;
  if (!Slot)
    return nullptr;
  const Value *Stored = nullptr;
  for (const User *U : Slot->users()) {
    auto *SI = dyn_cast<StoreInst>(U);
    if (SI && SI->getPointerOperand() == Slot && !Stored)
      Stored = SI->getValueOperand();
    else if (SI || !isa<LoadInst>(U))
      return nullptr;
  }
  return Stored;
}

namespace {

/// A struct type, and where in its memory image a pointer points.
struct StructAt {
  StructType *Type = nullptr;
  int64_t Offset = 0;
};

} // namespace

/// A struct type the memory \p Base points to is an array of (or one
/// element of), and \p Base's offset from an element's start: how it is
/// allocated, or how neighbouring code indexes it. Loop pointers (a phi
/// stepping by byte offsets) are followed to where they start, parameters
/// to what the callers pass (a member's address is at its offset in the
/// caller's struct). The search is bounded; in a step function each phi
/// has a reload from the record (a dead end here) for every resume block
/// that reaches it, which the bound leaves room for.
static StructAt structTypeAt(const Value *Base, const DataLayout &DL) {
  constexpr unsigned MaxVisited = 32;
  SmallVector<std::pair<const Value *, int64_t>, 8> Work{{Base, 0}};
  SmallPtrSet<const Value *, 8> Seen{Base};
  while (!Work.empty() && Seen.size() <= MaxVisited) {
    auto [V, Offset] = Work.pop_back_val();
    auto Found = [&, Offset = Offset](Type *T) {
      return StructAt{dyn_cast<StructType>(withoutArrays(T)), Offset};
    };
    if (auto *AI = dyn_cast<AllocaInst>(V))
      return Found(AI->getAllocatedType());
    if (auto *G = dyn_cast<GlobalVariable>(V))
      return Found(G->getValueType());
    // An element address (`gep %struct.S, ptr %p, i64 %i`) names its type.
    if (auto *GEP = dyn_cast<GEPOperator>(V))
      if (isa<StructType>(GEP->getResultElementType()))
        return Found(GEP->getResultElementType());
    for (const User *U : V->users())
      if (auto *GEP = dyn_cast<GetElementPtrInst>(U))
        if (GEP->getPointerOperand() == V &&
            isa<StructType>(GEP->getSourceElementType()))
          return Found(GEP->getSourceElementType());
    SmallVector<const Value *, 4> Origins;
    if (auto *Phi = dyn_cast<PHINode>(V))
      append_range(Origins, Phi->incoming_values());
    if (const Value *Stored = storedOnceInSlot(V))
      Origins.push_back(Stored);
    // A parameter points to what its callers pass.
    if (auto *Param = dyn_cast<Argument>(V))
      append_range(Origins, argumentsPassedTo(*Param));
    for (const Value *In : Origins) {
      APInt Moved(DL.getIndexTypeSizeInBits(In->getType()), 0);
      const Value *Start =
          In->stripAndAccumulateInBoundsConstantOffsets(DL, Moved);
      if (Seen.insert(Start).second)
        Work.push_back({Start, Offset + Moved.getSExtValue()});
    }
  }
  return {};
}

namespace {

/// The struct layout under [Ptr, Ptr + Bytes): the runs overlapping it,
/// and whether integer or padding bytes lie between them.
struct RangeLayout {
  bool Found = false;
  SmallVector<MemoryRun, 4> Runs;
  bool Gaps = false;
  uint64_t Begin = 0, End = 0;
};

/// What the type the source declared \p Ptr to point to lays out there.
RangeLayout declaredLayoutUnder(const Value *Ptr, uint64_t Bytes) {
  RangeLayout R;
  std::optional<SmallVector<MemoryRun, 4>> Runs = declaredRunsUnder(Ptr, Bytes);
  if (!Runs)
    return R;
  R.Found = true;
  R.Runs = *Runs;
  R.End = Bytes;
  uint64_t Covered = 0;
  for (const MemoryRun &Run : *Runs)
    Covered += Run.Bytes;
  R.Gaps = Covered < Bytes;
  return R;
}

/// The stretches of the \p Bytes bytes at \p Ptr by the layout of the
/// struct the memory is an array of, else by the type the source declared
/// \p Ptr to point to.
RangeLayout layoutUnder(const Value *Ptr, uint64_t Bytes,
                        const DataLayout &DL) {
  RangeLayout R;
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Base = Ptr->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  auto [S, BaseOffset] = structTypeAt(Base, DL);
  int64_t At = Offset.getSExtValue() + BaseOffset;
  if (!S || S->isOpaque() || At < 0)
    return declaredLayoutUnder(Ptr, Bytes);
  uint64_t Size = DL.getTypeAllocSize(S);
  R.Begin = uint64_t(At) % Size;
  R.End = R.Begin + Bytes;
  if (R.End > Size)
    return R;
  R.Found = true;
  uint64_t Covered = 0;
  for (const MemoryRun &Run : layoutRuns(S, DL))
    if (Run.Offset < R.End && Run.Offset + Run.Bytes > R.Begin) {
      if (Run.Kind == ElementKind::Unknown)
        return RangeLayout(); // a union there: the layout does not tell
      R.Runs.push_back(Run);
      Covered += std::min(Run.Offset + Run.Bytes, R.End) -
                 std::max(Run.Offset, R.Begin);
    }
  R.Gaps = Covered < Bytes;
  return R;
}

} // namespace

std::optional<SmallVector<MemoryRun, 4>>
runsUnder(const Value *Ptr, uint64_t Bytes, const DataLayout &DL) {
  RangeLayout R = layoutUnder(Ptr, Bytes, DL);
  if (!R.Found)
    return std::nullopt;
  SmallVector<MemoryRun, 4> Runs;
  for (const MemoryRun &Run : R.Runs) {
    uint64_t Begin = std::max(Run.Offset, R.Begin);
    uint64_t End = std::min(Run.Offset + Run.Bytes, R.End);
    Runs.push_back({Begin - R.Begin, End - Begin, Run.Kind});
  }
  return Runs;
}

ElementKind kindAtOffset(const Value *Ptr, uint64_t Bytes,
                         const DataLayout &DL) {
  RangeLayout R = layoutUnder(Ptr, Bytes, DL);
  if (!R.Found)
    return ElementKind::Unknown;
  if (R.Runs.empty())
    return ElementKind::Integer; // only integers and padding there
  const MemoryRun &Run = R.Runs.front();
  bool Covers = R.Runs.size() == 1 && Run.Offset <= R.Begin &&
                Run.Offset + Run.Bytes >= R.End;
  return Covers ? Run.Kind : ElementKind::Unknown;
}

namespace {

/// A base and a constant byte offset from it.
struct Address {
  const Value *Base = nullptr;
  int64_t Offset = 0;
  bool operator==(const Address &O) const {
    return Base == O.Base && Offset == O.Offset;
  }
};

/// Where \p Ptr points as a base and a constant offset, looking through
/// phis whose incoming addresses all agree (a slot pointer kept in a loop;
/// a step function reloads it from its record after each resume).
Address addressOf(const Value *Ptr, const DataLayout &DL, unsigned Depth = 0) {
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Base = Ptr->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  Address A{Base, Offset.getSExtValue()};
  auto *Phi = dyn_cast<PHINode>(Base);
  if (!Phi || Depth >= 4)
    return A;
  std::optional<Address> Common;
  for (const Value *In : Phi->incoming_values()) {
    if (In == Phi)
      continue;
    Address Incoming = addressOf(In, DL, Depth + 1);
    if (Common && !(*Common == Incoming))
      return A;
    Common = Incoming;
  }
  if (!Common)
    return A;
  Common->Offset += A.Offset;
  return *Common;
}

} // namespace

ElementKind kindAtAddress(const Value *Ptr, uint64_t Bytes,
                          const DataLayout &DL) {
  Evidence E;
  auto *At = dyn_cast<Instruction>(Ptr);
  if (!At)
    return ElementKind::Unknown;
  // What is stored and loaded there (preprocessing may have retyped a copy
  // into an integer slot) speaks before how the slot was declared.
  Address Here = addressOf(Ptr, DL);
  for (const BasicBlock &BB : *At->getFunction())
    for (const Instruction &I : BB) {
      const Value *P = getLoadStorePointerOperand(&I);
      Type *T = isa<LoadInst>(I) ? I.getType()
                : isa<StoreInst>(I)
                    ? cast<StoreInst>(I).getValueOperand()->getType()
                    : nullptr;
      if (T && DL.getTypeStoreSize(T) == Bytes && addressOf(P, DL) == Here)
        E.addAccessType(T);
    }
  if (E.any())
    return E.kind();
  if (auto *GEP = dyn_cast<GEPOperator>(Ptr))
    E.addType(GEP->getResultElementType());
  if (auto *AI = dyn_cast<AllocaInst>(Ptr))
    E.addType(AI->getAllocatedType());
  return E.kind();
}

bool layoutHasFloatingPoint(const Value *Ptr, uint64_t Bytes,
                            const DataLayout &DL) {
  return any_of(layoutUnder(Ptr, Bytes, DL).Runs, [](const MemoryRun &Run) {
    return Run.Kind == ElementKind::F64 || Run.Kind == ElementKind::F32;
  });
}

static constexpr const char *CopiedKindKind = "capsule.copied.kind";

void recordCopiedKind(Instruction &Copy, ElementKind K) {
  LLVMContext &C = Copy.getContext();
  Copy.setMetadata(CopiedKindKind,
                   MDNode::get(C, ConstantAsMetadata::get(ConstantInt::get(
                                      Type::getInt32Ty(C), unsigned(K)))));
}

std::optional<ElementKind> recordedCopiedKind(const Instruction &Copy) {
  MDNode *Recorded = Copy.getMetadata(CopiedKindKind);
  if (!Recorded)
    return std::nullopt;
  return ElementKind(
      mdconst::extract<ConstantInt>(Recorded->getOperand(0))->getZExtValue());
}

void recordCopiedKindOf(Instruction &Copy, const CallBase &Source) {
  if (ElementKind K = copiedElementKind(Source); K != ElementKind::Unknown)
    recordCopiedKind(Copy, K);
}

ElementKind copiedElementKind(const CallBase &Call) {
  if (std::optional<ElementKind> K = recordedCopiedKind(Call))
    return *K;
  // A char string's member copies characters (OutOfLineLibraryCalls.h
  // keeps it a function of its own).
  if (isCharacterStringMember(originalFunction(Call.getFunction())->getName()))
    return ElementKind::Integer;
  // Fewer than 4 bytes cannot hold a float (an empty C++ object, a bool).
  if (auto *Size = dyn_cast<ConstantInt>(Call.getArgOperand(2)))
    if (isa<AnyMemTransferInst>(Call) && Size->getZExtValue() < 4)
      return ElementKind::Integer;
  Evidence E;
  addTBAAStruct(E, Call);
  if (E.any())
    return E.kind();
  // The layout of the struct at the copied range, where it is known: exact,
  // and it sees fields (a float beside the doubles) no access shows.
  if (auto *Size = dyn_cast<ConstantInt>(Call.getArgOperand(2)))
    if (isa<AnyMemTransferInst>(Call)) {
      const DataLayout &DL = Call.getDataLayout();
      for (unsigned I = 0; I < 2; ++I) {
        RangeLayout R =
            layoutUnder(Call.getArgOperand(I), Size->getZExtValue(), DL);
        for (const MemoryRun &Run : R.Runs)
          E.addKind(Run.Kind);
        if (R.Found && R.Gaps)
          E.addKind(ElementKind::Integer);
      }
      if (E.any())
        return E.kind();
    }
  if (isa<AnyMemTransferInst>(Call)) {
    addPointer(E, Call.getArgOperand(0));
    addPointer(E, Call.getArgOperand(1));
  } else {
    addPointer(E, &Call);
    addPointer(E, Call.getArgOperand(0));
  }
  return E.kind();
}

bool copiesPointerFreeConstant(const CallBase &Copy) {
  auto *G = dyn_cast<GlobalVariable>(
      getUnderlyingObject(Copy.getArgOperand(1), /*MaxLookup=*/0));
  if (!G || !G->isConstant() || !G->hasDefinitiveInitializer())
    return false;
  return none_of(layoutRuns(G->getValueType(), Copy.getDataLayout()),
                 [](const MemoryRun &Run) {
                   return Run.Kind == ElementKind::Pointer ||
                          Run.Kind == ElementKind::Unknown;
                 });
}

void markExactAccessType(Instruction &Access) {
  Access.setMetadata(ExactAccessTypeKind, MDNode::get(Access.getContext(), {}));
}

ElementKind declaredAccessKind(const Instruction &I) {
  if (I.getMetadata(ExactAccessTypeKind)) {
    Type *T = isa<StoreInst>(I)
                  ? cast<StoreInst>(I).getValueOperand()->getType()
                  : I.getType();
    Evidence E;
    E.addType(T);
    return E.kind();
  }
  return tagKind(dyn_cast_or_null<MDNode>(I.getMetadata(LLVMContext::MD_tbaa)));
}

bool isIntegerAtomicUpdate(const Instruction &I) {
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getType()->isIntegerTy() && !RMW->isFloatingPointOperation() &&
           RMW->getOperation() != AtomicRMWInst::Xchg;
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    auto *New = dyn_cast<BinaryOperator>(CX->getNewValOperand());
    return New && New->getType()->isIntegerTy() &&
           (New->getOpcode() == Instruction::Add ||
            New->getOpcode() == Instruction::Sub);
  }
  return false;
}

bool integerBySourceType(const Instruction &Access) {
  auto *Load = dyn_cast<LoadInst>(&Access);
  auto *Store = dyn_cast<StoreInst>(&Access);
  if (!Load && !Store)
    return false;
  Type *T = Load ? Load->getType() : Store->getValueOperand()->getType();
  if (!T->isIntegerTy(16) && !T->isIntegerTy(32) && !T->isIntegerTy(64))
    return false;
  if (!originalFunction(Access.getFunction())->hasOptNone() ||
      Access.getMetadata(LLVMContext::MD_tbaa))
    return false;
  // A union's members are read as any of their types.
  const Value *Ptr = getLoadStorePointerOperand(&Access);
  while (auto *GEP = dyn_cast<GEPOperator>(Ptr)) {
    if (holdsUnion(GEP->getSourceElementType()))
      return false;
    Ptr = GEP->getPointerOperand();
  }
  if (auto *Slot = dyn_cast<AllocaInst>(Ptr))
    return !holdsUnion(Slot->getAllocatedType());
  if (auto *G = dyn_cast<GlobalVariable>(Ptr))
    return !holdsUnion(G->getValueType());
  return isa<Argument, LoadInst, CallBase>(Ptr);
}

bool mayMoveFloatingPoint(const Instruction &Access) {
  if (integerBySourceType(Access) ||
      recordedCopiedKind(Access) == ElementKind::Integer)
    return false;
  const DataLayout &DL = Access.getDataLayout();
  Type *T = isa<StoreInst>(Access)
                ? cast<StoreInst>(Access).getValueOperand()->getType()
                : Access.getType();
  const Value *Ptr = getLoadStorePointerOperand(&Access);
  ElementKind K = declaredAccessKind(Access);
  if (K == ElementKind::Unknown)
    K = kindAtOffset(Ptr, DL.getTypeStoreSize(T), DL);
  // Exactly these bytes: floating-point data, or part of it.
  if (K != ElementKind::Unknown)
    return K == ElementKind::F64 || K == ElementKind::F32;
  // Memory of doubles and integers holds no 32-bit floating-point data:
  // a 32-bit copy out of it moves an integer.
  K = pointeeKind(Ptr);
  return K == ElementKind::Unknown || K == ElementKind::F32 ||
         (K == ElementKind::F64 && T->getScalarSizeInBits() == 64);
}

bool copiesFloatingPointBytes(const LoadInst &Load, const StoreInst &Store) {
  const DataLayout &DL = Load.getDataLayout();
  uint64_t Bytes = DL.getTypeStoreSize(Load.getType());
  auto IsFloat = [](ElementKind K) {
    return K == ElementKind::F64 || K == ElementKind::F32;
  };
  const Value *From = Load.getPointerOperand(), *To = Store.getPointerOperand();
  ElementKind AtFrom = kindAtOffset(From, Bytes, DL),
              AtTo = kindAtOffset(To, Bytes, DL);
  if (IsFloat(AtFrom) || IsFloat(AtTo))
    return true;
  // Where a layout says integers, they are; else the memories' kinds.
  return AtFrom == ElementKind::Unknown && AtTo == ElementKind::Unknown &&
         IsFloat(pointeeKind(From)) && IsFloat(pointeeKind(To));
}

void recordIntegerCopies(Function &F) {
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      auto *SI = dyn_cast<StoreInst>(&I);
      auto *LI = SI ? dyn_cast<LoadInst>(SI->getValueOperand()) : nullptr;
      if (!LI ||
          (!LI->getType()->isIntegerTy(32) && !LI->getType()->isIntegerTy(64)))
        continue;
      if (!mayMoveFloatingPoint(*LI))
        recordCopiedKind(*LI, ElementKind::Integer);
      else if (!mayMoveFloatingPoint(*SI))
        recordCopiedKind(*SI, ElementKind::Integer);
    }
}

ElementKind kindOfRuns(ArrayRef<MemoryRun> Runs) {
  Evidence E;
  for (const MemoryRun &Run : Runs)
    E.addKind(Run.Kind);
  return E.kind();
}

ElementKind kindOfType(Type *T) {
  Evidence E; // a type holding a union adds nothing: Unknown
  E.addType(T);
  return E.kind();
}

ElementKind pointeeKind(const Value *Ptr) {
  Evidence E;
  addPointer(E, Ptr);
  return E.kind();
}

static ElementKind tagKind(const MDNode *Tag) {
  if (!Tag || Tag->getNumOperands() < 2)
    return ElementKind::Unknown;
  auto *Access = dyn_cast<MDNode>(Tag->getOperand(1));
  auto *Name = Access && Access->getNumOperands()
                   ? dyn_cast<MDString>(Access->getOperand(0))
                   : nullptr;
  if (!Name)
    return ElementKind::Unknown;
  StringRef N = Name->getString();
  if (N == "double")
    return ElementKind::F64;
  if (N == "float")
    return ElementKind::F32;
  if (N == "any pointer" || N.starts_with("p1 ") || N.starts_with("p2 "))
    return ElementKind::Pointer;
  if (N == "omnipotent char" || N == "vtable pointer")
    return ElementKind::Unknown;
  return ElementKind::Integer;
}

static void appendRuns(Type *T, uint64_t Offset, const DataLayout &DL,
                       SmallVectorImpl<MemoryRun> &Runs) {
  auto Append = [&](ElementKind Kind) {
    uint64_t Bytes = DL.getTypeStoreSize(T);
    if (!Runs.empty() && Runs.back().Kind == Kind &&
        Runs.back().Offset + Runs.back().Bytes == Offset)
      Runs.back().Bytes += Bytes;
    else
      Runs.push_back({Offset, Bytes, Kind});
  };
  if (T->isDoubleTy())
    Append(ElementKind::F64);
  else if (T->isFloatTy())
    Append(ElementKind::F32);
  else if (T->isPointerTy())
    Append(ElementKind::Pointer);
  else if (isUnion(T))
    Append(ElementKind::Unknown);
  else if (auto *S = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(S);
    for (unsigned I = 0; I < S->getNumElements(); ++I)
      appendRuns(S->getElementType(I), Offset + SL->getElementOffset(I), DL,
                 Runs);
  } else if (auto *A = dyn_cast<ArrayType>(T)) {
    uint64_t Stride = DL.getTypeAllocSize(A->getElementType());
    for (uint64_t I = 0; I < A->getNumElements(); ++I)
      appendRuns(A->getElementType(), Offset + I * Stride, DL, Runs);
  } else if (auto *V = dyn_cast<FixedVectorType>(T)) {
    uint64_t Stride = DL.getTypeAllocSize(V->getElementType());
    for (unsigned I = 0; I < V->getNumElements(); ++I)
      appendRuns(V->getElementType(), Offset + I * Stride, DL, Runs);
  }
}

SmallVector<MemoryRun, 4> layoutRuns(Type *T, const DataLayout &DL) {
  SmallVector<MemoryRun, 4> Runs;
  appendRuns(T, 0, DL, Runs);
  return Runs;
}

Type *scalarTypeOf(ElementKind Kind, LLVMContext &C) {
  switch (Kind) {
  case ElementKind::F64:
    return Type::getDoubleTy(C);
  case ElementKind::F32:
    return Type::getFloatTy(C);
  case ElementKind::Pointer:
    return PointerType::getUnqual(C);
  default:
    return nullptr;
  }
}

} // namespace capsule
