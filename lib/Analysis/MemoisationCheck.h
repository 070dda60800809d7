//===- MemoisationCheck.h - Caches kept in static storage -------*- C++ -*-===//
//
// A derivative is that of what one call computes; memory that held values
// before the call is constant to it (docs/user-guide.md). A function that
// memoises in static storage across calls breaks that on a cache hit:
//
//   static double last_x = NAN, last_y;
//   if (x == last_x) return last_y;   // computed by an earlier call
//
// returns a value whose dependence on x was computed outside the
// derivative, so its derivative would be silently lost (a zero where the
// user expects the derivative of what the function computes). The hallmark
// is an equality comparison of a value that carries derivatives with static
// storage the same code stores such values to: the cache's key. Both modes
// refuse it, naming the storage; a cache filled and hit within one call
// would be right, but nothing at compile time tells the two apart. Static
// storage the call writes on every path before reading it holds nothing
// from an earlier call and is no key: Fortran translated by f2c makes every
// local static, and Numerical Recipes' FMAX keeps its operands in statics.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_MEMOISATIONCHECK_H
#define CAPSULE_MEMOISATIONCHECK_H

#include <optional>
#include <string>

namespace llvm {
class FCmpInst;
class Function;
} // namespace llvm

namespace capsule {

class ActivityInfo;

/// Why \p Cmp, in the function \p AI describes, cannot be differentiated:
/// it compares a value that carries derivatives with the key of a cache
/// kept in static storage. Nothing for any other comparison.
std::optional<std::string> whyMemoisation(const llvm::FCmpInst &Cmp,
                                          const ActivityInfo &AI);

/// Marks in \p F, a whole function about to be split into the steps of
/// interruptible code, the loads of static storage its equality tests read
/// that every path of the call writes first, so that whyMemoisation still
/// knows them in a step that begins after the write.
void recordStaticsWrittenFirst(llvm::Function &F);

} // namespace capsule

#endif // CAPSULE_MEMOISATIONCHECK_H
