//===- Diagnostics.cpp - Compile-time errors of the Capsule pass ----------===//
#include "Diagnostics.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace capsule {

std::string displayName(const Function &F) {
  return demangle(F.getName().str());
}

/// The diagnostic carries the source location itself (clang and opt print
/// it in front of the message); without debug info, say how to get one.
static std::string locationHint(const Instruction &I) {
  if (I.getDebugLoc())
    return "";
  return " (compile with -g to see the source line)";
}

static std::string instructionText(const Instruction &I) {
  std::string S;
  raw_string_ostream OS(S);
  I.print(OS);
  StringRef Text = StringRef(S).trim();
  // Metadata attachments only make the message harder to read.
  return Text.substr(0, Text.find(", !")).str();
}

void reportUnsupported(const Instruction &I, const Function &Origin,
                       const Twine &Why) {
  std::string Msg = ("capsule: cannot differentiate function '" +
                     displayName(Origin) + "'" + locationHint(I) + ": " + Why +
                     "\n  in instruction: " + instructionText(I))
                        .str();
  // Attributed to the user's function, not the clone being differentiated.
  I.getContext().diagnose(
      DiagnosticInfoUnsupported(Origin, Msg, I.getDebugLoc()));
}

void reportBadMarkerCall(const Instruction &Call, const Twine &Why) {
  std::string Msg =
      ("capsule: malformed call" + locationHint(Call) + ": " + Why).str();
  Call.getContext().diagnose(
      DiagnosticInfoUnsupported(*Call.getFunction(), Msg, Call.getDebugLoc()));
}

} // namespace capsule
