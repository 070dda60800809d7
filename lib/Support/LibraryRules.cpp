//===- LibraryRules.cpp - Built-in rules of library routines -------------===//
#include "Support/LibraryRules.h"

#include "Support/CustomRules.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace capsule {

namespace {

/// A routine with rules in the runtime: the stem of its rules' names, its
/// C signature, one letter per type (result first; v void, d double, i
/// 32-bit integer or enumeration, l 64-bit integer, p pointer), whether
/// its augmented rule returns a tape, and for the Fortran interface the
/// number of its character arguments. The Fortran interface takes every
/// argument by address; its rules keep the scalars' values on their tapes.
struct LibraryRoutine {
  const char *Name;
  const char *Stem;
  const char *Signature;
  bool Tape;
  unsigned Characters = 0;
};

constexpr LibraryRoutine Routines[] = {
    {"cblas_ddot", "blas_ddot", "dipipi", true},
    {"cblas_daxpy", "blas_daxpy", "vidpipi", true},
    {"cblas_dscal", "blas_dscal", "vidpi", true},
    {"cblas_dnrm2", "blas_dnrm2", "dipi", true},
    {"cblas_dcopy", "blas_dcopy", "vipipi", false},
    {"cblas_dswap", "blas_dswap", "vipipi", false},
    {"cblas_dasum", "blas_dasum", "dipi", true},
    {"cblas_drot", "blas_drot", "vipipidd", true},
    {"cblas_dgemv", "blas_dgemv", "viiiidpipidpi", true},
    {"cblas_dger", "blas_dger", "viiidpipipi", true},
    {"cblas_dtrsv", "blas_dtrsv", "viiiiipipi", true},
    {"cblas_dtrmv", "blas_dtrmv", "viiiiipipi", true},
    {"cblas_dsymv", "blas_dsymv", "viiidpipidpi", true},
    {"cblas_dgemm", "blas_dgemm", "viiiiiidpipidpi", true},
    {"cblas_dtrsm", "blas_dtrsm", "viiiiiiidpipi", true},
    {"cblas_dtrmm", "blas_dtrmm", "viiiiiiidpipi", true},
    {"cblas_dtpsv", "blas_dtpsv", "viiiiippi", true},
    {"cblas_dtpmv", "blas_dtpmv", "viiiiippi", true},
    {"cblas_dspmv", "blas_dspmv", "viiidppidpi", true},
    {"cblas_dsyr", "blas_dsyr", "viiidpipi", true},
    {"cblas_dspr", "blas_dspr", "viiidpip", true},
    {"cblas_dsyrk", "blas_dsyrk", "viiiiidpidpi", true},
    {"cblas_dsymm", "blas_dsymm", "viiiiidpipidpi", true},
    {"cblas_dsyr2k", "blas_dsyr2k", "viiiiidpipidpi", true},
    {"ddot_", "blas_f_ddot", "dppppp", true},
    {"daxpy_", "blas_f_daxpy", "vpppppp", true},
    {"dscal_", "blas_f_dscal", "vpppp", true},
    {"dnrm2_", "blas_f_dnrm2", "dppp", true},
    {"dcopy_", "blas_f_dcopy", "vppppp", true},
    {"dswap_", "blas_f_dswap", "vppppp", true},
    {"dasum_", "blas_f_dasum", "dppp", true},
    {"drot_", "blas_f_drot", "vppppppp", true},
    {"dgemv_", "blas_f_dgemv", "vppppppppppp", true, 1},
    {"dger_", "blas_f_dger", "vppppppppp", true},
    {"dtrsv_", "blas_f_dtrsv", "vpppppppp", true, 3},
    {"dtrmv_", "blas_f_dtrmv", "vpppppppp", true, 3},
    {"dsymv_", "blas_f_dsymv", "vpppppppppp", true, 1},
    {"dgemm_", "blas_f_dgemm", "vppppppppppppp", true, 2},
    {"dtrsm_", "blas_f_dtrsm", "vppppppppppp", true, 4},
    {"dtrmm_", "blas_f_dtrmm", "vppppppppppp", true, 4},
    {"dtpsv_", "blas_f_dtpsv", "vppppppp", true, 3},
    {"dtpmv_", "blas_f_dtpmv", "vppppppp", true, 3},
    {"dspmv_", "blas_f_dspmv", "vppppppppp", true, 1},
    {"dsyr_", "blas_f_dsyr", "vppppppp", true, 1},
    {"dspr_", "blas_f_dspr", "vpppppp", true, 1},
    {"dsyrk_", "blas_f_dsyrk", "vpppppppppp", true, 2},
    {"dsymm_", "blas_f_dsymm", "vpppppppppppp", true, 2},
    {"dsyr2k_", "blas_f_dsyr2k", "vpppppppppppp", true, 2},
    {"qsort", "libc_qsort", "vpllp", true},
    {QsortWithLayout, "libc_qsort_layout", "vpllpp", true},
};

/// Routines that only read memory and return an index, which has no
/// derivative: inactive, whatever data they read (CBLAS returns the index
/// as CBLAS_INDEX, size_t in OpenBLAS, int in older headers).
constexpr std::pair<const char *, const char *> IndexRoutines[] = {
    {"cblas_idamax", "lipi"}, {"cblas_idamax", "iipi"}, {"idamax_", "ippp"}};

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

/// Whether \p F has the result and parameters \p Signature names, followed
/// by \p HiddenLengths integers: the lengths of a Fortran routine's
/// character arguments, which gfortran's convention appends (size_t, or int
/// as f2c's).
bool hasSignature(const Function &F, StringRef Signature,
                  unsigned HiddenLengths = 0) {
  LLVMContext &C = F.getContext();
  FunctionType *FT = F.getFunctionType();
  unsigned Named = Signature.size() - 1;
  if (FT->isVarArg() || FT->getNumParams() != Named + HiddenLengths ||
      FT->getReturnType() != typeOf(C, Signature[0]))
    return false;
  for (auto [K, T] : enumerate(FT->params()))
    if (K < Named ? T != typeOf(C, Signature[K + 1])
                  : !T->isIntegerTy(32) && !T->isIntegerTy(64))
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
constexpr StringLiteral HiddenLengthsSuffix = ".hidden_lengths";

/// What the program calls \p R.
StringRef programName(const LibraryRoutine &R) {
  return StringRef(R.Name) == QsortWithLayout ? "qsort" : R.Name;
}

/// A declaration of a routine of the table, with the signature the
/// runtime's definitions assume, perhaps followed by the hidden lengths of
/// its character arguments.
struct DeclaredRoutine {
  const LibraryRoutine &Routine;
  unsigned HiddenLengths;
};

std::optional<DeclaredRoutine> routineOf(const Function &F) {
  if (!F.isDeclaration())
    return std::nullopt;
  for (const LibraryRoutine &R : Routines) {
    if (F.getName() != R.Name)
      continue;
    if (hasSignature(F, R.Signature))
      return DeclaredRoutine{R, 0};
    if (R.Characters && hasSignature(F, R.Signature, R.Characters))
      return DeclaredRoutine{R, R.Characters};
    return std::nullopt;
  }
  return std::nullopt;
}

Function *declareRule(Module &M, StringRef Stem, StringRef Kind,
                      FunctionType *Ty) {
  std::string Name = (RulePrefix + Stem + "_" + Kind).str();
  return cast<Function>(M.getOrInsertFunction(Name, Ty).getCallee());
}

/// \p Ty without its \p Count parameters from \p First.
FunctionType *withoutParams(FunctionType *Ty, unsigned First, unsigned Count) {
  SmallVector<Type *, 16> Params(Ty->params());
  Params.erase(Params.begin() + First, Params.begin() + First + Count);
  return FunctionType::get(Ty->getReturnType(), Params, /*isVarArg=*/false);
}

/// A function of type \p Ty that calls \p Rule with its parameters but the
/// \p Count from \p First: the hidden lengths and their shadows or
/// tangents, which the runtime's rules do not take (they read the first
/// character of each option, as BLAS does).
Function *hiddenLengthsShim(Function &Rule, FunctionType *Ty, unsigned First,
                            unsigned Count) {
  Module &M = *Rule.getParent();
  std::string Name = (Rule.getName() + HiddenLengthsSuffix).str();
  if (Function *Shim = M.getFunction(Name))
    return Shim;
  Function *Shim = Function::Create(Ty, GlobalValue::InternalLinkage, Name, M);
  Shim->addFnAttr(Attribute::AlwaysInline);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Shim));
  SmallVector<Value *, 16> Args;
  for (Argument &A : Shim->args())
    if (A.getArgNo() < First || A.getArgNo() >= First + Count)
      Args.push_back(&A);
  CallInst *Call = B.CreateCall(&Rule, Args);
  if (Ty->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
  return Shim;
}

/// The rule of kind \p Kind and type \p Ty (derived from the declaration)
/// of routine \p D. Every argument of a Fortran routine is a pointer,
/// followed in every rule by its shadow or tangent, so the hidden lengths'
/// pairs start at twice the number of the routine's own arguments.
Function *ruleOf(Module &M, const DeclaredRoutine &D, StringRef Kind,
                 FunctionType *Ty) {
  if (!D.HiddenLengths)
    return declareRule(M, D.Routine.Stem, Kind, Ty);
  unsigned First = 2 * (StringRef(D.Routine.Signature).size() - 1);
  unsigned Count = 2 * D.HiddenLengths;
  Function *Rule =
      declareRule(M, D.Routine.Stem, Kind, withoutParams(Ty, First, Count));
  return hiddenLengthsShim(*Rule, Ty, First, Count);
}

/// Gives \p F, the declaration of routine \p D, the runtime's rules.
void attachRules(Function &F, const DeclaredRoutine &D) {
  Module &M = *F.getParent();
  bool Tape = D.Routine.Tape;
  Function *Aug = ruleOf(M, D, "aug", augmentType(F, Tape));
  Function *Grad = ruleOf(M, D, "grad", gradientType(F, Tape));
  Function *Tan = ruleOf(M, D, "tan", tangentType(F));
  setGradientRule(F, *Aug, *Grad);
  setTangentRule(F, *Tan);
  // Unused until a derivative calls them: kept from removal, as the
  // program's own rules are.
  appendToCompilerUsed(M, {Aug, Grad, Tan});
}

/// The subroutine \p F declares as a function returning int (f2c's
/// convention, which Eigen's blas.h follows: `int dgemv_(...)`), as a
/// subroutine: its calls call that, and the 0 they returned is a constant.
/// Null where \p F is not such a declaration of \p R.
Function *asSubroutine(Function &F, const LibraryRoutine &R) {
  LLVMContext &C = F.getContext();
  if (R.Signature[0] != 'v' || !F.isDeclaration() ||
      !F.getReturnType()->isIntegerTy(32) || F.isVarArg())
    return nullptr;
  F.setName("");
  Function *Sub = Function::Create(
      FunctionType::get(Type::getVoidTy(C), F.getFunctionType()->params(),
                        /*isVarArg=*/false),
      F.getLinkage(), R.Name, F.getParent());
  if (!routineOf(*Sub)) {
    Sub->eraseFromParent();
    F.setName(R.Name);
    return nullptr;
  }
  for (User *U : make_early_inc_range(F.users())) {
    auto *Call = dyn_cast<CallBase>(U);
    if (!Call || Call->getCalledOperand() != &F)
      continue;
    SmallVector<Value *, 16> Args(Call->args());
    SmallVector<OperandBundleDef, 1> Bundles;
    Call->getOperandBundlesAsDefs(Bundles);
    CallBase *New;
    if (auto *Invoke = dyn_cast<InvokeInst>(Call))
      New = InvokeInst::Create(Sub, Invoke->getNormalDest(),
                               Invoke->getUnwindDest(), Args, Bundles, "",
                               Call->getIterator());
    else
      New = CallInst::Create(Sub, Args, Bundles, "", Call->getIterator());
    AttributeList Attrs = Call->getAttributes();
    SmallVector<AttributeSet, 16> ParamAttrs;
    for (unsigned K = 0; K < Args.size(); ++K)
      ParamAttrs.push_back(Attrs.getParamAttrs(K));
    New->setAttributes(
        AttributeList::get(C, Attrs.getFnAttrs(), AttributeSet(), ParamAttrs));
    New->setDebugLoc(Call->getDebugLoc());
    Call->replaceAllUsesWith(ConstantInt::get(Call->getType(), 0));
    Call->eraseFromParent();
  }
  F.replaceAllUsesWith(Sub); // its address, taken
  F.eraseFromParent();
  return Sub;
}

} // namespace

