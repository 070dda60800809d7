//===- BlasRules.cpp - Built-in rules of the CBLAS routines ---------------===//
#include "Support/BlasRules.h"

#include "Support/CustomRules.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace capsule {

namespace {

/// A routine with rules in the runtime: its C signature, one letter per
/// type (result first; v void, d double, i 32-bit integer or enumeration,
/// p pointer), and whether its augmented rule returns a tape.
struct BlasRoutine {
  const char *Name;
  const char *Signature;
  bool Tape;
};

constexpr BlasRoutine Routines[] = {
    {"cblas_ddot", "dipipi", true},
    {"cblas_daxpy", "vidpipi", true},
    {"cblas_dscal", "vidpi", true},
    {"cblas_dnrm2", "dipi", true},
    {"cblas_dcopy", "vipipi", false},
    {"cblas_dgemv", "viiiidpipidpi", true},
    {"cblas_dgemm", "viiiiiidpipidpi", true},
};

Type *typeOf(LLVMContext &C, char Letter) {
  switch (Letter) {
  case 'd':
    return Type::getDoubleTy(C);
  case 'i':
    return Type::getInt32Ty(C);
  case 'p':
    return PointerType::getUnqual(C);
  default:
    return Type::getVoidTy(C);
  }
}

bool hasSignature(const Function &F, StringRef Signature) {
  LLVMContext &C = F.getContext();
  FunctionType *FT = F.getFunctionType();
  if (FT->isVarArg() || FT->getNumParams() + 1 != Signature.size() ||
      FT->getReturnType() != typeOf(C, Signature[0]))
    return false;
  for (auto [K, T] : enumerate(FT->params()))
    if (T != typeOf(C, Signature[K + 1]))
      return false;
  return true;
}

/// The rules' types, as the custom-rule convention derives them from the
/// routine's (CustomRules.h), and as runtime/BlasRules.c defines them.
FunctionType *augmentType(const Function &F, bool Tape) {
  LLVMContext &C = F.getContext();
  Type *Ret = F.getReturnType(), *Ptr = PointerType::getUnqual(C);
  Type *Result =
      Tape ? (Ret->isVoidTy() ? Ptr : StructType::get(C, {Ptr, Ret})) : Ret;
  return FunctionType::get(Result, argumentsWithShadows(F), false);
}

FunctionType *gradientType(const Function &F, bool Tape) {
  LLVMContext &C = F.getContext();
  SmallVector<Type *, 16> Params = argumentsWithShadows(F);
  if (!F.getReturnType()->isVoidTy())
    Params.push_back(F.getReturnType());
  if (Tape)
    Params.push_back(PointerType::getUnqual(C));
  SmallVector<Type *, 4> Adjoints = adjointTypes(F);
  Type *Result = Adjoints.empty()       ? Type::getVoidTy(C)
                 : Adjoints.size() == 1 ? Adjoints[0]
                                        : StructType::get(C, Adjoints);
  return FunctionType::get(Result, Params, false);
}

FunctionType *tangentType(const Function &F) {
  Type *Ret = F.getReturnType();
  Type *Result =
      Ret->isVoidTy() ? Ret : StructType::get(F.getContext(), {Ret, Ret});
  return FunctionType::get(Result, argumentsWithTangents(F), false);
}

Function *declareRule(Module &M, StringRef Routine, StringRef Kind,
                      FunctionType *Ty) {
  std::string Name =
      ("__capsule_blas_" + Routine.drop_front(strlen("cblas_")) + "_" + Kind)
          .str();
  return cast<Function>(M.getOrInsertFunction(Name, Ty).getCallee());
}

} // namespace

void attachBlasRules(Module &M) {
  for (const BlasRoutine &R : Routines) {
    Function *F = M.getFunction(R.Name);
    if (!F || !F->isDeclaration() || gradientRule(*F) || tangentRule(*F) ||
        !hasSignature(*F, R.Signature))
      continue;
    Function *Aug = declareRule(M, R.Name, "aug", augmentType(*F, R.Tape));
    Function *Grad = declareRule(M, R.Name, "grad", gradientType(*F, R.Tape));
    Function *Tan = declareRule(M, R.Name, "tan", tangentType(*F));
    setGradientRule(*F, *Aug, *Grad);
    setTangentRule(*F, *Tan);
    // Unused until a derivative calls them: kept from removal, as the
    // program's own rules are.
    appendToCompilerUsed(M, {Aug, Grad, Tan});
  }
}

} // namespace capsule
