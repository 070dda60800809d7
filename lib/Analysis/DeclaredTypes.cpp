//===- DeclaredTypes.cpp - What the source declares a pointer to ----------===//
#include "Analysis/DeclaredTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace capsule {
namespace {

/// \p T without the qualifiers and typedefs that do not change its layout.
const DIType *unqualified(const DIType *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    switch (D->getTag()) {
    case dwarf::DW_TAG_typedef:
    case dwarf::DW_TAG_const_type:
    case dwarf::DW_TAG_volatile_type:
    case dwarf::DW_TAG_restrict_type:
    case dwarf::DW_TAG_atomic_type:
      T = D->getBaseType();
      continue;
    default:
      return T;
    }
  }
  return T;
}

bool isPointerTag(unsigned Tag) {
  return Tag == dwarf::DW_TAG_pointer_type ||
         Tag == dwarf::DW_TAG_reference_type ||
         Tag == dwarf::DW_TAG_rvalue_reference_type;
}

/// Whether \p T is a byte type, through which code addresses any memory
/// (`char *`, `unsigned char *`, `std::byte *`).
bool isByteType(const DIType *T) {
  T = unqualified(T);
  return T && T->getSizeInBits() == 8 &&
         (isa<DIBasicType>(T) || T->getTag() == dwarf::DW_TAG_enumeration_type);
}

/// What the pointer type \p T points to, if it says: not `void *` nor a
/// pointer to bytes.
const DIType *knownPointee(const DIType *T) {
  auto *P = dyn_cast_or_null<DIDerivedType>(unqualified(T));
  const DIType *Pointee =
      P && isPointerTag(P->getTag()) ? unqualified(P->getBaseType()) : nullptr;
  return Pointee && !isByteType(Pointee) ? Pointee : nullptr;
}

/// The type of the variable whose value \p V is (a dbg_value), or, for
/// \p Storage, whose storage the stack slot \p V is (a dbg_declare), as the
/// debug records describe it without a complex expression in between. (A
/// slot of a pointer variable is not that pointer: only its reloads are.)
/// One value may be several variables (`unsigned char *p = (unsigned char
/// *)x`, optimized): the one whose type says what it points to, unless two
/// disagree.
const DIType *variableTypeAt(const Value *V, bool Storage) {
  SmallVector<DbgVariableIntrinsic *, 2> Intrinsics;
  SmallVector<DbgVariableRecord *, 2> Records;
  findDbgUsers(Intrinsics, const_cast<Value *>(V), &Records);
  SmallVector<const DILocalVariable *, 4> Variables;
  // Records of assignments (dbg_assign) name the slot as an address too:
  // only declarations and values whose location is V itself count.
  auto Describes = [&](bool Declare, bool IsValue, bool ArgList,
                       const DIExpression *E, const Value *Location) {
    return (Storage ? Declare : IsValue) && !ArgList &&
           E->getNumElements() == 0 && Location == V;
  };
  for (DbgVariableRecord *R : Records)
    if (Describes(R->isDbgDeclare(), R->isDbgValue(), R->hasArgList(),
                  R->getExpression(), R->getVariableLocationOp(0)))
      Variables.push_back(R->getVariable());
  for (DbgVariableIntrinsic *I : Intrinsics)
    if (Describes(isa<DbgDeclareInst>(I),
                  isa<DbgValueInst>(I) && !isa<DbgAssignIntrinsic>(I),
                  I->hasArgList(), I->getExpression(),
                  I->getVariableLocationOp(0)))
      Variables.push_back(I->getVariable());
  const DIType *Known = nullptr;
  for (const DILocalVariable *Var : Variables) {
    const DIType *T = Var->getType();
    if (!knownPointee(T))
      continue;
    if (Known && knownPointee(Known) != knownPointee(T))
      return nullptr;
    Known = T;
  }
  if (Known)
    return Known;
  return Variables.empty() ? nullptr : Variables.front()->getType();
}

const DIType *declaredPointee(const Value *Ptr);

/// The member or element of declared type \p T that begins \p Offset bytes
/// into it and is \p Bytes long, looking into nested structs and arrays.
const DIType *typeAtOffset(const DIType *T, uint64_t Offset, uint64_t Bytes) {
  T = unqualified(T);
  if (!T)
    return nullptr;
  uint64_t Size = T->getSizeInBits() / 8;
  auto *C = dyn_cast<DICompositeType>(T);
  if (!C)
    return Offset == 0 && Size == Bytes ? T : nullptr;
  if (C->isForwardDecl() || Offset + Bytes > Size)
    return nullptr;
  if (C->getTag() == dwarf::DW_TAG_array_type) {
    const DIType *Element = unqualified(C->getBaseType());
    uint64_t Stride = Element ? Element->getSizeInBits() / 8 : 0;
    return Stride ? typeAtOffset(Element, Offset % Stride, Bytes) : nullptr;
  }
  if (C->getTag() != dwarf::DW_TAG_structure_type &&
      C->getTag() != dwarf::DW_TAG_class_type)
    return nullptr; // a union's bytes are any of its members
  for (const DINode *Element : C->getElements()) {
    auto *Member = dyn_cast<DIDerivedType>(Element);
    if (!Member || Member->isStaticMember() || Member->isBitField() ||
        (Member->getTag() != dwarf::DW_TAG_member &&
         Member->getTag() != dwarf::DW_TAG_inheritance))
      continue;
    uint64_t Begin = Member->getOffsetInBits() / 8;
    uint64_t End = Begin + Member->getSizeInBits() / 8;
    if (Offset >= Begin && Offset + Bytes <= End)
      return typeAtOffset(Member->getBaseType(), Offset - Begin, Bytes);
  }
  return nullptr;
}

