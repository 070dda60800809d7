//===- RuleSignatures.cpp - Rules taking structs the C ABI splits ---------===//
//
// Refuses, in the source, custom rules that take by value a struct the C
// ABI passes as several arguments (lib/Support/RuleArguments.h says why a
// derivative would silently be wrong). The pass sees such arguments only
// in debug information; this action runs beside clang's own with or
// without -g. It reads the registrations the pass reads
// (`__enzyme_register_gradient_NAME` and kin, CAPSULE_GRADIENT and
// CAPSULE_DERIVATIVE): their functions in order, the function then its
// rules.
//===----------------------------------------------------------------------===//
#include "Support/RuleArguments.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;

namespace {

/// Whether every member of \p T, however nested, is floating point.
bool onlyFloatingPoint(const ASTContext &Ctx, QualType T) {
  T = T.getCanonicalType();
  if (T->isRealFloatingType())
    return true;
  if (const auto *Complex = T->getAs<ComplexType>())
    return Complex->getElementType()->isRealFloatingType();
  if (const ConstantArrayType *Array = Ctx.getAsConstantArrayType(T))
    return onlyFloatingPoint(Ctx, Array->getElementType());
  const RecordDecl *Record = T->getAsRecordDecl();
  if (!Record)
    return false;
  if (const auto *Class = dyn_cast<CXXRecordDecl>(Record))
    for (const CXXBaseSpecifier &Base : Class->bases())
      if (!onlyFloatingPoint(Ctx, Base.getType()))
        return false;
  return llvm::all_of(Record->fields(), [&](const FieldDecl *F) {
    return onlyFloatingPoint(Ctx, F->getType());
  });
}

/// Whether the C ABI may pass an argument of type \p T as several: a
/// struct, union or class, or a complex number, of more than 8 bytes.
bool splitByABI(const ASTContext &Ctx, QualType T) {
  T = T.getCanonicalType();
  return (T->isRecordType() || T->isAnyComplexType()) &&
         Ctx.getTypeSize(T) > 64;
}

/// The functions a registration's initializer names, in order.
class NamedFunctions : public RecursiveASTVisitor<NamedFunctions> {
public:
  llvm::SmallVector<const FunctionDecl *, 3> Functions;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *F = dyn_cast<FunctionDecl>(E->getDecl()))
      Functions.push_back(F);
    return true;
  }
};

class RuleSignatureChecker : public ASTConsumer,
                             public RecursiveASTVisitor<RuleSignatureChecker> {
  ASTContext *Ctx = nullptr;

  void refuse(const VarDecl &Registration, const std::string &Why) {
    DiagnosticsEngine &Diags = Ctx->getDiagnostics();
    unsigned ID = Diags.getCustomDiagID(
        DiagnosticsEngine::Error, "capsule: invalid custom rule '%0': %1");
    Diags.Report(Registration.getLocation(), ID)
        << Registration.getName() << Why;
  }

  void checkRule(const VarDecl &Registration, const FunctionDecl &Rule,
                 llvm::StringRef What, bool Tangents) {
    for (auto [K, Param] : llvm::enumerate(Rule.parameters())) {
      QualType T = Param->getType();
      if (!splitByABI(*Ctx, T) || (!Tangents && onlyFloatingPoint(*Ctx, T)))
        continue;
      return refuse(Registration,
                    capsule::splitStructArgumentMessage(
                        What, Rule.getName(), K + 1,
                        T.getUnqualifiedType().getAsString(), Tangents));
    }
  }

public:
  void HandleTranslationUnit(ASTContext &Context) override {
    Ctx = &Context;
    TraverseDecl(Context.getTranslationUnitDecl());
  }

  bool VisitVarDecl(VarDecl *V) {
    if (!V->hasGlobalStorage() || !V->hasInit() || !V->getIdentifier())
      return true;
    llvm::StringRef Name = V->getName();
    bool Gradient = Name.contains("__enzyme_register_gradient") ||
                    Name.contains("__capsule_register_gradient");
    bool Tangent = Name.contains("__enzyme_register_derivative") ||
                   Name.contains("__capsule_register_derivative");
    if (!Gradient && !Tangent)
      return true;
    NamedFunctions Named;
    Named.TraverseStmt(V->getInit());
    for (unsigned I = 1; I < Named.Functions.size(); ++I)
      checkRule(*V, *Named.Functions[I],
                Tangent  ? "tangent rule"
                : I == 1 ? "augmented forward rule"
                         : "gradient rule",
                Tangent);
    return true;
  }
};

class RuleSignaturesAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<RuleSignatureChecker>();
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  // Runs with every compile that loads the plugin, before code generation.
  ActionType getActionType() override { return AddBeforeMainAction; }
};

FrontendPluginRegistry::Add<RuleSignaturesAction>
    RuleSignatures("capsule-rule-signatures",
                   "refuse custom rules taking structs the C ABI splits");

} // namespace
