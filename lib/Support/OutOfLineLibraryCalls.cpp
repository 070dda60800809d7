//===- OutOfLineLibraryCalls.cpp - Library members kept as calls ---------===//
#include "Support/OutOfLineLibraryCalls.h"

#include "Analysis/CallClassifier.h"
#include "Support/EigenPacketMath.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

bool keepLibraryCallsOutOfLine(Module &M) {
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute(Attribute::NoInline) ||
        (!isCharacterStringMember(F.getName()) && !isEigenPacketMath(F)))
      continue;
    // A body given only for inlining (a member of C++17's explicit
    // instantiation) becomes one of the file's, as C++20 has it: the
    // library may not export the symbol a call would need.
    if (F.hasAvailableExternallyLinkage())
      F.setLinkage(GlobalValue::LinkOnceODRLinkage);
    F.removeFnAttr(Attribute::AlwaysInline);
    F.addFnAttr(Attribute::NoInline);
    Changed = true;
  }
  return Changed;
}

} // namespace capsule
