//===- SlotLaneLoads.h - Vector loads of stack slots, by lane ---*- C++ -*-===//
//
// The optimizer may load a stack slot holding a double and a pointer side
// by side as one vector of doubles and take the lanes apart again (Eigen's
// triangular solves with AVX: a slot of a scalar and a pointer, loaded as
// one <4 x double>, lane 0 splatted and lane 2 turned back into the
// pointer through integer bits). Read as a double's bits, the pointer would
// lose its shadow; read lane by lane, each lane is a load of what it holds.
// The same happens to other memory (Eigen's evaluator of a scaled Map read
// through a reference), where a lane turned into a pointer says so.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_SLOTLANELOADS_H
#define CAPSULE_SLOTLANELOADS_H

namespace llvm {
class Function;
}

namespace capsule {

/// Replaces each vector load of a stack slot in \p F (of any memory, where
/// a lane becomes a pointer) whose users take its
/// lanes one at a time (an extractelement of a constant lane, a shuffle of
/// one vector, a bitcast to as many integer lanes whose extracted lanes are
/// turned into pointers) by scalar loads of the lanes they take, each of
/// the type its user reads: a pointer where the lane's bits become one.
void loadSlotLanesApart(llvm::Function &F);

} // namespace capsule

#endif