/// The declared type of what \p Load reads where its address is a member
/// or an element of memory the source declared a pointer to: `out[j]` of
/// a `double **out`, `p->rows` of a `struct grid *p`. The address's first
/// index steps over whole such objects; the others, constant, lead into
/// one.
const DIType *declaredTypeLoaded(const LoadInst &Load) {
  const Value *Address = Load.getPointerOperand();
  auto *GEP = dyn_cast<GEPOperator>(Address);
  if (GEP && GEP->getNumIndices() == 0)
    GEP = nullptr;
  const DIType *Object =
      declaredPointee(GEP ? GEP->getPointerOperand() : Address);
  uint64_t Size = Object ? Object->getSizeInBits() / 8 : 0;
  if (!Size)
    return nullptr;
  const DataLayout &DL = Load.getDataLayout();
  uint64_t Offset = 0;
  if (GEP) {
    Value *First = *GEP->idx_begin();
    SmallVector<Value *, 4> Path{ConstantInt::get(First->getType(), 0)};
    Path.append(std::next(GEP->idx_begin()), GEP->idx_end());
    if (!all_of(Path, [](const Value *V) { return isa<ConstantInt>(V); }))
      return nullptr;
    Type *Stepped = GEP->getSourceElementType();
    int64_t Step = DL.getTypeAllocSize(Stepped);
    // A variable first index steps over whole objects only where the type
    // it steps by is made of them.
    auto *FirstConstant = dyn_cast<ConstantInt>(First);
    if (!FirstConstant && Step % Size)
      return nullptr;
    int64_t Total = DL.getIndexedOffsetInType(Stepped, Path) +
                    (FirstConstant ? FirstConstant->getSExtValue() * Step : 0);
    if (Total < 0)
      return nullptr;
    Offset = uint64_t(Total) % Size;
  }
  return typeAtOffset(Object, Offset,
                      DL.getTypeStoreSize(Load.getType()).getFixedValue());
}

/// The declared type of the pointer \p Ptr: of the variable it is, of the
/// result of the function it is returned by, at -O0 of the variable in the
/// stack slot it is reloaded from or stored to, or of the member or
/// element of declared memory it is loaded from.
const DIType *declaredPointerType(const Value *Ptr) {
  if (const DIType *T = variableTypeAt(Ptr, /*Storage=*/false))
    return T;
  // A call's result: the declared result type of the function it calls (an
  // iterator's `operator*` at -O0, which returns a reference).
  if (auto *Call = dyn_cast<CallBase>(Ptr))
    if (const Function *Callee = Call->getCalledFunction())
      if (const DISubprogram *SP = Callee->getSubprogram())
        if (const DISubroutineType *Type = SP->getType())
          if (Type->getTypeArray().size() > 0)
            return Type->getTypeArray()[0];
  if (auto *Load = dyn_cast<LoadInst>(Ptr)) {
    if (auto *Slot = dyn_cast<AllocaInst>(Load->getPointerOperand()))
      return variableTypeAt(Slot, /*Storage=*/true);
    if (const DIType *T = declaredTypeLoaded(*Load))
      return T;
  }
  for (const User *U : Ptr->users())
    if (auto *Store = dyn_cast<StoreInst>(U);
        Store && Store->getValueOperand() == Ptr)
      if (auto *Slot = dyn_cast<AllocaInst>(Store->getPointerOperand()))
        if (const DIType *T = variableTypeAt(Slot, /*Storage=*/true))
          return T;
  return nullptr;
}

/// The stretches of floating-point data and pointers in a value of type
/// \p T at \p Offset, appended to \p Runs as MemoryKinds lays out IR types
/// (integers and padding are the gaps); false where the type does not say
/// (a union, an incomplete type, long double, members pointers, virtual
/// bases) or would take more than \p Budget runs.
class RunsOfType {
  SmallVector<MemoryRun, 4> &Runs;
  unsigned Budget;

  bool append(uint64_t Offset, uint64_t Bytes, ElementKind Kind) {
    if (!Runs.empty() && Runs.back().Kind == Kind &&
        Runs.back().Offset + Runs.back().Bytes == Offset) {
      Runs.back().Bytes += Bytes;
      return true;
    }
    if (Runs.size() >= Budget)
      return false;
    Runs.push_back({Offset, Bytes, Kind});
    return true;
  }

