//===- SortCalls.h - qsort with its elements' pointer layout ----*- C++ -*-===//
//
// qsort's built-in rule moves the whole shadow of each element with the
// element in the forward sweep, which the shadow pointers of pointer fields
// need. Adjoints must not move then: a gradient may be handed, in the shadow
// of an array it sorts in place, the adjoints of the array's sorted contents,
// and a checkpointed gradient's stage finds there the adjoints later stages
// left. Where the layout of the elements is known, the runtime's qsort with
// layout moves only the pointer stretches forward (none for numbers); the
// reverse sweep moves whole elements back, as qsort's rule does.
//
// The layout is read at the pipeline's start, where clang's types are still
// there (optimized code keeps byte offsets), and kept on the call as
// metadata; calls in a clone prepared for differentiation are then
// rewritten. The program's own code keeps calling qsort.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_SORTCALLS_H
#define CAPSULE_SORTCALLS_H

namespace llvm {
class CallBase;
class Function;
class Module;
} // namespace llvm

namespace capsule {

/// Notes on each call of qsort in \p M (which has qsort's built-in rules)
/// where its elements keep pointers, if their layout is known.
void noteSortLayouts(llvm::Module &M);

/// In \p F, a clone being prepared for differentiation and in SSA form,
/// calls of qsort whose elements' layout is known (noted before, or found
/// now that -O0 code's reloads of a pointer are one value) call the
/// runtime's qsort with layout instead.
void lowerSortCalls(llvm::Function &F);

/// Whether the sort \p Call (of qsort, or of the runtime's qsort with
/// layout) moves shadow pointers with its elements: it does unless the
/// elements are known to hold none.
bool sortMovesShadowPointers(const llvm::CallBase &Call);

} // namespace capsule

#endif
