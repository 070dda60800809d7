//===- RuleSignatures.cpp - Rules and markers meeting split structs -------===//
//
// Refuses, in the source, custom rules that take by value a struct the C
// ABI passes as several arguments, and derivative markers naming a
// function that takes one, wherever the struct's fields would be paired
// with the wrong tangents or shadows (Support/SplitArguments.h says why a
// derivative would silently be wrong). The pass sees such arguments only in
// debug information; this action runs beside clang's own with or without
// -g. It reads the registrations the pass reads
// (`__enzyme_register_gradient_NAME` and kin, CAPSULE_GRADIENT and
// CAPSULE_DERIVATIVE: their functions in order, the function then its
// rules) and the calls of the markers (`__enzyme_fwddiff`,
// `__enzyme_autodiff`, split mode's, Capsule's names, and the names that
// start so).
//===----------------------------------------------------------------------===//
#include "Support/SplitArguments.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;

namespace {

/// Whether \p Leaf holds for every scalar in \p T, through arrays, base
/// classes and fields, however nested.
bool everyLeaf(const ASTContext &Ctx, QualType T,
               llvm::function_ref<bool(QualType)> Leaf) {
  T = T.getCanonicalType();
  if (const ConstantArrayType *Array = Ctx.getAsConstantArrayType(T))
    return everyLeaf(Ctx, Array->getElementType(), Leaf);
  const RecordDecl *Record = T->getAsRecordDecl();
  if (!Record)
    return Leaf(T);
  if (const auto *Class = dyn_cast<CXXRecordDecl>(Record))
    for (const CXXBaseSpecifier &Base : Class->bases())
      if (!everyLeaf(Ctx, Base.getType(), Leaf))
        return false;
  return llvm::all_of(Record->fields(), [&](const FieldDecl *F) {
    return everyLeaf(Ctx, F->getType(), Leaf);
  });
}

bool onlyFloatingPoint(const ASTContext &Ctx, QualType T) {
  return everyLeaf(Ctx, T, [](QualType Leaf) {
    if (const auto *Complex = Leaf->getAs<ComplexType>())
      Leaf = Complex->getElementType();
    return Leaf->isRealFloatingType();
  });
}

bool holdsPointer(const ASTContext &Ctx, QualType T) {
  return !everyLeaf(Ctx, T, [](QualType Leaf) {
    return !Leaf->isPointerType() && !Leaf->isReferenceType() &&
           !Leaf->isMemberPointerType();
  });
}

/// Whether the fields of \p T, split, would be paired wrongly as \p P says
/// (as Support/SplitArguments.cpp decides from debug information).
bool pairedWrongly(const ASTContext &Ctx, QualType T, capsule::Pairing P) {
  switch (P) {
  case capsule::Pairing::TangentRule:
  case capsule::Pairing::ForwardMarker:
    return true;
  case capsule::Pairing::GradientRule:
    return !onlyFloatingPoint(Ctx, T);
  case capsule::Pairing::ReverseMarker:
    return holdsPointer(Ctx, T);
  }
  return true;
}

/// Whether the C ABI may pass an argument of type \p T as several: a
/// struct, union or class, or a complex number, of 9 to 16 bytes (larger
/// ones go in memory, as one pointer).
bool splitByABI(const ASTContext &Ctx, QualType T) {
  T = T.getCanonicalType();
  if (!T->isRecordType() && !T->isAnyComplexType())
    return false;
  uint64_t Bits = Ctx.getTypeSize(T);
  return Bits > 64 && Bits <= 128;
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

  /// An error worded as the pass words it (Support/Diagnostics.h).
  void report(SourceLocation Where, const llvm::Twine &Text) {
    DiagnosticsEngine &Diags = Ctx->getDiagnostics();
    unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
    Diags.Report(Where, ID) << ("capsule: " + Text).str();
  }

  /// The first parameter of \p F the C ABI splits whose fields \p P would
  /// pair wrongly, as splitArgument finds it in debug information.
  std::optional<capsule::SplitArgument> splitParameter(const FunctionDecl &F,
                                                       capsule::Pairing P) {
    for (auto [K, Param] : llvm::enumerate(F.parameters())) {
      QualType T = Param->getType();
      if (splitByABI(*Ctx, T) && pairedWrongly(*Ctx, T, P))
        return capsule::SplitArgument{
            static_cast<unsigned>(K + 1),
            T.getUnqualifiedType().getAsString(Ctx->getPrintingPolicy())};
    }
    return std::nullopt;
  }

  void checkRule(const VarDecl &Registration, const FunctionDecl &Rule,
                 llvm::StringRef What, capsule::Pairing P) {
    if (std::optional<capsule::SplitArgument> Split = splitParameter(Rule, P))
      report(Registration.getLocation(),
             "invalid custom rule '" + Registration.getName() + "': " +
                 capsule::splitArgumentMessage(
                     ("the " + What + " '" + Rule.getName() + "'").str(),
                     Split->Number, Split->TypeName, P));
  }

public:
  void HandleTranslationUnit(ASTContext &Context) override {
    Ctx = &Context;
    TraverseDecl(Context.getTranslationUnitDecl());
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Marker = Call->getDirectCallee();
    if (!Marker || !Marker->getIdentifier() || Call->getNumArgs() == 0)
      return true;
    llvm::StringRef Name = Marker->getName();
    bool Forward = Name.starts_with("__enzyme_fwddiff") ||
                   Name.starts_with("__capsule_fwddiff");
    bool Reverse = Name.starts_with("__enzyme_autodiff") ||
                   Name.starts_with("__capsule_autodiff") ||
                   Name.starts_with("__enzyme_augmentfwd") ||
                   Name.starts_with("__capsule_augmentfwd") ||
                   Name.starts_with("__enzyme_reverse") ||
                   Name.starts_with("__capsule_reverse");
    if (!Forward && !Reverse)
      return true;
    NamedFunctions Named;
    Named.TraverseStmt(Call->getArg(0));
    if (Named.Functions.empty())
      return true;
    const FunctionDecl &F = *Named.Functions.front();
    capsule::Pairing P = Forward ? capsule::Pairing::ForwardMarker
                                 : capsule::Pairing::ReverseMarker;
    if (std::optional<capsule::SplitArgument> Split = splitParameter(F, P))
      report(Call->getBeginLoc(),
             "malformed call: " +
                 capsule::splitArgumentMessage(
                     ("'" + F.getName() + "', differentiated in " +
                      (Forward ? "forward" : "reverse") + " mode,")
                         .str(),
                     Split->Number, Split->TypeName, P));
    return true;
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
                Tangent ? capsule::Pairing::TangentRule
                        : capsule::Pairing::GradientRule);
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
                   "refuse rules and markers meeting structs the C ABI splits");

} // namespace
