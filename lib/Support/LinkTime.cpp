//===- LinkTime.cpp - Differentiation deferred to the link (LTO) ----------===//
#include "Support/LinkTime.h"

#include "Support/GeneratedCode.h"
#include "Support/ThinLTOImports.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace capsule {

namespace {

const char *const PreLink = "capsule.lto.prelink";
const char *const Waiting = "capsule.lto.waiting";
/// Undefined in every object the compile deferred; only the link-time
/// plugin removes the reference, so the linker's error names the fix.
const char *const Guard =
    "__capsule_link_with_the_plugin__see_capsule_config_lto_ldflags";
/// The same for ThinLTO, whose backends run no plugin when the link does
/// not optimize (lld --lto-O0, which clang -O0 passes).
const char *const ThinGuard = "__capsule_link_with_the_plugin_and_at_least_"
                              "O1__see_capsule_config_lto_ldflags";
const char *const GuardRef = "capsule.lto.guard";

/// clang -flto gives every module one of these flags.
bool compiledForLTO(const Module &M) {
  return M.getModuleFlag("ThinLTO") || M.getModuleFlag("EnableSplitLTOUnit");
}

bool isThinLTO(const Module &M) {
  auto *Full =
      mdconst::extract_or_null<ConstantInt>(M.getModuleFlag("ThinLTO"));
  return compiledForLTO(M) && !(Full && Full->isZero());
}

} // namespace

void notePreLinkCompile(Module &M) {
  if (compiledForLTO(M) && !M.getNamedMetadata(Waiting))
    M.getOrInsertNamedMetadata(PreLink);
}

bool isPreLinkCompile(const Module &M) {
  return M.getNamedMetadata(PreLink) != nullptr;
}

bool deferToLink(Module &M, bool HasMarkers) {
  if (!isPreLinkCompile(M))
    return false;
  const char *Name = isThinLTO(M) ? ThinGuard : Guard;
  if (HasMarkers && !M.getNamedValue(Name)) {
    // Only a relocation in the object makes the linker look the name up.
    auto *G = new GlobalVariable(M, Type::getInt8Ty(M.getContext()),
                                 /*isConstant=*/true,
                                 GlobalValue::ExternalLinkage, nullptr, Name);
    auto *Ref = new GlobalVariable(M, G->getType(), /*isConstant=*/true,
                                   GlobalValue::PrivateLinkage, G, GuardRef);
    appendToUsed(M, {Ref});
  }
  return true;
}

void finishPreLinkCompile(Module &M) {
  if (NamedMDNode *N = M.getNamedMetadata(PreLink)) {
    M.eraseNamedMetadata(N);
    M.getOrInsertNamedMetadata(Waiting);
  }
}

void enterLinkTime(Module &M) {
  // Merged modules (full LTO) hold one reference per file, renamed apart.
  SmallVector<GlobalVariable *, 4> Refs;
  for (GlobalVariable &G : M.globals())
    if (G.getName().starts_with(GuardRef))
      Refs.push_back(&G);
  eraseUnusedGlobals(M, Refs);
  for (const char *Name : {Guard, ThinGuard})
    if (GlobalVariable *G = M.getGlobalVariable(Name))
      eraseUnusedGlobals(M, {G});
  withdrawThinLTOImportRequests(M);
}

bool isLinkTimeModule(const Module &M) {
  return M.getNamedMetadata(Waiting) != nullptr;
}

bool awaitsThinLTOLink(const Module &M) {
  return isLinkTimeModule(M) && isThinLTO(M);
}

std::string linkTimeAdvice(const Module &M) {
  if (isThinLTO(M))
    return "; with ThinLTO, a function another file defines is "
           "differentiated where the link imports it, which it did not here: "
           "link with $(capsule-config --lto-ldflags), which lets it import "
           "what derivatives need, or with full LTO (-flto=full)";
  return "; for a function defined in another file, compile every file with "
         "-flto and link with $(capsule-config --lto-ldflags)";
}

} // namespace capsule
