//===- ComplexRules.cpp - Derivatives of complex functions ----------------===//
//
// All but cabs, carg, creal, cimag and conj are holomorphic: the derivative
// f'(z) = a + ib gives the real partials d/dx = (a, b) and d/dy = (-b, a)
// of the result's (real, imaginary) parts. Complex helpers the rules need
// (square root, logarithm) are written with real functions, so nested
// differentiation of a rule finds rules all the way down.
//===----------------------------------------------------------------------===//
#include "Reverse/ComplexRules.h"

#include "Reverse/ScalarEmitter.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace capsule {

namespace {

struct Complex {
  Value *Re;
  Value *Im;
};

class ComplexEmitter : public ScalarEmitter {
public:
  using ScalarEmitter::ScalarEmitter;

  Complex real(double V) { return {c(V), zero()}; }
  Complex cadd(Complex A, Complex C) {
    return {add(A.Re, C.Re), add(A.Im, C.Im)};
  }
  Complex csub(Complex A, Complex C) {
    return {sub(A.Re, C.Re), sub(A.Im, C.Im)};
  }
  Complex cneg(Complex A) { return {neg(A.Re), neg(A.Im)}; }
  Complex cmul(Complex A, Complex C) {
    return {sub(mul(A.Re, C.Re), mul(A.Im, C.Im)),
            add(mul(A.Re, C.Im), mul(A.Im, C.Re))};
  }
  Complex cdiv(Complex A, Complex C) {
    Value *Den = add(sq(C.Re), sq(C.Im));
    return {div(add(mul(A.Re, C.Re), mul(A.Im, C.Im)), Den),
            div(sub(mul(A.Im, C.Re), mul(A.Re, C.Im)), Den)};
  }
  Complex inverse(Complex A) { return cdiv(real(1), A); }
  Value *modulus(Complex A) {
    return intrinsic(Intrinsic::sqrt, {add(sq(A.Re), sq(A.Im))});
  }
  /// The principal square root, imaginary part with the sign of A's.
  Complex csqrt(Complex A) {
    Value *M = modulus(A);
    Value *Re = intrinsic(Intrinsic::sqrt, {mul(c(0.5), add(M, A.Re))});
    Value *Im = intrinsic(Intrinsic::sqrt, {mul(c(0.5), sub(M, A.Re))});
    return {Re, intrinsic(Intrinsic::copysign, {Im, A.Im})};
  }
  Complex clog(Complex A) {
    return {intrinsic(Intrinsic::log, {modulus(A)}),
            libm2("atan2", A.Im, A.Re)};
  }
  Complex csin(Complex A) {
    return {mul(intrinsic(Intrinsic::sin, {A.Re}), libm("cosh", A.Im)),
            mul(intrinsic(Intrinsic::cos, {A.Re}), libm("sinh", A.Im))};
  }
  Complex ccos(Complex A) {
    return {mul(intrinsic(Intrinsic::cos, {A.Re}), libm("cosh", A.Im)),
            neg(mul(intrinsic(Intrinsic::sin, {A.Re}), libm("sinh", A.Im)))};
  }
  Complex csinh(Complex A) {
    return {mul(libm("sinh", A.Re), intrinsic(Intrinsic::cos, {A.Im})),
            mul(libm("cosh", A.Re), intrinsic(Intrinsic::sin, {A.Im}))};
  }
  Complex ccosh(Complex A) {
    return {mul(libm("cosh", A.Re), intrinsic(Intrinsic::cos, {A.Im})),
            mul(libm("sinh", A.Re), intrinsic(Intrinsic::sin, {A.Im}))};
  }

