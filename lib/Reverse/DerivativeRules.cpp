//===- DerivativeRules.cpp - Adjoints of elementary functions -------------===//
//
// Rules in terms of x = argument 0, y = argument 1, r = result, d = adjoint
// of the result. Where the result is at hand it is reused (exp, tanh, sqrt)
// instead of recomputing the function.
//===----------------------------------------------------------------------===//
#include "Reverse/DerivativeRules.h"

#include "Analysis/Signature.h"
#include "Reverse/ScalarEmitter.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace capsule {

namespace {

/// A rule's view of the call: its operands, its result and the adjoint (or,
/// in forward mode, the seed) of its result.
class RuleEmitter : public ScalarEmitter {
public:
  RuleEmitter(IRBuilder<> &B, const PrimalOperands &P, Value *D)
      : ScalarEmitter(B, D->getType()), P(P), D(D) {}

  Value *x() { return P.Arg(0); }
  Value *y() { return P.Arg(1); }
  Value *r() { return P.Result(); }

  /// Op(x): the program's own result when it computes it beside this call,
  /// else a call of the intrinsic \p Id, or of libm's \p Name.
  Value *sibling(MathOp Op, Intrinsic::ID Id) {
    Value *Known = P.Sibling(Op);
    return Known ? Known : intrinsic(Id, {x()});
  }
  Value *sibling(MathOp Op, StringRef Name) {
    Value *Known = P.Sibling(Op);
    return Known ? Known : libm(Name, x());
  }

  const PrimalOperands &P;
  Value *D;
};

/// Contribution to the first argument of a one-argument function.
Value *unaryAdjoint(RuleEmitter &E, MathOp Op) {
  Value *D = E.D;
  switch (Op) {
  case MathOp::Sin:
    return E.mul(D, E.sibling(MathOp::Cos, Intrinsic::cos));
  case MathOp::Cos:
    return E.neg(E.mul(D, E.sibling(MathOp::Sin, Intrinsic::sin)));
  case MathOp::Tan:
    return E.mul(D, E.add(E.c(1), E.sq(E.r())));
  case MathOp::Asin:
    return E.div(D, E.intrinsic(Intrinsic::sqrt, {E.sub(E.c(1), E.sq(E.x()))}));
  case MathOp::Acos:
    return E.neg(
        E.div(D, E.intrinsic(Intrinsic::sqrt, {E.sub(E.c(1), E.sq(E.x()))})));
  case MathOp::Atan:
    return E.div(D, E.add(E.c(1), E.sq(E.x())));
  case MathOp::Sinh:
    return E.mul(D, E.sibling(MathOp::Cosh, "cosh"));
  case MathOp::Cosh:
    return E.mul(D, E.sibling(MathOp::Sinh, "sinh"));
  case MathOp::Tanh:
    return E.mul(D, E.sub(E.c(1), E.sq(E.r())));
  case MathOp::Exp:
    return E.mul(D, E.r());
  case MathOp::Exp2:
    return E.mul(E.mul(D, E.r()), E.c(numbers::ln2));
  case MathOp::Expm1:
    return E.mul(D, E.add(E.r(), E.c(1)));
  case MathOp::Log:
    return E.div(D, E.x());
  case MathOp::Log2:
    return E.div(D, E.mul(E.x(), E.c(numbers::ln2)));
  case MathOp::Log10:
    return E.div(D, E.mul(E.x(), E.c(numbers::ln10)));
  case MathOp::Log1p:
    return E.div(D, E.add(E.c(1), E.x()));
  case MathOp::Sqrt:
    return E.div(D, E.mul(E.c(2), E.r()));
  case MathOp::Cbrt:
    return E.div(D, E.mul(E.c(3), E.sq(E.r())));
  case MathOp::Fabs: {
    Value *Negative = E.B.CreateFCmpOLT(E.x(), E.zero());
    return E.select(Negative, E.neg(D), D);
  }
  case MathOp::Erf: {
    Value *Gauss = E.intrinsic(Intrinsic::exp, {E.neg(E.sq(E.x()))});
    return E.mul(D, E.mul(Gauss, E.c(numbers::inv_sqrtpi * 2)));
  }
  case MathOp::Asinh:
    return E.div(D, E.intrinsic(Intrinsic::sqrt, {E.add(E.sq(E.x()), E.c(1))}));
  case MathOp::Acosh: // sqrt(x - 1) sqrt(x + 1): x^2 - 1 would cancel near 1
    return E.div(D,
                 E.mul(E.intrinsic(Intrinsic::sqrt, {E.sub(E.x(), E.c(1))}),
                       E.intrinsic(Intrinsic::sqrt, {E.add(E.x(), E.c(1))})));
  case MathOp::Atanh:
    return E.div(D, E.sub(E.c(1), E.sq(E.x())));
  case MathOp::Erfc: {
    Value *Gauss = E.intrinsic(Intrinsic::exp, {E.neg(E.sq(E.x()))});
    return E.mul(D, E.mul(Gauss, E.c(-numbers::inv_sqrtpi * 2)));
  }
  case MathOp::Exp10:
    return E.mul(E.mul(D, E.r()), E.c(numbers::ln10));
  case MathOp::Tgamma:
    return E.mul(D, E.mul(E.r(), E.polygamma(E.order(0), E.x())));
  case MathOp::Lgamma:
    return E.mul(D, E.polygamma(E.order(0), E.x()));
  case MathOp::Frexp: {
    // The mantissa is x 2^-e, so its slope r / x is exact; at 0 (e = 0) 1.
    Value *IsZero = E.B.CreateFCmpOEQ(E.x(), E.zero());
    return E.mul(D, E.select(IsZero, E.c(1), E.div(E.r(), E.x())));
  }
  case MathOp::BesselJ0:
    return E.neg(E.mul(D, E.libm("j1", E.x())));
  case MathOp::BesselY0:
    return E.neg(E.mul(D, E.libm("y1", E.x())));
  case MathOp::BesselJ1: // (J0 - J2) / 2, also at 0 where J1(x) / x is not
    return E.mul(
        D, E.mul(E.c(0.5), E.sub(E.libm("j0", E.x()),
                                 E.libmOfOrder("jn", E.order(2), E.x()))));
  case MathOp::BesselY1:
    return E.mul(
        D, E.mul(E.c(0.5), E.sub(E.libm("y0", E.x()),
                                 E.libmOfOrder("yn", E.order(2), E.x()))));
  case MathOp::Identity:
    return D;
  default:
    llvm_unreachable("not a one-argument rule");
  }
}

} // namespace

