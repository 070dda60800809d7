//===- OutOfLineLibraryCalls.cpp - Library members kept as calls ---------===//
#include "Support/OutOfLineLibraryCalls.h"

#include "Analysis/CallClassifier.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

bool keepLibraryCallsOutOfLine(Module &M) {
  bool Changed = false;
  for (Function &F : M) {
    // A body only for inlining (an extern template's member, whose
    // symbol the library may not export) stays one.
    if (F.isDeclaration() || F.hasAvailableExternallyLinkage() ||
        F.hasFnAttribute(Attribute::NoInline) ||
        !isCharacterStringMember(F.getName()))
      continue;
    F.removeFnAttr(Attribute::AlwaysInline);
    F.addFnAttr(Attribute::NoInline);
    Changed = true;
  }
  return Changed;
}

} // namespace capsule
