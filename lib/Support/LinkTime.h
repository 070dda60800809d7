//===- LinkTime.h - Differentiation deferred to the link (LTO) --*- C++ -*-===//
//
// With clang -flto, a marker call's function may be defined in another
// file: differentiation waits for the link, where lld runs the plugin
// (capsule-config --lto-ldflags) on the merged module (full LTO: the
// FullLinkTimeOptimizationEarly extension point) or on each file with what
// it imported (ThinLTO: the backends' early-simplification extension point,
// before the optimizer drops the imported bodies).
// The compile marks its module so that the marker passes know where they
// run:
//   compile (pipeline start)   "capsule.lto.prelink": the marker passes
//                              defer; a module with marker calls keeps an
//                              undefined reference that only the link-time
//                              plugin removes, so that a link without it
//                              fails naming what to do;
//   compile (marker passes)    "capsule.lto.waiting" once they deferred;
//   link                       the marker passes run.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LINKTIME_H
#define CAPSULE_LINKTIME_H

#include <optional>
#include <string>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace capsule {

/// At the start of the compile pipeline: notes a module compiled for
/// link-time optimization.
void notePreLinkCompile(llvm::Module &M);

/// Whether \p M is being compiled for link-time optimization (after
/// notePreLinkCompile).
bool isPreLinkCompile(const llvm::Module &M);

/// Whether the marker passes leave \p M to the link. With \p HasMarkers,
/// \p M gets the undefined reference a link without the plugin stops at.
bool deferToLink(llvm::Module &M, bool HasMarkers);

/// After the last marker pass deferred: the link comes next.
void finishPreLinkCompile(llvm::Module &M);

/// At the link: the reference and the blocks the compile left go.
void enterLinkTime(llvm::Module &M);

/// Whether \p M is a file at the link (a ThinLTO backend, or full LTO's
/// merged module) whose compile deferred its marker calls to it, or the
/// end of that compile.
bool isLinkTimeModule(const llvm::Module &M);

/// Whether \p M, compiled for ThinLTO, deferred its marker calls to the
/// link (at the end of its compile, or in a backend).
bool awaitsThinLTOLink(const llvm::Module &M);

/// At the compile, before inlining: notes in \p M the functions with bodies
/// each function calls, which the compile may inline into it. A rule
/// registered in another file for one of them is only seen at the link
/// (ruleInlinedBeforeTheLink).
void recordInlinableCalls(llvm::Module &M);
/// At the link: why \p F cannot be differentiated when the compile inlined
/// into it, directly or through the functions it inlined, a function that
/// has a rule (a derivative, an inactive or a libm-like function) that
/// another file registers; the rule would be ignored.
std::optional<std::string> ruleInlinedBeforeTheLink(const llvm::Function &F);
/// What to do about a marker call whose function has no body here: compile
/// with -flto (or, where that is ThinLTO, link with full LTO).
std::string linkTimeAdvice(const llvm::Module &M);

} // namespace capsule

#endif
