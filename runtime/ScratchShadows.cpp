//===- ScratchShadows.cpp - Shadows of a leaf's stack slots in checkpointed code
//===//
//
// In checkpointed code only atomic leaves keep stack slots and byval copies;
// their shadows live from the leaf's forward sweep to its reverse sweep,
// within one stage. They come from this per-thread stack instead of the C
// library's heap because the journal must not save writes to them: a
// rollback long after the block died would write into freed memory. The
// journal skips this range (Journal.cpp), as it skips the machine stack.
//
// Blocks are freed in about the reverse order of their allocation (the
// reverse sweep passes slots in reverse); a freed block is reclaimed once
// every block above it is freed too. A green run (GreenRun.h) executes the
// untaped sweep, which allocates here but has no reverse sweep to free its
// blocks, so the run drops everything it allocated at its end.
//===----------------------------------------------------------------------===//
#include "ScratchShadows.h"
#include "abi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

namespace capsule {
namespace {

/// Address space each thread reserves for scratch shadows.
constexpr uint64_t ScratchBytes = uint64_t(16) << 30;

struct alignas(16) ScratchHeader {
  ScratchHeader *Below; // the block allocated before this one, or null
  uint64_t Freed;
};

struct ThreadScratch {
  char *Base;
  char *Top; // first free byte
  ScratchHeader *Newest;
};

__thread ThreadScratch ThisThread;

void reserve(ThreadScratch &S) {
  void *Base = mmap(nullptr, ScratchBytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Base == MAP_FAILED) {
    std::fprintf(stderr, "capsule: cannot reserve address space for the "
                         "shadows of stack slots in checkpointed code\n");
    std::exit(3);
  }
  S.Base = S.Top = static_cast<char *>(Base);
}

/// Reclaims the freed blocks at the top of the stack.
void popFreed(ThreadScratch &S) {
  while (S.Newest && S.Newest->Freed) {
    S.Top = reinterpret_cast<char *>(S.Newest);
    S.Newest = S.Newest->Below;
  }
}

} // namespace

bool inScratchShadows(const void *P) {
  const ThreadScratch &S = ThisThread;
  auto *C = static_cast<const char *>(P);
  return C >= S.Base && C < S.Base + ScratchBytes && S.Base;
}

char *scratchShadowMark() { return ThisThread.Top; }

ScratchRange scratchShadowRange() {
  ThreadScratch &S = ThisThread;
  if (!S.Base)
    reserve(S);
  return {S.Base, S.Base + ScratchBytes};
}

void releaseScratchShadowsAbove(char *Mark) {
  ThreadScratch &S = ThisThread;
  // A mark taken before the first allocation reserved the stack.
  if (!Mark)
    Mark = S.Base;
  while (S.Newest && reinterpret_cast<char *>(S.Newest) >= Mark)
    S.Newest = S.Newest->Below;
  S.Top = Mark;
}

} // namespace capsule

using namespace capsule;

extern "C" void *__capsule_scratch_shadow_alloc(uint64_t Bytes) {
  ThreadScratch &S = ThisThread;
  if (__builtin_expect(!S.Base, 0))
    reserve(S);
  uint64_t Rounded = (Bytes + 15) / 16 * 16;
  if (Rounded + sizeof(ScratchHeader) >
      uint64_t(S.Base + ScratchBytes - S.Top)) {
    std::fprintf(stderr, "capsule: out of space for the shadows of stack "
                         "slots in checkpointed code\n");
    std::exit(3);
  }
  auto *H = reinterpret_cast<ScratchHeader *>(S.Top);
  H->Below = S.Newest;
  H->Freed = 0;
  S.Newest = H;
  S.Top += sizeof(ScratchHeader) + Rounded;
  // Reused memory: shadows start from zero.
  std::memset(H + 1, 0, Rounded);
  return H + 1;
}

extern "C" void __capsule_scratch_shadow_free(void *Shadow) {
  if (!Shadow)
    return;
  static_cast<ScratchHeader *>(Shadow)[-1].Freed = 1;
  popFreed(ThisThread);
}
