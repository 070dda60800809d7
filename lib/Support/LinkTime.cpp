//===- LinkTime.cpp - Differentiation deferred to the link (LTO) ----------===//
#include "Support/LinkTime.h"

#include "Support/CustomRules.h"
#include "Support/Diagnostics.h"
#include "Support/GeneratedCode.h"
#include "Support/ThinLTOImports.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
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
/// Named metadata: a row per function of the compile, its name and those of
/// the functions with bodies it calls (recordInlinableCalls).
const char *const InlinableCalls = "capsule.lto.calls";

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

void recordInlinableCalls(Module &M) {
  LLVMContext &Ctx = M.getContext();
  NamedMDNode *Table = M.getOrInsertNamedMetadata(InlinableCalls);
  for (Function &F : M) {
    SmallSetVector<Metadata *, 4> Row;
    Row.insert(MDString::get(Ctx, F.getName()));
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && Callee != &F && !Callee->isDeclaration())
          Row.insert(MDString::get(Ctx, Callee->getName()));
    if (Row.size() > 1)
      Table->addOperand(MDTuple::get(Ctx, Row.getArrayRef()));
  }
}

namespace {

bool hasRule(const Function &F) {
  return gradientRule(F) || tangentRule(F) || isInactiveFunction(F) ||
         functionLikeName(F);
}

/// The names of the functions \p F called, directly or through one another,
/// when its file was compiled (recordInlinableCalls' table).
StringSet<> calledAtTheCompile(const Function &F) {
  StringMap<SmallVector<StringRef, 4>> Callees;
  if (NamedMDNode *Table = F.getParent()->getNamedMetadata(InlinableCalls))
    for (const MDNode *Row : Table->operands()) {
      auto &Of = Callees[cast<MDString>(Row->getOperand(0))->getString()];
      for (const MDOperand &Callee : drop_begin(Row->operands()))
        Of.push_back(cast<MDString>(Callee)->getString());
    }
  StringSet<> Reached;
  SmallVector<StringRef, 8> Work{F.getName()};
  while (!Work.empty())
    for (StringRef Callee : Callees.lookup(Work.pop_back_val()))
      if (Reached.insert(Callee).second)
        Work.push_back(Callee);
  return Reached;
}

/// The functions \p F calls now, directly or through one another.
SmallPtrSet<const Function *, 16> calledNow(const Function &F) {
  SmallPtrSet<const Function *, 16> Reached;
  SmallVector<const Function *, 8> Work{&F};
  while (!Work.empty())
    for (const Instruction &I : instructions(*Work.pop_back_val()))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction();
            Callee && Reached.insert(Callee).second)
          Work.push_back(Callee);
  return Reached;
}

} // namespace

std::optional<std::string> ruleInlinedBeforeTheLink(const Function &F) {
  // What the compile saw F call and F no longer calls was inlined into it
  // (or its call dropped).
  StringSet<> Then = calledAtTheCompile(F);
  if (Then.empty())
    return std::nullopt;
  SmallPtrSet<const Function *, 16> Now = calledNow(F);
  for (const auto &Name : Then) {
    const Function *Callee = F.getParent()->getFunction(Name.getKey());
    if (!Callee || Now.contains(Callee) || !hasRule(*Callee))
      continue;
    std::string Shown = displayName(*Callee);
    return "the compile of its file inlined '" + Shown +
           "' into it before the link read the rule another file registers "
           "for '" +
           Shown +
           "', which would be ignored; register the rule in the file that "
           "defines '" +
           Shown + "', or declare it noinline";
  }
  return std::nullopt;
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
