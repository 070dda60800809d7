//===- SearchCalls.h - bsearch as an index into its array -------*- C++ -*-===//
//
// bsearch returns a pointer into the array it searches, or null. Its body is
// in the C library, so the sweeps could not tell where that pointer points
// and what its shadow is. Rewritten as the array's address plus an index
// (the runtime's bsearch), the result is an ordinary address computation
// whose shadow is the shadow array's address plus the same index.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_SEARCHCALLS_H
#define CAPSULE_SEARCHCALLS_H

namespace llvm {
class Function;
}

namespace capsule {

/// Rewrites the calls of the C library's bsearch in \p F into
/// `i >= 0 ? (char *)base + i * size : NULL`, with i the index of the
/// element found (or -1), from a runtime function that has no derivative.
void lowerSearchCalls(llvm::Function &F);

} // namespace capsule

#endif
