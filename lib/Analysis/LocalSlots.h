//===- LocalSlots.h - Memory only the function's own code reaches -*- C++ -*-=//
//
// A local slot is memory the function owns and whose address it keeps to
// itself: a stack slot, or, in a step function, a spill or stack slot of
// the own area of its record (ResumableSplitter.h). What such a slot holds
// is exactly what the function stored into it, which lets activity analysis
// keep constant data inactive through memory, and, in checkpointed code,
// across yields (every value live across a yield goes through the record).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LOCALSLOTS_H
#define CAPSULE_LOCALSLOTS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace capsule {

/// A stack slot (the alloca, 0), or a slot of a step function's own record
/// area (the frame argument and the slot's offset).
using LocalSlot = std::pair<const llvm::Value *, uint64_t>;

class LocalSlots {
public:
  explicit LocalSlots(llvm::Function &F);

  /// The slot \p Ptr points into, if it certainly points into one.
  std::optional<LocalSlot> slotOf(const llvm::Value *Ptr) const;

  /// The slots whose addresses go nowhere but into their own loads, stores
  /// (as the address), memsets and journal barriers (which only save them).
  const llvm::DenseSet<LocalSlot> &privateSlots() const { return Private; }

private:
  void mapPointers();
  void findPrivateSlots();

  llvm::Function &F;
  /// The frame of a step function whose record's own area may hold slots.
  const llvm::Value *Frame = nullptr;
  uint64_t OwnBegin = 0, OwnEnd = 0;
  /// Per pointer instruction: the slot it points into, or none (it may
  /// point elsewhere). Pointers not (yet) in the map are undecided.
  llvm::DenseMap<const llvm::Value *, std::optional<LocalSlot>> PointsInto;
  llvm::DenseSet<LocalSlot> Private;
};

} // namespace capsule

#endif
