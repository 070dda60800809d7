//===- Signature.h - Which arguments are differentiated ---------*- C++ -*-===//
#ifndef CAPSULE_SIGNATURE_H
#define CAPSULE_SIGNATURE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"

#include <tuple>

namespace capsule {

/// How one argument of a differentiated function takes part.
enum class ArgActivity : uint8_t {
  Const, ///< no derivative
  Dup,   ///< pointer with a shadow holding adjoints of the pointee
  /// floating-point value: its adjoint is returned by the reverse sweep;
  /// in forward mode its tangent is passed beside it
  Out
};

/// A function together with the activity of its arguments and result: the
/// key of a derivative. The same function may be differentiated with several
/// signatures.
struct DiffSignature {
  llvm::Function *Fn = nullptr;
  llvm::SmallVector<ArgActivity, 8> Args;
  bool ActiveReturn = false;
  /// Called by a marker call: nothing runs between its forward and reverse
  /// sweeps, so memory it only reads is still there for the reverse sweep.
  bool TopLevel = false;
  /// Bit k: nothing but this function writes the memory pointer argument k
  /// points to between its forward and its reverse sweep (the caller
  /// checked), so what this function only reads there can be loaded again.
  uint64_t StableArgs = 0;
  /// Only a forward sweep that records nothing and has no reverse sweep:
  /// checkpointed code re-executed untaped, which must still keep the
  /// shadows of pointers in memory as the taped sweep would.
  bool Untaped = false;
  /// Forward mode: one tangent function (lib/Forward), no sweeps.
  bool Tangent = false;
  /// Forward mode: how many tangents each value carries (Enzyme's vector
  /// mode, enzyme_width), in the lanes of LLVM vectors (Forward/Lanes.h).
  unsigned Width = 1;
  /// Nested differentiation: the round of the marker pass that lowers it,
  /// 0 for derivatives whose code holds no marker call, k + 1 for those
  /// whose code holds derivatives of round k. A derivative of round k runs
  /// inside one of round k + 1, so each round has shadow globals of its own.
  unsigned Level = 0;
  /// Runs in an OpenMP team (the body of a parallel region, and what it
  /// calls): its reverse sweep adds adjoints to memory other threads may
  /// share atomically, and it postpones no free() (Support/ParallelRegions.h).
  bool Parallel = false;

  bool operator<(const DiffSignature &O) const {
    return std::tie(Fn, Args, ActiveReturn, TopLevel, StableArgs, Untaped,
                    Tangent, Width, Level, Parallel) <
           std::tie(O.Fn, O.Args, O.ActiveReturn, O.TopLevel, O.StableArgs,
                    O.Untaped, O.Tangent, O.Width, O.Level, O.Parallel);
  }
};

/// True if values of type \p T carry floating-point data whose derivative
/// Capsule tracks (floating-point scalars, vectors and aggregates holding
/// them).
inline bool carriesFloat(llvm::Type *T) {
  if (T->isFPOrFPVectorTy())
    return !T->getScalarType()->isX86_FP80Ty() &&
           !T->getScalarType()->isFP128Ty();
  if (auto *S = llvm::dyn_cast<llvm::StructType>(T))
    return llvm::any_of(S->elements(), carriesFloat);
  if (auto *A = llvm::dyn_cast<llvm::ArrayType>(T))
    return carriesFloat(A->getElementType());
  return false;
}

/// True if values of type \p T hold pointers (pointers, and aggregates
/// holding them): such values have shadows beside them, of the same type.
inline bool carriesPointer(llvm::Type *T) {
  if (T->isPointerTy())
    return true;
  if (auto *S = llvm::dyn_cast<llvm::StructType>(T))
    return llvm::any_of(S->elements(), carriesPointer);
  if (auto *A = llvm::dyn_cast<llvm::ArrayType>(T))
    return carriesPointer(A->getElementType());
  return false;
}

/// The additive identity of adjoints of type \p T: -0.0 in every
/// floating-point leaf. -0.0 + x == x for every x (signed zeros included),
/// so the optimizer folds an accumulation into a fresh adjoint away, which
/// it may not do for +0.0 + x (+0.0 + -0.0 is +0.0).
inline llvm::Constant *zeroAdjoint(llvm::Type *T) {
  if (T->isFPOrFPVectorTy())
    return llvm::ConstantFP::getNegativeZero(T);
  if (auto *S = llvm::dyn_cast<llvm::StructType>(T)) {
    llvm::SmallVector<llvm::Constant *, 4> Fields;
    for (llvm::Type *E : S->elements())
      Fields.push_back(zeroAdjoint(E));
    return llvm::ConstantStruct::get(S, Fields);
  }
  if (auto *A = llvm::dyn_cast<llvm::ArrayType>(T))
    return llvm::ConstantArray::get(
        A, llvm::SmallVector<llvm::Constant *, 8>(
               A->getNumElements(), zeroAdjoint(A->getElementType())));
  return llvm::Constant::getNullValue(T);
}

} // namespace capsule

#endif
