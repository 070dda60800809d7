//===- Diagnostics.cpp - Compile-time errors of the Capsule pass ----------===//
#include "Support/Diagnostics.h"

#include "Support/LibraryBodies.h"
#include "Support/LibraryRules.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <tuple>

using namespace llvm;

namespace capsule {

std::string displayName(const Function &F) {
  // The pass's clones and step functions (f.capsule.step) stand for the
  // user's function.
  StringRef Name = F.getName();
  Name = Name.substr(0, Name.find(".capsule."));
  // So do the bodies of the routines' rules, that nested derivatives
  // differentiate, for the routine.
  if (std::optional<StringRef> Rule = ruleOfBody(Name))
    if (std::optional<StringRef> Routine = routineOfRuleName(*Rule))
      return Routine->str();
  return demangle(routineStoodFor(Name).value_or(Name).str());
}

/// The diagnostic carries the source location itself (clang and opt print
/// it in front of the message); without debug info, say how to get one.
/// With it, an instruction the optimizer made of several (two comparisons
/// merged) may have none: the location is then the function's.
static std::string locationHint(const Instruction &I) {
  if (I.getDebugLoc())
    return "";
  if (I.getFunction()->getSubprogram())
    return " (the optimizer left this instruction without a source line: "
           "the line shown is the function's)";
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

/// Whether \p Said was already said at \p Loc: several derivatives of one
/// function (the taped and untaped stages of a checkpointed gradient, the
/// rounds of nested differentiation) meet the same construct, and the user
/// reads about it once. Keyed by context: one compilation, one context.
static bool alreadySaid(const LLVMContext &C, const DebugLoc &Loc,
                        const std::string &Said) {
  static std::set<std::tuple<const LLVMContext *, std::string, unsigned,
                             unsigned, std::string>>
      Seen;
  std::string File = Loc ? Loc->getFilename().str() : "";
  unsigned Line = Loc ? Loc.getLine() : 0, Col = Loc ? Loc.getCol() : 0;
  return !Seen.insert({&C, File, Line, Col, Said}).second;
}

/// The contexts (compilations) in which an error was reported.
static std::set<const LLVMContext *> &contextsWithErrors() {
  static std::set<const LLVMContext *> Contexts;
  return Contexts;
}

static void diagnoseError(LLVMContext &C, const DiagnosticInfo &Error) {
  contextsWithErrors().insert(&C);
  C.diagnose(Error);
}

bool errorsReported(const LLVMContext &C) {
  return contextsWithErrors().count(&C);
}

/// The user's function a clone or step function (f.capsule.step) of the
/// module stands for: clang places a diagnostic without a line (no -g) at
/// that function's definition, and knows nothing of the clone.
static const Function &userFunction(const Function &F) {
  StringRef Name = F.getName();
  size_t Cut = Name.find(".capsule.");
  if (Cut == StringRef::npos)
    return F;
  const Function *User = F.getParent()->getFunction(Name.substr(0, Cut));
  return User ? *User : F;
}

/// "capsule: <Before> '<function>'<After>: <Why>" and the instruction,
/// attributed to the user's function, not the clone the pass works on.
static void diagnoseAt(const Instruction &I, const Function &Origin,
                       StringRef Before, StringRef After, const Twine &Why,
                       DiagnosticSeverity Severity) {
  std::string Said = ("capsule: " + Before + " '" + displayName(Origin) + "'" +
                      After + locationHint(I) + ": " + Why)
                         .str();
  if (alreadySaid(I.getContext(), I.getDebugLoc(), Said))
    return;
  std::string Msg = Said + "\n  in instruction: " + instructionText(I);
  DiagnosticInfoUnsupported Diagnostic(userFunction(Origin), Msg,
                                       I.getDebugLoc(), Severity);
  if (Severity == DS_Error)
    diagnoseError(I.getContext(), Diagnostic);
  else
    I.getContext().diagnose(Diagnostic);
}

Instruction &firstLocatedInstruction(Function &F) {
  // A line of the function's own first, not of what was inlined into it.
  for (Instruction &I : instructions(F))
    if (I.getDebugLoc() && !I.getDebugLoc().getInlinedAt())
      return I;
  for (Instruction &I : instructions(F))
    if (I.getDebugLoc())
      return I;
  return *F.getEntryBlock().getFirstNonPHIOrDbg();
}

void reportUnsupported(const Instruction &I, const Function &Origin,
                       const Twine &Why) {
  diagnoseAt(I, Origin, "cannot differentiate function", "", Why, DS_Error);
}

void reportNotInterruptible(const Instruction &I, const Function &Origin,
                            const Twine &Why) {
  diagnoseAt(I, Origin, "cannot make function", " interruptible", Why,
             DS_Error);
}

void warnRepeatedEffect(const Instruction &I, const Function &Origin,
                        const Twine &Why) {
  diagnoseAt(I, Origin, "in interruptible function", "", Why, DS_Warning);
}

/// Where the user wrote a call that inlining moved: a marker call that a
/// header's functions make (<enzyme/enzyme>) is the user's call of them.
static DebugLoc outermostLocation(const DebugLoc &Loc) {
  if (!Loc)
    return Loc;
  const DILocation *L = Loc.get();
  while (const DILocation *At = L->getInlinedAt())
    L = At;
  return DebugLoc(L);
}

void reportBadMarkerCall(const Instruction &Call, const Twine &Why) {
  std::string Msg =
      ("capsule: malformed call" + locationHint(Call) + ": " + Why).str();
  DebugLoc At = outermostLocation(Call.getDebugLoc());
  if (alreadySaid(Call.getContext(), At, Msg))
    return;
  diagnoseError(Call.getContext(),
                DiagnosticInfoUnsupported(*Call.getFunction(), Msg, At));
}

void reportUnimplementedApi(const Instruction *I, const Twine &Why) {
  diagnoseError(I->getContext(),
                DiagnosticInfoUnsupported(*I->getFunction(), "capsule: " + Why,
                                          I->getDebugLoc(), DS_Error));
}

/// "file:line: " of a global's definition, when debug info has it.
std::string definitionSite(const GlobalValue &GV) {
  unsigned Line = 0;
  StringRef File;
  if (auto *F = dyn_cast<Function>(&GV)) {
    if (const DISubprogram *SP = F->getSubprogram()) {
      Line = SP->getLine();
      File = SP->getFilename();
    }
  } else if (auto *G = dyn_cast<GlobalVariable>(&GV)) {
    SmallVector<DIGlobalVariableExpression *, 1> Info;
    G->getDebugInfo(Info);
    if (!Info.empty()) {
      Line = Info.front()->getVariable()->getLine();
      File = Info.front()->getVariable()->getFilename();
    }
  }
  return Line ? (File + ":" + Twine(Line) + ": ").str() : "";
}

void reportUnimplementedApi(LLVMContext &C, const Twine &Why) {
  contextsWithErrors().insert(&C);
  C.emitError("capsule: " + Why);
}

} // namespace capsule
