//===- RefusedCalls.cpp - Library calls no derivative goes through --------===//
#include "Support/RefusedCalls.h"

#include "Support/ParallelRegions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace capsule {

/// C, C11 and libstdc++'s ways to start a thread (std::thread's
/// constructor calls _M_start_thread).
static bool startsThread(StringRef Name) {
  return is_contained({"pthread_create", "thrd_create"}, Name) ||
         Name.starts_with("_ZNSt6thread15_M_start_thread");
}

static bool jumpsBack(StringRef Name) {
  return is_contained({"longjmp", "_longjmp", "siglongjmp", "__longjmp_chk"},
                      Name);
}

std::optional<std::string> whyRefusedCall(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return std::nullopt;
  StringRef Name = Callee->getName();
  if (std::optional<std::string> Why = whyOpenMPUnsupported(Name))
    return Why;
  if (startsThread(Name))
    return "starting a thread ('" + Name.str() +
           "') inside differentiated code is not supported: the thread's "
           "work would have no derivative; start threads outside it, or use "
           "OpenMP, whose parallel regions are differentiated";
  if (Callee->hasFnAttribute(Attribute::ReturnsTwice) || jumpsBack(Name))
    return "setjmp and longjmp ('" + Name.str() +
           "') inside differentiated code are not supported: a jump back "
           "into a frame has no reverse";
  return std::nullopt;
}

} // namespace capsule
