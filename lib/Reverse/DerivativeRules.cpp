//===- DerivativeRules.cpp - Adjoints of elementary functions -------------===//
//
// Rules in terms of x = argument 0, y = argument 1, r = result, d = adjoint
// of the result. Where the result is at hand it is reused (exp, tanh, sqrt)
// instead of recomputing the function.
//===----------------------------------------------------------------------===//
#include "Reverse/DerivativeRules.h"

#include "Analysis/Signature.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace capsule {

namespace {

class RuleEmitter {
public:
  RuleEmitter(IRBuilder<> &B, const PrimalOperands &P, Value *D)
      : B(B), P(P), D(D), Ty(D->getType()) {}

  Value *x() { return P.Arg(0); }
  Value *y() { return P.Arg(1); }
  Value *r() { return P.Result(); }
  Value *c(double V) { return ConstantFP::get(Ty, V); }
  Value *mul(Value *A, Value *C) { return B.CreateFMul(A, C); }
  Value *div(Value *A, Value *C) { return B.CreateFDiv(A, C); }
  Value *add(Value *A, Value *C) { return B.CreateFAdd(A, C); }
  Value *sub(Value *A, Value *C) { return B.CreateFSub(A, C); }
  Value *neg(Value *A) { return B.CreateFNeg(A); }
  Value *sq(Value *A) { return mul(A, A); }
  Value *intrinsic(Intrinsic::ID ID, ArrayRef<Value *> Args) {
    return B.CreateIntrinsic(ID, {Ty}, Args);
  }
  /// A libm function without an LLVM intrinsic (sinh, cosh): double or
  /// float variant by type. Marked as having no memory effects, so the
  /// optimizer may hoist or combine it like an intrinsic.
  Value *libm(StringRef DoubleName, Value *A) {
    Module *M = B.GetInsertBlock()->getModule();
    std::string Name = DoubleName.str();
    if (Ty->getScalarType()->isFloatTy())
      Name += "f";
    FunctionCallee F = M->getOrInsertFunction(Name, Ty, Ty);
    CallInst *Call = B.CreateCall(F, {A});
    Call->setDoesNotAccessMemory();
    Call->setDoesNotThrow();
    return Call;
  }
  Value *select(Value *Cond, Value *A, Value *C) {
    return B.CreateSelect(Cond, A, C);
  }
  Value *zero() { return Constant::getNullValue(Ty); }
  /// A contribution of nothing (see zeroAdjoint).
  Value *noAdjoint() { return zeroAdjoint(Ty); }

  IRBuilder<> &B;
  const PrimalOperands &P;
  Value *D;
  Type *Ty;
};

/// Contribution to the first argument of a one-argument function.
Value *unaryAdjoint(RuleEmitter &E, MathOp Op) {
  Value *D = E.D;
  switch (Op) {
  case MathOp::Sin:
    return E.mul(D, E.intrinsic(Intrinsic::cos, {E.x()}));
  case MathOp::Cos:
    return E.neg(E.mul(D, E.intrinsic(Intrinsic::sin, {E.x()})));
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
    return E.mul(D, E.libm("cosh", E.x()));
  case MathOp::Cosh:
    return E.mul(D, E.libm("sinh", E.x()));
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
  case MathOp::Ldexp: {
    if (Want(0)) {
      Value *N = E.P.Arg(1);
      Adj[0] =
          B.CreateIntrinsic(Intrinsic::ldexp, {E.Ty, N->getType()}, {D, N});
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