  /// The columns of a function holomorphic in one argument, with
  /// derivative \p Slope there.
  void holomorphic(ComplexPartials &P, Complex Slope) {
    P.push_back({Slope.Re, Slope.Im});
    P.push_back({neg(Slope.Im), Slope.Re});
  }
};

/// The derivative of the holomorphic function \p Op of one argument \p Z
/// with result \p R.
Complex unarySlope(ComplexEmitter &E, MathOp Op, Complex Z,
                   function_ref<Complex()> R) {
  auto SqrtOf = [&](Complex A) { return E.csqrt(A); };
  switch (Op) {
  case MathOp::CExp:
    return R();
  case MathOp::CLog:
    return E.inverse(Z);
  case MathOp::CSqrt:
    return E.cdiv(E.real(0.5), R());
  case MathOp::CSin:
    return E.ccos(Z);
  case MathOp::CCos:
    return E.cneg(E.csin(Z));
  case MathOp::CTan:
    return E.cadd(E.real(1), E.cmul(R(), R()));
  case MathOp::CSinh:
    return E.ccosh(Z);
  case MathOp::CCosh:
    return E.csinh(Z);
  case MathOp::CTanh:
    return E.csub(E.real(1), E.cmul(R(), R()));
  case MathOp::CAsin:
    return E.inverse(SqrtOf(E.csub(E.real(1), E.cmul(Z, Z))));
  case MathOp::CAcos:
    return E.cneg(E.inverse(SqrtOf(E.csub(E.real(1), E.cmul(Z, Z)))));
  case MathOp::CAtan:
    return E.inverse(E.cadd(E.real(1), E.cmul(Z, Z)));
  case MathOp::CAsinh:
    return E.inverse(SqrtOf(E.cadd(E.real(1), E.cmul(Z, Z))));
  case MathOp::CAcosh: // 1 / (sqrt(z - 1) sqrt(z + 1)), the branch cacosh has
    return E.inverse(
        E.cmul(SqrtOf(E.csub(Z, E.real(1))), SqrtOf(E.cadd(Z, E.real(1)))));
  case MathOp::CAtanh:
    return E.inverse(E.csub(E.real(1), E.cmul(Z, Z)));
  case MathOp::CProj: // the identity for finite z
    return E.real(1);
  default:
    llvm_unreachable("not a holomorphic function of one argument");
  }
}

} // namespace

SmallVector<Value *, 2> complexParts(IRBuilder<> &B, Value *V, Type *Shape) {
  if (isa<StructType>(Shape))
    return {B.CreateExtractValue(V, 0), B.CreateExtractValue(V, 1)};
  if (isa<FixedVectorType>(Shape))
    return {B.CreateExtractElement(V, uint64_t(0)),
            B.CreateExtractElement(V, uint64_t(1))};
  return {V};
}

Value *fromComplexParts(IRBuilder<> &B, Type *Shape, Type *Ty,
                        ArrayRef<Value *> Parts) {
  if (isa<StructType>(Shape))
    return B.CreateInsertValue(
        B.CreateInsertValue(PoisonValue::get(Ty), Parts[0], 0), Parts[1], 1);
  if (isa<FixedVectorType>(Shape))
    return B.CreateInsertElement(
        B.CreateInsertElement(PoisonValue::get(Ty), Parts[0], uint64_t(0)),
        Parts[1], uint64_t(1));
  return Parts[0];
}

ComplexPartials
complexPartials(IRBuilder<> &B, MathOp Op, ArrayRef<Value *> Args,
                function_ref<SmallVector<Value *, 2>()> Result) {
  ComplexEmitter E(B, Args[0]->getType());
  ComplexPartials P;
  Complex Z{Args[0], Args.size() > 1 ? Args[1] : nullptr};
  auto R = [&]() -> Complex {
    SmallVector<Value *, 2> Parts = Result();
    return {Parts[0], Parts[1]};
  };
  switch (Op) {
  case MathOp::CMul: {
    Complex W{Args[2], Args[3]};
    E.holomorphic(P, W);
    E.holomorphic(P, Z);
    return P;
  }
  case MathOp::CDiv: { // d(z/w)/dz = 1/w, d(z/w)/dw = -(z/w)/w
    Complex W{Args[2], Args[3]};
    E.holomorphic(P, E.inverse(W));
    E.holomorphic(P, E.cneg(E.cdiv(R(), W)));
    return P;
  }
  case MathOp::CPow: { // z^w: w z^w / z and z^w log z
    Complex W{Args[2], Args[3]};
    E.holomorphic(P, E.cdiv(E.cmul(W, R()), Z));
    E.holomorphic(P, E.cmul(R(), E.clog(Z)));
    return P;
  }
  case MathOp::Conj:
    P.push_back({E.c(1), E.zero()});
    P.push_back({E.zero(), E.c(-1)});
    return P;
  case MathOp::CAbs: { // x / |z|, y / |z|; 0 at 0, where |z| has no slope
    Value *M = E.modulus(Z);
    Value *AtZero = B.CreateFCmpOEQ(M, E.zero());
    P.push_back({E.select(AtZero, E.zero(), E.div(Z.Re, M))});
    P.push_back({E.select(AtZero, E.zero(), E.div(Z.Im, M))});
    return P;
  }
  case MathOp::CArg: { // atan2(y, x)
    Value *M2 = E.add(E.sq(Z.Re), E.sq(Z.Im));
    P.push_back({E.neg(E.div(Z.Im, M2))});
    P.push_back({E.div(Z.Re, M2)});
    return P;
  }
  case MathOp::CReal:
    P.push_back({E.c(1)});
    P.push_back({E.zero()});
    return P;
  case MathOp::CImag:
    P.push_back({E.zero()});
    P.push_back({E.c(1)});
    return P;
  default:
    E.holomorphic(P, unarySlope(E, Op, Z, R));
    return P;
  }
}

} // namespace capsule
