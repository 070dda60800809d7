//===- LibraryBodies.cpp - Definitions of library functions Capsule brings ===//
#include "Support/LibraryBodies.h"

#include "llvm/Bitcode/BitcodeReader.h"
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

std::unique_ptr<Module> parseBodies(LLVMContext &Context) {
  StringRef Bytes(reinterpret_cast<const char *>(BodiesBitcode),
                  sizeof(BodiesBitcode));
  Expected<std::unique_ptr<Module>> Bodies = parseBitcodeFile(
      MemoryBufferRef(Bytes, "capsule-library-bodies"), Context);
  if (!Bodies) {
    // The plugin's own bitcode: failing to read it is a broken build.
    report_fatal_error(Twine("capsule: cannot read the library bodies: ") +
                       toString(Bodies.takeError()));
  }
  return std::move(*Bodies);
}

} // namespace

void supplyLibraryBodies(Module &M) {
  Triple T(M.getTargetTriple());
  if (T.getArch() != Triple::x86_64 || !T.isOSLinux())
    return;
  std::unique_ptr<Module> Bodies = parseBodies(M.getContext());
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
