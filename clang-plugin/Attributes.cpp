//===- Attributes.cpp - Enzyme's and Capsule's attributes for clang -------===//
//
// `__attribute__((enzyme_inactive))` and
// `__attribute__((enzyme_function_like("log1p")))` (also
// `[[enzyme::inactive]]`,
// `[[enzyme::function_like("log1p")]]`, and Capsule's capsule_inactive and
// capsule_function_like) are unknown to clang, which warns and drops them.
// Loaded as a plugin, this file makes each an annotation,
// `annotate("enzyme_inactive")` or `annotate("enzyme_function_like=log1p")`,
// which clang keeps in llvm.global.annotations for definitions and for the
// declarations a file uses, and which the pass reads
// (lib/Support/CustomRules.cpp).
//===----------------------------------------------------------------------===//
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace {

/// Functions and global variables: what the pass reads annotations of.
bool appertainsToFunctionOrGlobal(Sema &S, const ParsedAttr &Attr,
                                  const Decl *D) {
  const auto *Var = dyn_cast<VarDecl>(D);
  if (isa<FunctionDecl>(D) || (Var && Var->hasGlobalStorage()))
    return true;
  S.Diag(Attr.getLoc(), diag::warn_attribute_wrong_decl_type_str)
      << Attr << Attr.isRegularKeywordAttribute()
      << "functions and global variables";
  return false;
}

void annotate(Sema &S, Decl *D, const ParsedAttr &Attr, StringRef Text) {
  D->addAttr(
      AnnotateAttr::Create(S.Context, Text, nullptr, 0, Attr.getRange()));
}

struct InactiveAttr : ParsedAttrInfo {
  InactiveAttr() {
    static constexpr Spelling S[] = {
        {ParsedAttr::AS_GNU, "enzyme_inactive"},
        {ParsedAttr::AS_C23, "enzyme_inactive"},
        {ParsedAttr::AS_CXX11, "enzyme_inactive"},
        {ParsedAttr::AS_CXX11, "enzyme::inactive"},
        {ParsedAttr::AS_C23, "enzyme::inactive"},
        {ParsedAttr::AS_GNU, "capsule_inactive"},
        {ParsedAttr::AS_CXX11, "capsule::inactive"},
        {ParsedAttr::AS_C23, "capsule::inactive"}};
    Spellings = S;
  }
  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    return appertainsToFunctionOrGlobal(S, Attr, D);
  }
  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    annotate(S, D, Attr, "enzyme_inactive");
    return AttributeApplied;
  }
};

struct FunctionLikeAttr : ParsedAttrInfo {
  FunctionLikeAttr() {
    NumArgs = 1;
    static constexpr Spelling S[] = {
        {ParsedAttr::AS_GNU, "enzyme_function_like"},
        {ParsedAttr::AS_C23, "enzyme_function_like"},
        {ParsedAttr::AS_CXX11, "enzyme_function_like"},
        {ParsedAttr::AS_CXX11, "enzyme::function_like"},
        {ParsedAttr::AS_C23, "enzyme::function_like"},
        {ParsedAttr::AS_GNU, "capsule_function_like"},
        {ParsedAttr::AS_CXX11, "capsule::function_like"},
        {ParsedAttr::AS_C23, "capsule::function_like"}};
    Spellings = S;
  }
  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isa<FunctionDecl>(D))
      return true;
    S.Diag(Attr.getLoc(), diag::warn_attribute_wrong_decl_type_str)
        << Attr << Attr.isRegularKeywordAttribute() << "functions";
    return false;
  }
  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    auto *Name =
        dyn_cast<StringLiteral>(Attr.getArgAsExpr(0)->IgnoreParenCasts());
    if (!Name) {
      S.Diag(Attr.getLoc(), diag::err_attribute_argument_type)
          << Attr << AANT_ArgumentString;
      return AttributeNotApplied;
    }
    annotate(S, D, Attr, ("enzyme_function_like=" + Name->getString()).str());
    return AttributeApplied;
  }
};

ParsedAttrInfoRegistry::Add<InactiveAttr> Inactive("enzyme_inactive", "");
ParsedAttrInfoRegistry::Add<FunctionLikeAttr>
    FunctionLike("enzyme_function_like", "");

} // namespace
