//===- SplitArguments.cpp - Struct arguments the C ABI splits -------------===//
#include "Support/SplitArguments.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace capsule {

namespace {

/// \p T without the typedefs and qualifiers around it.
const DIType *strippedType(const DIType *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    unsigned Tag = D->getTag();
    if (Tag != dwarf::DW_TAG_typedef && Tag != dwarf::DW_TAG_const_type &&
        Tag != dwarf::DW_TAG_volatile_type)
      break;
    T = D->getBaseType();
  }
  return T;
}

/// Whether \p Leaf holds for every scalar in \p T, through arrays, base
/// classes and members, however nested (static members aside).
bool everyLeaf(const DIType *T, function_ref<bool(const DIType *)> Leaf) {
  T = strippedType(T);
  auto *C = dyn_cast_or_null<DICompositeType>(T);
  if (!C || C->getTag() == dwarf::DW_TAG_enumeration_type)
    return Leaf(T);
  if (C->getTag() == dwarf::DW_TAG_array_type)
    return everyLeaf(C->getBaseType(), Leaf);
  return all_of(C->getElements(), [&](const DINode *N) {
    auto *Member = dyn_cast<DIDerivedType>(N);
    return !Member ||
           (Member->getTag() != dwarf::DW_TAG_member &&
            Member->getTag() != dwarf::DW_TAG_inheritance) ||
           Member->isStaticMember() || everyLeaf(Member->getBaseType(), Leaf);
  });
}

bool onlyFloatingPoint(const DIType *T) {
  return everyLeaf(T, [](const DIType *Leaf) {
    auto *B = dyn_cast_or_null<DIBasicType>(Leaf);
    return B && (B->getEncoding() == dwarf::DW_ATE_float ||
                 B->getEncoding() == dwarf::DW_ATE_complex_float);
  });
}

bool holdsPointer(const DIType *T) {
  return !everyLeaf(T, [](const DIType *Leaf) {
    unsigned Tag = Leaf ? Leaf->getTag() : 0;
    return Tag != dwarf::DW_TAG_pointer_type &&
           Tag != dwarf::DW_TAG_reference_type &&
           Tag != dwarf::DW_TAG_rvalue_reference_type &&
           Tag != dwarf::DW_TAG_ptr_to_member_type;
  });
}

/// Whether the fields of \p T, split, would be paired wrongly as \p P says.
bool pairedWrongly(const DIType *T, Pairing P) {
  switch (P) {
  case Pairing::TangentRule:
  case Pairing::ForwardMarker:
    return true;
  case Pairing::GradientRule:
    return !onlyFloatingPoint(T);
  case Pairing::ReverseMarker:
    return holdsPointer(T);
  }
  return true;
}

/// Whether the C ABI may pass an argument of type \p T as several: a
/// struct, union or class, or a complex number, of 9 to 16 bytes (larger
/// ones go in memory, as one pointer).
bool splitByABI(const DIType *T) {
  T = strippedType(T);
  if (!T || T->getSizeInBits() <= 64 || T->getSizeInBits() > 128)
    return false;
  if (auto *B = dyn_cast<DIBasicType>(T))
    return B->getEncoding() == dwarf::DW_ATE_complex_float;
  auto *C = dyn_cast<DICompositeType>(T);
  return C && C->getTag() != dwarf::DW_TAG_array_type &&
         C->getTag() != dwarf::DW_TAG_enumeration_type;
}

} // namespace

std::optional<SplitArgument> splitArgument(const Function &F, Pairing P) {
  const DISubprogram *SP = F.getSubprogram();
  if (!SP || !SP->getType())
    return std::nullopt;
  DITypeRefArray Types = SP->getType()->getTypeArray();
  for (unsigned K = 1; K < Types.size(); ++K) {
    if (!splitByABI(Types[K]) || !pairedWrongly(Types[K], P))
      continue;
    // The name the source gave it: a typedef's, else the type's own.
    StringRef Name = Types[K]->getName();
    if (Name.empty())
      Name = strippedType(Types[K])->getName();
    return SplitArgument{K, Name.str()};
  }
  return std::nullopt;
}

} // namespace capsule
