//===- FloatBitOperations.h - Integer operations on float bits --*- C++ -*-===//
//
// SIMD code works on doubles' bits with integer operations that are
// floating-point operations in disguise: it takes absolute values and
// negates by masking the sign bit (_mm_andnot_pd(-0.0, x), Eigen's pabs and
// pnegate), and moves doubles between lanes with 32-bit shuffles
// (_mm_shuffle_epi32 in Eigen's pbroadcast4). Optimization turns them into
// integer `and`, `xor` and `shufflevector` between bitcasts or integer
// loads of the doubles. The derivative of bits is lost, so these become the
// floating-point operations they are.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_FLOATBITOPERATIONS_H
#define CAPSULE_FLOATBITOPERATIONS_H

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace capsule {

/// Rewrites, in \p F, integer operations on floating-point values' bits
/// whose results are only read back as floating point:
///  - `and`, `xor` and `or` with a constant sign-bit mask into fabs, fneg
///    and fneg(fabs) of the value;
///  - a shufflevector of integer lanes that moves whole floating-point
///    lanes (aligned groups of 32-bit lanes making a double) into the
///    shufflevector of those lanes.
/// The integer operands are bitcast back to floating point where they are
/// not bitcasts of it (an integer load is then retyped as a copy). Phis of
/// integers that are then only read back as floating point, directly or
/// through one another, become phis of floating point.
void rewriteFloatBitOperations(llvm::Function &F);

/// Makes each store of computed integer bits in \p F a store of the bits
/// cast to floating point, where that is what they are: a store into a
/// stack slot of floating-point type of an integer operation or shuffle
/// (Eigen's pnegate or _mm_xor_pd leaves its result in the temporary a
/// packet function takes by reference), and a store anywhere of a sign
/// operation (_mm_storeu_pd of _mm_xor_pd with -0.0), as floats or doubles
/// by its lanes' width. The slot can then be promoted and the operation is
/// read back as floating point (rewriteFloatBitOperations); stored as an
/// integer, its derivative was lost without a word.
void castBitsStoredAsFloat(llvm::Function &F);

/// Whether the bits of a floating-point value that \p Cast reinterprets
/// are only tested (`signbit(x)`: `icmp slt i64 %bits, 0`; `isinf(x)` at
/// -O0: a mask and an equality): through shifts, masks, truncations and
/// lane extractions to comparisons and switches. No value derived from
/// them is computed with, so they need no derivative.
bool floatBitsOnlyTested(const llvm::Instruction &Cast);

} // namespace capsule

#endif