void attachLibraryRules(Module &M) {
  for (const LibraryRoutine &R : Routines)
    if (Function *F = M.getFunction(R.Name)) {
      if (Function *Sub = asSubroutine(*F, R))
        F = Sub;
      attachLibraryRules(*F);
    }
  for (const auto &R : IndexRoutines)
    if (Function *F = M.getFunction(R.first))
      attachLibraryRules(*F);
}

void attachLibraryRules(Function &F) {
  if (std::optional<DeclaredRoutine> D = routineOf(F);
      D && !gradientRule(F) && !tangentRule(F))
    attachRules(F, *D);
  if (F.isDeclaration() && !gradientRule(F) && !tangentRule(F) &&
      any_of(IndexRoutines, [&](const auto &R) {
        return F.getName() == R.first && hasSignature(F, R.second);
      })) {
    markInactive(F);
    F.setOnlyReadsMemory();
    F.setOnlyAccessesArgMemory();
  }
}

bool isLibraryRoutine(const Function &F) { return routineOf(F).has_value(); }

std::optional<StringRef> routineStoodFor(StringRef Name) {
  for (const LibraryRoutine &R : Routines)
    if (Name == R.Name && programName(R) != Name)
      return programName(R);
  return std::nullopt;
}

Function *libraryStepFunction(Function &Routine) {
  std::optional<DeclaredRoutine> D = routineOf(Routine);
  if (!D)
    return nullptr;
  ArrayRef<Type *> Params = Routine.getFunctionType()->params();
  return declareRule(*Routine.getParent(), D->Routine.Stem, "step",
                     FunctionType::get(Type::getInt64Ty(Routine.getContext()),
                                       Params.drop_back(D->HiddenLengths),
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
  // A shim that drops hidden lengths stands for the rule it calls.
  bool Shim = Rule.hasLocalLinkage() && Name.consume_back(HiddenLengthsSuffix);
  if (!Rule.isDeclaration() && !Shim)
    return std::nullopt;
  return routineOfRuleName(Name);
}

bool isBlasRule(const Function &Rule) {
  return libraryRoutineOfRule(Rule) &&
         Rule.getName().starts_with((RulePrefix + "blas_").str());
}

std::optional<StringRef> routineOfRuleName(StringRef Name) {
  if (!Name.consume_front(RulePrefix))
    return std::nullopt;
  for (const LibraryRoutine &R : Routines)
    for (StringRef Kind : {"_aug", "_grad", "_tan"})
      if (Name == (Twine(R.Stem) + Kind).str())
        return programName(R);
  return std::nullopt;
}

} // namespace capsule
