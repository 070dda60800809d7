//===- Activity.h - Which values carry derivatives --------------*- C++ -*-===//
//
// Two facts per value of a function prepared for differentiation:
//  - a pointer *has a shadow* when it may point to memory whose adjoints are
//    tracked (derived from dup arguments, allocations, stack slots, mutable
//    globals, or loaded from memory that has a shadow);
//  - a floating-point value is *active* when it may depend on an active input
//    (varied, forward) and may influence an active output (useful, backward).
// Integer and inactive code costs nothing in the reverse sweep.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_ACTIVITY_H
#define CAPSULE_ACTIVITY_H

#include "Analysis/LocalSlots.h"
#include "Analysis/Signature.h"
#include "llvm/ADT/DenseSet.h"

namespace capsule {

class ActivityInfo {
public:
  ActivityInfo(llvm::Function &Prepared, const DiffSignature &Sig);

  bool hasShadow(const llvm::Value *V) const;
  bool isVaried(const llvm::Value *V) const { return Varied.contains(V); }
  bool isActive(const llvm::Value *V) const {
    return Varied.contains(V) && Useful.contains(V);
  }

private:
  void computeShadows();
  void computeVaried();
  void computeUseful();
  bool shadowSource(const llvm::Instruction &I) const;
  bool variedSource(const llvm::Instruction &I) const;
  void markUsefulRoots(llvm::SmallVectorImpl<const llvm::Value *> &Work);
  bool inQuietSlot(const llvm::Value *Ptr) const;

  llvm::Function &F;
  const DiffSignature &Sig;
  llvm::DenseSet<const llvm::Value *> Shadowed;
  llvm::DenseSet<const llvm::Value *> Varied;
  llvm::DenseSet<const llvm::Value *> Useful;
  LocalSlots Slots;
  /// Private local slots no active value reaches: loads from them are
  /// inactive.
  llvm::DenseSet<LocalSlot> QuietSlots;
};

/// True for a constant pointer into a mutable global defined in this module
/// (such globals get shadow globals).
bool constantHasShadow(const llvm::Constant *C);

} // namespace capsule

#endif
