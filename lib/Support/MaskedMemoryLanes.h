//===- MaskedMemoryLanes.h - Masked loads and stores by lane ----*- C++ -*-===//
//
// Vectorized code reads and writes memory under a mask: llvm.masked.gather
// of x[idx[i]] (a lookup table, an embedding, the fields of an array of
// structs), llvm.masked.load and .store of a loop's conditional accesses or
// its last partial iteration, llvm.masked.scatter. The loop vectorizer
// emits them where the target makes them cheap (AVX2 and AVX-512), in code
// that an -flto compile optimized before Capsule differentiates it at the
// link. A gather's derivative was lost without a word, and the others were
// refused. Each becomes one scalar load or store per lane, run where its
// mask's lane is set (unconditionally where the mask is a constant), with
// the lane's own address, which the sweeps handle like any access.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_MASKEDMEMORYLANES_H
#define CAPSULE_MASKEDMEMORYLANES_H

namespace llvm {
class Function;
} // namespace llvm

namespace capsule {

/// Replaces \p F's masked loads, stores, gathers and scatters by scalar
/// accesses lane by lane.
void accessMaskedMemoryByLane(llvm::Function &F);

} // namespace capsule

#endif // CAPSULE_MASKEDMEMORYLANES_H
