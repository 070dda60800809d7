//===- LibraryRules.cpp - Built-in rules of library routines -------------===//
#include "Support/LibraryRules.h"

#include "Support/CustomRules.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace capsule {

namespace {

/// A routine with rules in the runtime: the stem of its rules' names, its
/// C signature, one letter per type (result first; v void, d double, i
/// 32-bit integer or enumeration, l 64-bit integer, p pointer), and whether
/// its augmented rule returns a tape. The Fortran interface takes every
/// argument by address; its rules keep the scalars' values on their tapes.
struct LibraryRoutine {
  const char *Name;
  const char *Stem;
  const char *Signature;
  bool Tape;
};

constexpr LibraryRoutine Routines[] = {
    {"cblas_ddot", "blas_ddot", "dipipi", true},
    {"cblas_daxpy", "blas_daxpy", "vidpipi", true},
    {"cblas_dscal", "blas_dscal", "vidpi", true},
    {"cblas_dnrm2", "blas_dnrm2", "dipi", true},
    {"cblas_dcopy", "blas_dcopy", "vipipi", false},
    {"cblas_dgemv", "blas_dgemv", "viiiidpipidpi", true},
    {"cblas_dger", "blas_dger", "viiidpipipi", true},
    {"cblas_dtrsv", "blas_dtrsv", "viiiiipipi", true},
    {"cblas_dtrmv", "blas_dtrmv", "viiiiipipi", true},
    {"cblas_dsymv", "blas_dsymv", "viiidpipidpi", true},
    {"cblas_dgemm", "blas_dgemm", "viiiiiidpipidpi", true},
    {"cblas_dtrsm", "blas_dtrsm", "viiiiiiidpipi", true},
    {"cblas_dtrmm", "blas_dtrmm", "viiiiiiidpipi", true},
    {"cblas_dsyrk", "blas_dsyrk", "viiiiidpidpi", true},
    {"cblas_dsymm", "blas_dsymm", "viiiiidpipidpi", true},
    {"cblas_dsyr2k", "blas_dsyr2k", "viiiiidpipidpi", true},
    {"ddot_", "blas_f_ddot", "dppppp", true},
    {"daxpy_", "blas_f_daxpy", "vpppppp", true},
    {"dscal_", "blas_f_dscal", "vpppp", true},
    {"dnrm2_", "blas_f_dnrm2", "dppp", true},
    {"dcopy_", "blas_f_dcopy", "vppppp", true},
    {"dgemv_", "blas_f_dgemv", "vppppppppppp", true},
    {"dger_", "blas_f_dger", "vppppppppp", true},
    {"dtrsv_", "blas_f_dtrsv", "vpppppppp", true},
    {"dtrmv_", "blas_f_dtrmv", "vpppppppp", true},
    {"dsymv_", "blas_f_dsymv", "vpppppppppp", true},
    {"dgemm_", "blas_f_dgemm", "vppppppppppppp", true},
    {"dtrsm_", "blas_f_dtrsm", "vppppppppppp", true},
    {"dtrmm_", "blas_f_dtrmm", "vppppppppppp", true},
    {"dsyrk_", "blas_f_dsyrk", "vpppppppppp", true},
    {"dsymm_", "blas_f_dsymm", "vpppppppppppp", true},
    {"dsyr2k_", "blas_f_dsyr2k", "vpppppppppppp", true},
    {"qsort", "libc_qsort", "vpllp", true},
    {QsortWithLayout, "libc_qsort_layout", "vpllpp", true},
};

Type *typeOf(LLVMContext &C, char Letter) {
  switch (Letter) {
  case 'd':
    return Type::getDoubleTy(C);
  case 'i':
    return Type::getInt32Ty(C);
  case 'l':
    return Type::getInt64Ty(C);
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
/// routine's (CustomRules.h), and as runtime/blas and runtime/libc define
/// them.
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

constexpr StringLiteral RulePrefix = "__capsule_";

/// What the program calls \p R.
StringRef programName(const LibraryRoutine &R) {
  return StringRef(R.Name) == QsortWithLayout ? "qsort" : R.Name;
}

/// The routine of the table \p F is, with the signature the runtime's
/// definitions assume.
const LibraryRoutine *routineOf(const Function &F) {
  if (!F.isDeclaration())
    return nullptr;
  for (const LibraryRoutine &R : Routines)
    if (F.getName() == R.Name)
      return hasSignature(F, R.Signature) ? &R : nullptr;
  return nullptr;
}

Function *declareRule(Module &M, StringRef Stem, StringRef Kind,
                      FunctionType *Ty) {
  std::string Name = (RulePrefix + Stem + "_" + Kind).str();
  return cast<Function>(M.getOrInsertFunction(Name, Ty).getCallee());
}

/// Gives \p F, the declaration of routine \p R, the runtime's rules.
void attachRules(Function &F, const LibraryRoutine &R) {
  Module &M = *F.getParent();
  Function *Aug = declareRule(M, R.Stem, "aug", augmentType(F, R.Tape));
  Function *Grad = declareRule(M, R.Stem, "grad", gradientType(F, R.Tape));
  Function *Tan = declareRule(M, R.Stem, "tan", tangentType(F));
  setGradientRule(F, *Aug, *Grad);
  setTangentRule(F, *Tan);
  // Unused until a derivative calls them: kept from removal, as the
  // program's own rules are.
  appendToCompilerUsed(M, {Aug, Grad, Tan});
}

} // namespace

void attachLibraryRules(Module &M) {
  for (const LibraryRoutine &R : Routines)
    if (Function *F = M.getFunction(R.Name))
      attachLibraryRules(*F);
}

void attachLibraryRules(Function &F) {
  if (const LibraryRoutine *R = routineOf(F);
      R && !gradientRule(F) && !tangentRule(F))
    attachRules(F, *R);
}

bool isLibraryRoutine(const Function &F) { return routineOf(F) != nullptr; }

std::optional<StringRef> routineStoodFor(StringRef Name) {
  for (const LibraryRoutine &R : Routines)
    if (Name == R.Name && programName(R) != Name)
      return programName(R);
  return std::nullopt;
}

Function *libraryStepFunction(Function &Routine) {
  const LibraryRoutine *R = routineOf(Routine);
  if (!R)
    return nullptr;
  FunctionType *FT = Routine.getFunctionType();
  return declareRule(*Routine.getParent(), R->Stem, "step",
                     FunctionType::get(Type::getInt64Ty(Routine.getContext()),
                                       FT->params(),
                                       /*isVarArg=*/false));
}

bool isLibraryStepFunction(StringRef Name) {
  if (!Name.consume_front(RulePrefix) || !Name.consume_back("_step"))
    return false;
  return any_of(Routines,
                [&](const LibraryRoutine &R) { return Name == R.Stem; });
}

std::optional<StringRef> libraryRoutineOfRule(const Function &Rule) {
  StringRef Name = Rule.getName();
  if (!Rule.isDeclaration() || !Name.consume_front(RulePrefix))
    return std::nullopt;
  for (const LibraryRoutine &R : Routines)
    for (StringRef Kind : {"_aug", "_grad", "_tan"})
      if (Name == (Twine(R.Stem) + Kind).str())
        return programName(R);
  return std::nullopt;
}

} // namespace capsule
