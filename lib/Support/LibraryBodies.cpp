//===- LibraryBodies.cpp - Definitions of library functions Capsule brings ===//
#include "Support/LibraryBodies.h"
#include "Support/LibraryRules.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace capsule {

namespace {

/// lib/LibraryBodies/*.cpp compiled by the build (cmake/EmbedBitcode.cmake).
alignas(4) const unsigned char BodiesBitcode[] = {
#include "LibraryBodies.inc"
};

/// runtime/blas's rules compiled for nested derivatives (lib/CMakeLists.txt).
alignas(4) const unsigned char RuleBodiesBitcode[] = {
#include "RuleBodies.inc"
};

/// What the definitions of rules that callRuleBodies links are called: not
/// the runtime's names, which the program's link resolves to the runtime.
constexpr llvm::StringLiteral RuleBodyPrefix = "capsule.rule_body.";

/// The functions \p Bodies defines for programs (not its helpers).
SmallVector<std::string, 16> bodiesProvided(const Module &Bodies) {
  SmallVector<std::string, 16> Names;
  for (const Function &Body : Bodies)
    if (!Body.isDeclaration() && !Body.hasLocalLinkage())
      Names.push_back(Body.getName().str());
  return Names;
}

/// Whether \p M calls one of \p Names, which it only declares.
bool declaresAnyOf(const Module &M, ArrayRef<std::string> Names) {
  return any_of(Names, [&](const std::string &Name) {
    const Function *F = M.getFunction(Name);
    return F && F->isDeclaration() && !F->use_empty();
  });
}

/// The bodies' module without what would change the program's module when
/// linked: module flags (PIC level, unwind tables), the compiler's identity
/// and the target attributes of the build's compiler; the program's own
/// settings apply to the bodies instead.
void keepOnlyCode(Module &Bodies, const Module &M) {
  if (NamedMDNode *Flags = Bodies.getModuleFlagsMetadata())
    Bodies.eraseNamedMetadata(Flags);
  if (NamedMDNode *Ident = Bodies.getNamedMetadata("llvm.ident"))
    Bodies.eraseNamedMetadata(Ident);
  for (Function &F : Bodies)
    for (StringRef Kind : {"target-cpu", "target-features", "tune-cpu"})
      F.removeFnAttr(Kind);
  Bodies.setTargetTriple(M.getTargetTriple());
}

template <size_t N>
std::unique_ptr<Module> parseBodies(LLVMContext &Context,
                                    const unsigned char (&Bitcode)[N]) {
  StringRef Bytes(reinterpret_cast<const char *>(Bitcode), N);
  Expected<std::unique_ptr<Module>> Bodies = parseBitcodeFile(
      MemoryBufferRef(Bytes, "capsule-library-bodies"), Context);
  if (!Bodies) {
    // The plugin's own bitcode: failing to read it is a broken build.
    report_fatal_error(Twine("capsule: cannot read the library bodies: ") +
                       toString(Bodies.takeError()));
  }
  return std::move(*Bodies);
}

/// Whether \p M is for the target the bodies were compiled for (x86-64
/// Linux).
bool bodiesFit(const Module &M) {
  Triple T(M.getTargetTriple());
  return T.getArch() == Triple::x86_64 && T.isOSLinux();
}

/// The calls in \p F of the runtime's rules of library routines.
SmallVector<CallBase *, 4> ruleCalls(Function &F) {
  SmallVector<CallBase *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Rule = Call->getCalledFunction();
          Rule && libraryRoutineOfRule(*Rule))
        Calls.push_back(Call);
  return Calls;
}

/// The rule bodies under their own names: linkonce_odr, so that each
/// module links them once however many functions ask, and the program's
/// files may each have them.
std::unique_ptr<Module> renamedRuleBodies(const Module &M) {
  std::unique_ptr<Module> Bodies =
      parseBodies(M.getContext(), RuleBodiesBitcode);
  keepOnlyCode(*Bodies, M);
  for (Function &Body : *Bodies)
    if (!Body.isDeclaration() && !Body.hasLocalLinkage()) {
      Body.setName(RuleBodyPrefix + Body.getName());
      Body.setLinkage(GlobalValue::LinkOnceODRLinkage);
      Body.setVisibility(GlobalValue::HiddenVisibility);
    }
  return Bodies;
}

} // namespace

void callRuleBodies(Function &F) {
  Module &M = *F.getParent();
  SmallVector<CallBase *, 4> Calls = ruleCalls(F);
  if (Calls.empty() || !bodiesFit(M))
    return;
  std::unique_ptr<Module> Bodies = renamedRuleBodies(M);
  if (Bodies->getDataLayout() != M.getDataLayout())
    return;
  // Declared in M (unless linked before) where a body of the same type is
  // there: what the link then brings.
  SmallVector<std::pair<CallBase *, std::string>, 4> Redirected;
  for (CallBase *Call : Calls) {
    Function *Rule = Call->getCalledFunction();
    std::string Name = (RuleBodyPrefix + Rule->getName()).str();
    Function *Body = Bodies->getFunction(Name);
    if (!Body || Body->getFunctionType() != Rule->getFunctionType())
      continue;
    M.getOrInsertFunction(Name, Rule->getFunctionType());
    Redirected.emplace_back(Call, std::move(Name));
  }
  if (Redirected.empty())
    return;
  if (Linker::linkModules(M, std::move(Bodies), Linker::LinkOnlyNeeded))
    report_fatal_error("capsule: cannot link the rule bodies");
  for (auto &[Call, Name] : Redirected)
    Call->setCalledFunction(M.getFunction(Name));
  // The bodies' own BLAS calls need the routines' rules, for routines the
  // program did not declare too.
  attachLibraryRules(M);
}

std::optional<StringRef> ruleOfBody(StringRef Name) {
  if (!Name.consume_front(RuleBodyPrefix))
    return std::nullopt;
  return Name;
}

void supplyLibraryBodies(Module &M) {
  if (!bodiesFit(M))
    return;
  std::unique_ptr<Module> Bodies = parseBodies(M.getContext(), BodiesBitcode);
  SmallVector<std::string, 16> Names = bodiesProvided(*Bodies);
  if (Bodies->getDataLayout() != M.getDataLayout() || !declaresAnyOf(M, Names))
    return;
  keepOnlyCode(*Bodies, M);
  // Only what M declares is linked; M's own definitions win.
  if (Linker::linkModules(M, std::move(Bodies), Linker::LinkOnlyNeeded))
    report_fatal_error("capsule: cannot link the library bodies");
  // Internal: the program's other files and libstdc++ keep their own.
  for (const std::string &Name : Names)
    if (Function *F = M.getFunction(Name); F && !F->isDeclaration())
      F->setLinkage(GlobalValue::InternalLinkage);
}

} // namespace capsule
