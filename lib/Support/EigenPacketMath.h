//===- EigenPacketMath.h - Eigen's vector math as libm calls ----*- C++ -*-===//
//
// Eigen evaluates exp, log, pow and their kin of arrays (a.exp(),
// a.log().sum(), a.pow(b)) a packet at a time with functions of its own
// (Eigen::internal::pexp<Packet2d> and kin): polynomials whose range
// reduction takes a double's exponent apart with integer operations on its
// bits, which have no derivative. In a file that differentiates, those
// functions are kept out of line; in the code Capsule differentiates, a call
// of one becomes the libm function it approximates on each lane, whose
// derivative is known. The program's own calls keep Eigen's packet code.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_EIGENPACKETMATH_H
#define CAPSULE_EIGENPACKETMATH_H

namespace llvm {
class Function;
} // namespace llvm

namespace capsule {

/// Whether \p F is one of Eigen's packet math functions that have a libm
/// counterpart.
bool isEigenPacketMath(const llvm::Function &F);

/// Replaces \p F's calls of Eigen's packet math functions with the libm
/// function on each lane.
void callLibmForEigenPacketMath(llvm::Function &F);

} // namespace capsule

#endif
