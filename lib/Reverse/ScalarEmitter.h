//===- ScalarEmitter.h - Arithmetic for derivative rules --------*- C++ -*-===//
//
// The arithmetic the derivative rules of elementary functions emit
// (DerivativeRules.cpp, ComplexRules.cpp), on one floating-point type:
// double or float, or a vector of them.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_SCALAREMITTER_H
#define CAPSULE_SCALAREMITTER_H

#include "Analysis/Signature.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace capsule {

class ScalarEmitter {
public:
  ScalarEmitter(llvm::IRBuilder<> &B, llvm::Type *Ty) : B(B), Ty(Ty) {}

  llvm::Value *c(double V) { return llvm::ConstantFP::get(Ty, V); }
  llvm::Value *mul(llvm::Value *A, llvm::Value *C) {
    return B.CreateFMul(A, C);
  }
  llvm::Value *div(llvm::Value *A, llvm::Value *C) {
    return B.CreateFDiv(A, C);
  }
  llvm::Value *add(llvm::Value *A, llvm::Value *C) {
    return B.CreateFAdd(A, C);
  }
  llvm::Value *sub(llvm::Value *A, llvm::Value *C) {
    return B.CreateFSub(A, C);
  }
  llvm::Value *neg(llvm::Value *A) { return B.CreateFNeg(A); }
  llvm::Value *sq(llvm::Value *A) { return mul(A, A); }
  llvm::Value *intrinsic(llvm::Intrinsic::ID ID,
                         llvm::ArrayRef<llvm::Value *> Args) {
    return B.CreateIntrinsic(ID, {Ty}, Args);
  }
  /// A libm function without an LLVM intrinsic (sinh, cosh, j0): double or
  /// float variant by type, once per lane of a vector. Marked as having no
  /// memory effects, so the optimizer may hoist or combine it like an
  /// intrinsic.
  llvm::Value *libm(llvm::StringRef DoubleName, llvm::Value *A) {
    return libmCall(DoubleName, {}, A);
  }
  /// jn(n, x) and yn(n, x).
  llvm::Value *libmOfOrder(llvm::StringRef DoubleName, llvm::Value *N,
                           llvm::Value *A) {
    return libmCall(DoubleName, N, A);
  }
  /// A libm function of two arguments (atan2) on scalars.
  llvm::Value *libm2(llvm::StringRef DoubleName, llvm::Value *A,
                     llvm::Value *C) {
    assert(!Ty->isVectorTy() && "libm2 takes scalars");
    std::string Name = DoubleName.str();
    if (Ty->isFloatTy())
      Name += "f";
    llvm::Module *M = B.GetInsertBlock()->getModule();
    return pureCall(M->getOrInsertFunction(Name, Ty, Ty, Ty), {A, C});
  }
  llvm::Value *order(int N) { return B.getInt32(N); }
  /// The polygamma function of order \p N (an i32): digamma for 0, computed
  /// in double by the runtime. Its own rule is polygamma of the next order,
  /// so every level of nested differentiation finds one.
  llvm::Value *polygamma(llvm::Value *N, llvm::Value *A) {
    return perLane(A, [&](llvm::Value *Lane) {
      llvm::Module *M = B.GetInsertBlock()->getModule();
      llvm::Type *Double = B.getDoubleTy();
      llvm::FunctionCallee F = M->getOrInsertFunction(
          "__capsule_polygamma", Double, B.getInt32Ty(), Double);
      llvm::Value *Wide = B.CreateFPExt(Lane, Double);
      return B.CreateFPTrunc(pureCall(F, {N, Wide}), Lane->getType());
    });
  }
  llvm::Value *select(llvm::Value *Cond, llvm::Value *A, llvm::Value *C) {
    return B.CreateSelect(Cond, A, C);
  }
  llvm::Value *zero() { return llvm::Constant::getNullValue(Ty); }
  /// A contribution of nothing (see zeroAdjoint).
  llvm::Value *noAdjoint() { return zeroAdjoint(Ty); }

  llvm::IRBuilder<> &B;
  llvm::Type *Ty;

private:
  llvm::Value *libmCall(llvm::StringRef DoubleName, llvm::Value *Order,
                        llvm::Value *A) {
    return perLane(A, [&](llvm::Value *Lane) {
      llvm::Type *ElemTy = Lane->getType();
      std::string Name = DoubleName.str();
      if (ElemTy->isFloatTy())
        Name += "f";
      llvm::Module *M = B.GetInsertBlock()->getModule();
      if (!Order)
        return pureCall(M->getOrInsertFunction(Name, ElemTy, ElemTy), {Lane});
      llvm::FunctionCallee F =
          M->getOrInsertFunction(Name, ElemTy, B.getInt32Ty(), ElemTy);
      return pureCall(F, {Order, Lane});
    });
  }
  llvm::Value *pureCall(llvm::FunctionCallee F,
                        llvm::ArrayRef<llvm::Value *> Args) {
    llvm::CallInst *Call = B.CreateCall(F, Args);
    Call->setDoesNotAccessMemory();
    Call->setDoesNotThrow();
    return Call;
  }
  /// \p Scalar applied to each lane of \p A (to \p A itself if scalar).
  llvm::Value *
  perLane(llvm::Value *A,
          llvm::function_ref<llvm::Value *(llvm::Value *)> Scalar) {
    auto *VTy = llvm::dyn_cast<llvm::FixedVectorType>(A->getType());
    if (!VTy)
      return Scalar(A);
    llvm::Value *Result = llvm::PoisonValue::get(VTy);
    for (unsigned I = 0; I < VTy->getNumElements(); ++I)
      Result = B.CreateInsertElement(Result,
                                     Scalar(B.CreateExtractElement(A, I)), I);
    return Result;
  }
};

} // namespace capsule

#endif