  bool basic(const DIBasicType &B, uint64_t Offset) {
    uint64_t Bits = B.getSizeInBits();
    switch (B.getEncoding()) {
    case dwarf::DW_ATE_float:
      if (Bits != 64 && Bits != 32)
        return false; // long double, half
      return append(Offset, Bits / 8,
                    Bits == 64 ? ElementKind::F64 : ElementKind::F32);
    case dwarf::DW_ATE_complex_float:
      if (Bits != 128 && Bits != 64)
        return false;
      return append(Offset, Bits / 8,
                    Bits == 128 ? ElementKind::F64 : ElementKind::F32);
    default:
      return true; // integers
    }
  }

  bool array(const DICompositeType &A, uint64_t Offset) {
    const DIType *Element = unqualified(A.getBaseType());
    uint64_t Stride = Element ? Element->getSizeInBits() / 8 : 0;
    if (!Stride)
      return false;
    // A flexible array member or a VLA: its extent is not in the type.
    uint64_t Count = A.getSizeInBits() / 8 / Stride;
    if (!Count)
      return false;
    size_t First = Runs.size();
    if (!add(Element, Offset))
      return false;
    // One stretch covering the element (an array of doubles) covers the
    // array; otherwise the element's runs repeat, within the budget.
    if (Runs.size() == First + 1 && Runs.back().Offset == Offset &&
        Runs.back().Bytes == Stride) {
      Runs.back().Bytes = Stride * Count;
      return true;
    }
    for (uint64_t I = 1; I < Count; ++I)
      if (!add(Element, Offset + I * Stride))
        return false;
    return true;
  }

  bool record(const DICompositeType &C, uint64_t Offset) {
    for (const DINode *Element : C.getElements()) {
      auto *Member = dyn_cast<DIDerivedType>(Element);
      if (!Member || Member->isStaticMember() || Member->isBitField())
        continue; // methods, template parameters, statics, integer bits
      bool Base = Member->getTag() == dwarf::DW_TAG_inheritance;
      if (Base && Member->isVirtual())
        return false;
      if ((Base || Member->getTag() == dwarf::DW_TAG_member) &&
          !add(Member->getBaseType(), Offset + Member->getOffsetInBits() / 8))
        return false;
    }
    return true;
  }

public:
  RunsOfType(SmallVector<MemoryRun, 4> &Runs, unsigned Budget)
      : Runs(Runs), Budget(Budget) {}

  bool add(const DIType *T, uint64_t Offset) {
    T = unqualified(T);
    if (!T)
      return false;
    if (auto *B = dyn_cast<DIBasicType>(T))
      return basic(*B, Offset);
    if (auto *D = dyn_cast<DIDerivedType>(T))
      return isPointerTag(D->getTag()) &&
             append(Offset, D->getSizeInBits() / 8, ElementKind::Pointer);
    auto *C = dyn_cast<DICompositeType>(T);
    if (!C || C->isForwardDecl())
      return false;
    switch (C->getTag()) {
    case dwarf::DW_TAG_enumeration_type:
      return true;
    case dwarf::DW_TAG_array_type:
      return array(*C, Offset);
    case dwarf::DW_TAG_structure_type:
    case dwarf::DW_TAG_class_type:
      return record(*C, Offset);
    default: // a union: its type says nothing about what the bytes hold
      return false;
    }
  }
};

/// The type the source declared \p Ptr to point to, if it says something.
const DIType *declaredPointee(const Value *Ptr) {
  const DIType *T = knownPointee(declaredPointerType(Ptr));
  return T && T->getSizeInBits() ? T : nullptr;
}

} // namespace

std::optional<SmallVector<MemoryRun, 4>> declaredRunsUnder(const Value *Ptr,
                                                           uint64_t Bytes) {
  // Enough for a struct of a few dozen fields, or an array of a few.
  constexpr unsigned Budget = 256;
  const DIType *T = declaredPointee(Ptr);
  if (!T)
    return std::nullopt;
  // Only what one of them holds: a block of a header and data behind it
  // (`malloc(sizeof(Header) + n * sizeof(double))`) is copied through a
  // pointer to its header.
  uint64_t Size = T->getSizeInBits() / 8;
  if (!Bytes)
    Bytes = Size;
  SmallVector<MemoryRun, 4> Runs;
  if (Bytes > Size || !RunsOfType(Runs, Budget).add(T, 0))
    return std::nullopt;
  SmallVector<MemoryRun, 4> Under;
  for (const MemoryRun &Run : Runs)
    if (Run.Offset < Bytes)
      Under.push_back(
          {Run.Offset, std::min(Run.Bytes, Bytes - Run.Offset), Run.Kind});
  return Under;
}

} // namespace capsule
