//===- Differentiability.h - Constructs that lose derivatives ---*- C++ -*-===//
//
// The checks both modes make before they trust a construct whose
// derivative would otherwise be lost without a word: memory reached through
// pointers of unknown origin, floating-point bits computed with as
// integers, structs with floating-point fields in integer registers, calls
// of functions without a body. Each check returns why the construct is
// refused, or nothing; the generator reports it (Diagnostics.h).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_DIFFERENTIABILITY_H
#define CAPSULE_DIFFERENTIABILITY_H

#include "Analysis/Activity.h"
#include "Analysis/CallClassifier.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"

#include <optional>
#include <string>

namespace capsule {

class DifferentiabilityChecks {
public:
  DifferentiabilityChecks(const ActivityInfo &AI, const llvm::DataLayout &DL)
      : AI(AI), DL(DL) {}

  /// Where a pointer without a shadow comes from, when that is certain to
  /// be memory without derivatives: const arguments, constant globals,
  /// null, the results of library functions whose data is never floating
  /// point (a std::string's buffer), and whatever is derived from them or
  /// loaded out of them.
  bool knownWithoutDerivative(const llvm::Value *Ptr) const;
  /// A pointer without a shadow whose memory may still carry derivatives
  /// (made from an integer, returned by a function without a body).
  bool untrackedPointer(const llvm::Value *Ptr) const {
    return !AI.hasShadow(Ptr) && !knownWithoutDerivative(Ptr);
  }
  /// A load or store of floating-point data through an untracked pointer,
  /// or an external global's access (externalGlobalAccess).
  std::optional<std::string> untrackedAccess(const llvm::Instruction &I) const;
  /// A differentiated value stored into a global defined in another file,
  /// or floating-point data accessed through a pointer such a global holds.
  std::optional<std::string>
  externalGlobalAccess(const llvm::Instruction &I) const;
  /// A load of 32- or 64-bit integers (or a vector of them) from memory
  /// with derivatives that holds floats or doubles (by its types, or as the
  /// destination of a copy of them), whose value is computed with rather
  /// than only copied.
  bool readsFloatBitsAsNumber(const llvm::LoadInst &LI) const;
  /// A bitcast of a differentiated floating-point value to bits that are
  /// computed with, not only tested (FloatBitOperations.h:
  /// floatBitsOnlyTested).
  std::optional<std::string> floatToBits(const llvm::Instruction &I) const;
  /// A bitcast to floating point of integer bits that may hold the
  /// floating-point data of memory with derivatives (what
  /// FloatBitOperations.h could not turn into floating-point operations).
  std::optional<std::string> floatFromBits(const llvm::Instruction &I) const;
  /// A store into memory with derivatives of an integer operation on bits
  /// that may hold the floating-point data of memory with derivatives
  /// (what FloatBitOperations.h could not turn into a floating-point
  /// operation stored).
  std::optional<std::string> floatBitsStored(const llvm::Instruction &I) const;
  /// A pointer handed across a call boundary (an argument of a
  /// differentiated callee, or the returned value) without a shadow and of
  /// unknown origin: it would arrive with a null shadow.
  std::optional<std::string> handedPointer(const llvm::Value *V) const;
  /// A phi or select merging pointers that have shadows with one of
  /// unknown origin (an XOR-linked list's next node): the merged pointer
  /// would have no shadow where it is that one.
  std::optional<std::string> mergedPointer(const llvm::Instruction &I) const;
  /// Where to point the user for mergedPointer(\p I): the instruction that
  /// makes the pointer of unknown origin, when it has a source location
  /// (phis often have none), else \p I.
  const llvm::Instruction &mergeSite(const llvm::Instruction &I) const;
  /// An integer handed across a call boundary, loaded from memory with
  /// derivatives whose struct layout puts a float or a double there: the
  /// x86-64 ABI passes a struct such as {int, float} by value in an integer
  /// register (at -O0 loaded straight from the struct).
  std::optional<std::string> handedInteger(const llvm::Value *V) const;
  /// Why a call that receives active data has no derivative.
  static std::string whyNoDerivative(const llvm::CallBase &Call,
                                     const llvm::Function *Callee);
  /// Why forward mode (\p Forward) or reverse mode cannot differentiate
  /// what an inner derivative call left in the code (nested
  /// differentiation), or nothing.
  static std::optional<std::string> whyNotNestable(NestedRuntime Kind,
                                                   bool Forward);

private:
  bool bitsOfShadowedData(const llvm::Value *Bits,
                          bool KnownFloat = false) const;

  const ActivityInfo &AI;
  const llvm::DataLayout &DL;
};

} // namespace capsule

#endif
