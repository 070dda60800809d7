//===- StackGuard.cpp - A clear stop when the machine stack overflows -----===//
#include "StackGuard.h"

#include "GlobalShadows.h"
#include "Support.h"
#include "ThreadExit.h"

#include <csignal>
#include <cstdint>
#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace capsule {
namespace {

/// Room for the handler itself, which only writes a message.
constexpr size_t AltStackBytes = 64 * 1024;
/// An overflow faults below the stack pointer, at most a frame away (a
/// frame larger than the guard gap jumps past it); every other address
/// that close to the stack pointer is the stack itself, which is mapped.
constexpr uintptr_t OverflowReach = 1 << 20;
constexpr uintptr_t AboveStackPointer = 4096;

__thread bool Armed;
struct sigaction Previous;
pthread_once_t InstallOnce = PTHREAD_ONCE_INIT;

uintptr_t stackPointer(const void *Context) {
  const auto *UC = static_cast<const ucontext_t *>(Context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(UC->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(UC->uc_mcontext.sp);
#else
  (void)UC;
  return 0; // unknown: every fault goes to the program's handler
#endif
}

bool isStackOverflow(uintptr_t Fault, uintptr_t StackPointer) {
  return StackPointer && Fault + OverflowReach >= StackPointer &&
         Fault < StackPointer + AboveStackPointer;
}

void onSegv(int Signal, siginfo_t *Info, void *Context) {
  if (isStackOverflow(reinterpret_cast<uintptr_t>(Info->si_addr),
                      stackPointer(Context))) {
    writeToStderr(
        "capsule: the machine stack overflowed in differentiated or "
        "interruptible code: the recursion is deeper than the stack limit "
        "allows (derivatives need more stack per call than the primal); "
        "raise the limit, e.g. `ulimit -s unlimited` or `ulimit -s 1048576` "
        "in the shell that starts the program, or run the computation in a "
        "thread created with a larger stack (pthread_attr_setstacksize)\n");
    _exit(3);
  }
  if (reportUnshadowedPointerFault(reinterpret_cast<uintptr_t>(Info->si_addr)))
    _exit(3);
  // Not ours: let the handler the program had see the same fault again.
  sigaction(SIGSEGV, &Previous, nullptr);
  if (Previous.sa_flags & SA_SIGINFO) {
    if (Previous.sa_sigaction)
      Previous.sa_sigaction(Signal, Info, Context);
  } else if (Previous.sa_handler != SIG_DFL && Previous.sa_handler != SIG_IGN) {
    Previous.sa_handler(Signal);
  }
}

void releaseAltStack(void *AltStack) {
  stack_t None{};
  None.ss_flags = SS_DISABLE;
  sigaltstack(&None, nullptr);
  munmap(AltStack, AltStackBytes);
}

void install() {
  struct sigaction Action {};
  Action.sa_sigaction = onSegv;
  Action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&Action.sa_mask);
  sigaction(SIGSEGV, &Action, &Previous);
}

} // namespace

void armStackOverflowGuard() {
  if (__builtin_expect(Armed, 1))
    return;
  Armed = true;
  pthread_once(&InstallOnce, install);
  void *AltStack = mmap(nullptr, AltStackBytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (AltStack == MAP_FAILED)
    return; // no guard: an overflow stays a plain crash
  stack_t Stack{};
  Stack.ss_sp = AltStack;
  Stack.ss_size = AltStackBytes;
  if (sigaltstack(&Stack, nullptr) != 0) {
    munmap(AltStack, AltStackBytes);
    return;
  }
  runAtThreadExit<releaseAltStack>(AltStack);
}

} // namespace capsule
