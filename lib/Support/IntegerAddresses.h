//===- IntegerAddresses.h - Addresses computed on integers ------*- C++ -*-===//
//
// Code that aligns memory itself computes the address on integers:
// `(char *)(((uintptr_t)p & ~31) + 32)` (Eigen's handmade_aligned_malloc
// with AVX, pool allocators). Made from an integer, such a pointer has no
// shadow; but it is p moved by an offset, and the shadow of p moved by the
// same offset is its shadow.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_INTEGERADDRESSES_H
#define CAPSULE_INTEGERADDRESSES_H

namespace llvm {
class Function;
}

namespace capsule {

/// Rewrites each inttoptr in \p F whose integer is computed from one
/// pointer p converted to an integer by additions, subtractions and bitwise
/// operations with constants into a byte GEP of p by the difference. The
/// addresses are the same.
void rebaseIntegerAddresses(llvm::Function &F);

} // namespace capsule

#endif