SmallVector<Value *, 3> mathAdjoints(IRBuilder<> &B, MathOp Op,
                                     unsigned NumArgs, ArrayRef<bool> Wanted,
                                     const PrimalOperands &Primal, Value *D) {
  RuleEmitter E(B, Primal, D);
  SmallVector<Value *, 3> Adj(NumArgs, nullptr);
  auto Want = [&](unsigned I) { return I < Wanted.size() && Wanted[I]; };
  switch (Op) {
  case MathOp::Piecewise:
    return Adj;
  case MathOp::Atan2: { // atan2(y, x): argument 0 is y.
    Value *Den = E.add(E.sq(E.x()), E.sq(E.y()));
    if (Want(0))
      Adj[0] = E.div(E.mul(D, E.y()), Den);
    if (Want(1))
      Adj[1] = E.neg(E.div(E.mul(D, E.x()), Den));
    return Adj;
  }
  case MathOp::Pow: {
    if (Want(0)) {
      Value *PowM1 = E.intrinsic(Intrinsic::pow, {E.x(), E.sub(E.y(), E.c(1))});
      Adj[0] = E.mul(D, E.mul(E.y(), PowM1));
    }
    if (Want(1)) {
      // d r/d y = r log x; where r = 0 (x = 0) the limit is 0, not NaN.
      Value *Term = E.mul(E.r(), E.intrinsic(Intrinsic::log, {E.x()}));
      Value *IsZero = B.CreateFCmpOEQ(E.r(), E.zero());
      Adj[1] = E.mul(D, E.select(IsZero, E.noAdjoint(), Term));
    }
    return Adj;
  }
  case MathOp::Powi: {
    if (Want(0)) {
      Value *N = E.P.Arg(1);
      Value *NM1 = B.CreateSub(N, ConstantInt::get(N->getType(), 1));
      Value *PowM1 = B.CreateIntrinsic(Intrinsic::powi, {E.Ty, N->getType()},
                                       {E.x(), NM1});
      Adj[0] = E.mul(D, E.mul(B.CreateSIToFP(N, E.Ty), PowM1));
    }
    return Adj;
  }
  case MathOp::Ldexp: { // ldexp, scalbn, scalbln: x 2^n
    if (Want(0)) {
      // scalbln's long exponent, clamped where every result saturates.
      Value *N = B.CreateSExtOrTrunc(
          B.CreateBinaryIntrinsic(
              Intrinsic::smax,
              B.CreateBinaryIntrinsic(
                  Intrinsic::smin, E.P.Arg(1),
                  ConstantInt::get(E.P.Arg(1)->getType(), 4096)),
              ConstantInt::get(E.P.Arg(1)->getType(), -4096)),
          B.getInt32Ty());
      Adj[0] =
          B.CreateIntrinsic(Intrinsic::ldexp, {E.Ty, B.getInt32Ty()}, {D, N});
    }
    return Adj;
  }
  case MathOp::Polygamma: { // __capsule_polygamma(n, x)
    if (Want(1)) {
      Value *Next = B.CreateAdd(E.P.Arg(0), E.order(1));
      Adj[1] = E.mul(D, E.polygamma(Next, E.P.Arg(1)));
    }
    return Adj;
  }
  case MathOp::BesselJn:
  case MathOp::BesselYn: { // (Z[n-1] - Z[n+1]) / 2
    if (Want(1)) {
      StringRef Name = Op == MathOp::BesselJn ? "jn" : "yn";
      Value *N = E.P.Arg(0), *X = E.P.Arg(1);
      Value *Below = E.libmOfOrder(Name, B.CreateSub(N, E.order(1)), X);
      Value *Above = E.libmOfOrder(Name, B.CreateAdd(N, E.order(1)), X);
      Adj[1] = E.mul(D, E.mul(E.c(0.5), E.sub(Below, Above)));
    }
    return Adj;
  }
  case MathOp::Fdim: { // x - y where x > y, else +0
    Value *Above = B.CreateFCmpOGT(E.x(), E.y());
    if (Want(0))
      Adj[0] = E.select(Above, D, E.noAdjoint());
    if (Want(1))
      Adj[1] = E.select(Above, E.neg(D), E.noAdjoint());
    return Adj;
  }
  case MathOp::Remainder: { // x - n y, n = x / y rounded to nearest, even
    if (Want(0))
      Adj[0] = D;
    if (Want(1)) {
      Value *N = E.intrinsic(Intrinsic::roundeven,
                             {E.div(E.sub(E.x(), E.r()), E.y())});
      Adj[1] = E.neg(E.mul(D, N));
    }
    return Adj;
  }
  case MathOp::Hypot: {
    if (Want(0))
      Adj[0] = E.div(E.mul(D, E.x()), E.r());
    if (Want(1))
      Adj[1] = E.div(E.mul(D, E.y()), E.r());
    return Adj;
  }
  case MathOp::Fmin:
  case MathOp::Fmax: {
    // The adjoint goes to the operand that was selected; ties go to x.
    Value *TookX = B.CreateFCmpOEQ(E.r(), E.x());
    if (auto *Cmp = dyn_cast<Instruction>(TookX))
      Cmp->setMetadata(RuleComparisonMD, MDNode::get(B.getContext(), {}));
    if (Want(0))
      Adj[0] = E.select(TookX, D, E.noAdjoint());
    if (Want(1))
      Adj[1] = E.select(TookX, E.noAdjoint(), D);
    return Adj;
  }
  case MathOp::Copysign: {
    if (Want(0)) {
      Value *One = E.c(1);
      Value *Sx = E.intrinsic(Intrinsic::copysign, {One, E.x()});
      Value *Sy = E.intrinsic(Intrinsic::copysign, {One, E.y()});
      Adj[0] = E.mul(D, E.mul(Sx, Sy));
    }
    return Adj;
  }
  case MathOp::Fmod: { // x - trunc(x / y) * y, the quotient piecewise constant
    if (Want(0))
      Adj[0] = D;
    if (Want(1))
      Adj[1] =
          E.neg(E.mul(D, E.intrinsic(Intrinsic::trunc, {E.div(E.x(), E.y())})));
    return Adj;
  }
  case MathOp::Fma:
  case MathOp::FMulAdd: {
    if (Want(0))
      Adj[0] = E.mul(D, E.y());
    if (Want(1))
      Adj[1] = E.mul(D, E.x());
    if (Want(2))
      Adj[2] = D;
    return Adj;
  }
  default:
    if (Want(0))
      Adj[0] = unaryAdjoint(E, Op);
    return Adj;
  }
}

} // namespace capsule
