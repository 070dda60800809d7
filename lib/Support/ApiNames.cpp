//===- ApiNames.cpp - API names Capsule does not implement ----------------===//
#include "Support/ApiNames.h"

#include "Support/CustomRules.h"
#include "Support/Diagnostics.h"
#include "Support/MarkerCalls.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

namespace {

/// The C names the runtime defines for programs, read from the runtime
/// archive when the plugin is built (cmake/RuntimeSymbols.cmake).
const char *const RuntimeSymbols[] = {
#include "RuntimeSymbols.inc"
};

bool definedByRuntime(StringRef Name) {
  return any_of(RuntimeSymbols, [&](const char *S) { return Name == S; });
}

/// "Enzyme" or "Capsule" for a name in either's API. C++ reaches template
/// markers (`__enzyme_fwddiff<double>(...)`) through mangled names.
std::optional<StringRef> apiFamily(StringRef Name) {
  bool Mangled = Name.starts_with("_Z");
  auto InFamily = [&](StringRef Prefix) {
    std::string Reserved = ("__" + Prefix).str();
    return Mangled ? Name.contains(Reserved)
                   : Name.starts_with(Prefix) || Name.starts_with(Reserved);
  };
  if (InFamily("enzyme_"))
    return StringRef("Enzyme");
  if (InFamily("capsule_"))
    return StringRef("Capsule");
  return std::nullopt;
}

bool isImplemented(const GlobalValue &GV) {
  if (auto *F = dyn_cast<Function>(&GV))
    if (markerKind(*F) || runMarkerKind(*F))
      return true;
  if (auto *G = dyn_cast<GlobalVariable>(&GV))
    if (isActivityMarkerGlobal(*G) || isRuleRegistration(*G))
      return true;
  return definedByRuntime(GV.getName());
}

/// What ignoring the name would do, for the registrations Capsule lacks.
StringRef consequence(const GlobalValue &GV) {
  if (isa<GlobalVariable>(GV) && GV.getName().starts_with("__enzyme_"))
    return "; this registration would be ignored";
  return "";
}

std::string unimplemented(StringRef What, StringRef Family) {
  return (What + " is " + (Family == "Enzyme" ? "an" : "a") + " " + Family +
          " API name that Capsule does not implement yet")
      .str();
}

/// Every instruction that uses \p GV gets the error. With \p EvenUnused,
/// a name used only in constants (a table of pointers) or not at all gets
/// it once.
void refuseUses(GlobalValue &GV, const Twine &Why, bool EvenUnused) {
  bool Reported = false;
  for (User *U : GV.users())
    if (auto *I = dyn_cast<Instruction>(U)) {
      reportUnimplementedApi(I, Why);
      Reported = true;
    }
  if (!Reported && EvenUnused)
    reportUnimplementedApi(GV.getContext(), definitionSite(GV) + Why);
}

/// Names: declared functions and globals of either API that nobody
/// defines, every use of an enzyme_* activity marker Capsule lacks (Enzyme
/// code defines all of them, used or not), and every __enzyme_* global,
/// whose mere definition is a registration Enzyme's pass reads.
void refuseUnimplementedNames(Module &M) {
  auto Check = [](GlobalValue &GV) {
    std::optional<StringRef> Family = apiFamily(GV.getName());
    if (!Family || isImplemented(GV))
      return;
    bool Declared = GV.isDeclaration();
    if (!Declared && isa<Function>(GV))
      return; // the program's own function
    bool Registration = GV.getName().starts_with("__enzyme_");
    std::string Why =
        unimplemented("'" + demangle(GV.getName().str()) + "'", *Family) +
        consequence(GV).str();
    if (Declared || Registration)
      refuseUses(GV, Why, /*EvenUnused=*/true);
    else if (*Family == "Enzyme")
      refuseUses(GV, Why, /*EvenUnused=*/false);
  };
  for (Function &F : M)
    if (!F.isIntrinsic())
      Check(F);
  for (GlobalVariable &G : M.globals())
    Check(G);
}

/// An enzyme_* or capsule_* annotation that readCustomRules does not read:
/// it reads some of functions and globals, none of local variables.
bool isEnzymeAnnotation(const Value *Text, StringRef &Annotation,
                        bool OfGlobal) {
  if (!getConstantStringInfo(Text, Annotation))
    return false;
  if (OfGlobal && isRuleAnnotation(Annotation))
    return false;
  return Annotation.starts_with("enzyme_") ||
         Annotation.starts_with("capsule_");
}

StringRef annotationFamily(StringRef Annotation) {
  return Annotation.starts_with("enzyme_") ? "Enzyme" : "Capsule";
}

/// `__attribute__((annotate("enzyme_inactive")))` and kin on functions and
/// globals (llvm.global.annotations: {value, text, file, line, args}).
void refuseGlobalAnnotations(Module &M) {
  for (ConstantStruct *Entry : globalAnnotations(M)) {
    StringRef Annotation, File;
    if (!isEnzymeAnnotation(Entry->getOperand(1), Annotation,
                            /*OfGlobal=*/true))
      continue;
    std::string Site;
    auto *Line = dyn_cast<ConstantInt>(Entry->getOperand(3));
    if (getConstantStringInfo(Entry->getOperand(2), File) && Line)
      Site = (File + ":" + Twine(Line->getZExtValue()) + ": ").str();
    auto *Annotated =
        dyn_cast<GlobalValue>(Entry->getOperand(0)->stripPointerCasts());
    std::string On =
        Annotated ? " on '" + Annotated->getName().str() + "'" : "";
    reportUnimplementedApi(
        M.getContext(),
        Site +
            unimplemented("the annotation '" + Annotation.str() + "'" + On,
                          annotationFamily(Annotation)) +
            "; it would be ignored");
  }
}

/// Annotations of local variables and pointers (llvm.var.annotation,
/// llvm.ptr.annotation) and the function attributes Enzyme's clang plugin
/// attaches.
void refuseLocalAnnotations(Module &M) {
  for (Function &F : M) {
    for (const Attribute &A : F.getAttributes().getFnAttrs())
      if (A.isStringAttribute() && A.getKindAsString().starts_with("enzyme_") &&
          !isRuleAttribute(A.getKindAsString()))
        reportUnimplementedApi(
            F.getContext(),
            definitionSite(F) +
                unimplemented("the attribute '" + A.getKindAsString().str() +
                                  "' on '" + displayName(F) + "'",
                              "Enzyme") +
                "; it would be ignored");
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<IntrinsicInst>(&I);
      StringRef Annotation;
      if (Call &&
          (Call->getIntrinsicID() == Intrinsic::var_annotation ||
           Call->getIntrinsicID() == Intrinsic::ptr_annotation) &&
          isEnzymeAnnotation(Call->getArgOperand(1), Annotation,
                             /*OfGlobal=*/false))
        reportUnimplementedApi(
            Call, unimplemented("the annotation '" + Annotation.str() + "'",
                                annotationFamily(Annotation)) +
                      "; it would be ignored");
    }
  }
}

} // namespace

void refuseUnimplementedApi(Module &M) {
  const char *Checked = "capsule.api.checked";
  if (M.getNamedMetadata(Checked))
    return;
  M.getOrInsertNamedMetadata(Checked);
  refuseUnimplementedNames(M);
  refuseGlobalAnnotations(M);
  refuseLocalAnnotations(M);
}

} // namespace capsule
