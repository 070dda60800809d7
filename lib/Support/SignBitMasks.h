//===- SignBitMasks.h - Sign-bit arithmetic on floating-point bits -*- C++
//-*-===//
//
// SIMD code takes absolute values and negates by masking the sign bit of a
// double's bits (_mm_andnot_pd(-0.0, x), Eigen's pabs and pnegate), which
// optimization turns into integer `and`/`xor` between bitcasts or integer
// loads of the doubles. The derivative of bits is lost, so these become the
// floating-point operations they are.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_SIGNBITMASKS_H
#define CAPSULE_SIGNBITMASKS_H

namespace llvm {
class Function;
}

namespace capsule {

/// Rewrites, in \p F, integer `and`, `xor` and `or` of a floating-point
/// value's bits with a constant sign-bit mask, whose results are only read
/// back as floating point, into fabs, fneg and fneg(fabs) of the value.
/// The integer operand is bitcast back to floating point where it is not a
/// bitcast of one (an integer load is then retyped as a copy).
void rewriteSignBitMasks(llvm::Function &F);

} // namespace capsule

#endif
