//===- Arena.cpp - Deterministic allocator for interruptible code ---------===//
//
// Layout of an arena:
//
//   Base: ArenaMeta (bump offset, free-list heads), in its own page
//   Base + MetaBytes: blocks, carved in order by the bump offset
//
// A block of class C occupies 2^C bytes from its start S. A live block has
// a BlockHeader right before the pointer handed out, P: normally P = S + 16;
// for an aligned allocation P is the first suitably aligned address after
// S + 16 and the header records how far it moved. A free block has its
// header at S, linking it into its class's list.
//
// The arena is the part of the thread's runtime region (RuntimeRegion.h)
// after the frame stack; the region reserves it, this file commits it.
//
// Every write to the metadata (ArenaMeta or a header) is journaled first.
// Memory past the bump offset needs no journal: the bump offset only grows
// between a live snapshot and now, so that memory was unused at every live
// snapshot. Commitment only grows and is never rolled back.
//===----------------------------------------------------------------------===//
#include "Arena.h"
#include "Config.h"
#include "Journal.h"
#include "RuntimeRegion.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <sys/mman.h>

namespace capsule {
namespace {

constexpr uint64_t HeaderBytes = 16;
constexpr unsigned MinClass = 5; // 32 bytes: a header and 16 bytes
constexpr unsigned NumClasses = 64;
constexpr uint64_t MetaBytes = 4096;
constexpr uint64_t ArenaCommitStep = uint64_t(2) << 20;
// Marks a live block's header. Not a canonical address, so never a free
// list link either.
constexpr uint64_t LiveTag = 0xCA95'1E0A'110C'A7EDull;

struct ArenaMeta {
  uint64_t Bump;                  // bytes carved from the blocks area
  uint64_t FreeHeads[NumClasses]; // first free block of each class, or 0
};
static_assert(sizeof(ArenaMeta) <= MetaBytes, "metadata outgrew its page");

struct BlockHeader {
  uint32_t Class;  // log2 of the block's size
  uint32_t Offset; // (header address) - (block start)
  uint64_t Link;   // LiveTag when live, else the next free block (or 0)
};
static_assert(sizeof(BlockHeader) == HeaderBytes, "headers are 16 bytes");

// Not journaled: fixed once reserved (Base, End) or only ever growing
// (Committed), or statistics.
struct ThreadArena {
  char *Base;
  char *End;
  char *Committed;
  uint64_t ForeignFrees;
  uint64_t LeakedForeignFrees;
};

__thread ThreadArena ThisThread;

// Every thread's arena, so freeing a block on the wrong thread is caught
// instead of being handed to libc. Slots are filled once and never cleared
// (arenas are never unmapped).
constexpr unsigned MaxKnownArenas = 1024;
std::atomic<char *> KnownBases[MaxKnownArenas];
std::atomic<char *> KnownEnds[MaxKnownArenas];
std::atomic<unsigned> KnownCount{0};

void registerArena(char *Base, char *End) {
  unsigned Slot = KnownCount.fetch_add(1);
  if (Slot >= MaxKnownArenas)
    return;
  KnownEnds[Slot].store(End);
  KnownBases[Slot].store(Base, std::memory_order_release);
}

bool inOtherArena(const char *P) {
  unsigned Count = KnownCount.load();
  if (Count > MaxKnownArenas)
    Count = MaxKnownArenas;
  for (unsigned I = 0; I != Count; ++I) {
    char *Base = KnownBases[I].load(std::memory_order_acquire);
    if (Base && P >= Base && P < KnownEnds[I].load())
      return true;
  }
  return false;
}

[[noreturn]] void failExhausted(const ThreadArena &A, uint64_t Bytes) {
  std::fprintf(stderr,
               "capsule: the allocation arena of interruptible execution "
               "(%s) is exhausted: %llu more bytes were requested\n",
               formatBytes(A.End - A.Base, 1).Text,
               static_cast<unsigned long long>(Bytes));
  std::exit(3);
}

[[noreturn]] void failCommit(uint64_t Bytes) {
  std::fprintf(stderr,
               "capsule: out of memory committing %s of allocation arena for "
               "interruptible execution\n",
               formatBytes(Bytes, 1).Text);
  std::exit(3);
}

[[noreturn]] void failBadBlock(const char *Function, const void *P) {
  std::fprintf(stderr,
               "capsule: error: %s(%p): not a live block allocated by "
               "instrumented code on this thread (freed twice, or not from "
               "malloc?)\n",
               Function, P);
  std::abort();
}

[[noreturn]] void failOtherThread(const char *Function, const void *P) {
  std::fprintf(stderr,
               "capsule: error: %s(%p): the block was allocated by "
               "instrumented code on another thread; interruptible "
               "computations are per thread, and so are their blocks\n",
               Function, P);
  std::abort();
}

// The region reserves the address space (or already has, if the frame stack
// came first); the arena commits its first step.
ThreadArena &reserve() {
  ThreadArena &A = ThisThread;
  char *Base = regionArena();
  A.Base = Base;
  A.End = Base + regionArenaBytes();
  A.Committed = Base;
  // The metadata page starts out zero, which is a valid empty arena: the
  // reservation writes nothing that a rollback would have to undo.
  if (mprotect(Base, ArenaCommitStep, PROT_READ | PROT_WRITE) != 0)
    failCommit(ArenaCommitStep);
  A.Committed = Base + ArenaCommitStep;
  registerArena(A.Base, A.End);
  return A;
}

inline ThreadArena &arena() {
  ThreadArena &A = ThisThread;
  return __builtin_expect(A.Base != nullptr, 1) ? A : reserve();
}

inline ArenaMeta &meta(const ThreadArena &A) {
  return *reinterpret_cast<ArenaMeta *>(A.Base);
}

inline char *blocksBegin(const ThreadArena &A) { return A.Base + MetaBytes; }

inline bool contains(const ThreadArena &A, const void *P) {
  auto *C = static_cast<const char *>(P);
  return C >= A.Base && C < A.End;
}

void commitTo(ThreadArena &A, char *End) {
  if (End <= A.Committed)
    return;
  uint64_t Want =
      (End - A.Base + ArenaCommitStep - 1) / ArenaCommitStep * ArenaCommitStep;
  char *NewCommitted = Want < uint64_t(A.End - A.Base) ? A.Base + Want : A.End;
  if (mprotect(A.Committed, NewCommitted - A.Committed,
               PROT_READ | PROT_WRITE) != 0)
    failCommit(NewCommitted - A.Committed);
  A.Committed = NewCommitted;
}

// The smallest class whose blocks hold Total bytes, header included.
inline unsigned classFor(uint64_t Total) {
  if (Total <= (uint64_t(1) << MinClass))
    return MinClass;
  return 64 - __builtin_clzll(Total - 1);
}

struct Block {
  char *Start;
  bool Fresh; // carved past the bump offset, not taken from a free list
};

// A block of class C: the head of its free list, or a new one from the bump
// offset.
Block takeBlock(ThreadArena &A, unsigned C) {
  ArenaMeta &M = meta(A);
  if (uint64_t Head = M.FreeHeads[C]) {
    auto *Free = reinterpret_cast<BlockHeader *>(Head);
    journalWrite(&M.FreeHeads[C], sizeof(uint64_t));
    M.FreeHeads[C] = Free->Link;
    return {reinterpret_cast<char *>(Head), false};
  }
  uint64_t Size = uint64_t(1) << C;
  char *Start = blocksBegin(A) + M.Bump;
  if (Size > uint64_t(A.End - Start))
    failExhausted(A, Size);
  commitTo(A, Start + Size);
  journalWrite(&M.Bump, sizeof(uint64_t));
  M.Bump += Size;
  return {Start, true};
}

// Makes block B of class C live, with its payload aligned to Align (a power
// of two, at least 16), and returns the payload.
char *makeLive(Block B, unsigned C, uint64_t Align) {
  uintptr_t First = reinterpret_cast<uintptr_t>(B.Start) + HeaderBytes;
  char *P = reinterpret_cast<char *>((First + Align - 1) & ~(Align - 1));
  auto *H = reinterpret_cast<BlockHeader *>(P - HeaderBytes);
  journalWrite(H, HeaderBytes);
  H->Class = C;
  H->Offset = static_cast<uint32_t>(P - HeaderBytes - B.Start);
  H->Link = LiveTag;
  return P;
}

// The header of live block P, or a stop if P is not one.
BlockHeader *liveHeader(const ThreadArena &A, const void *P,
                        const char *Function) {
  auto *C = static_cast<const char *>(P);
  const char *Begin = blocksBegin(A);
  if (reinterpret_cast<uintptr_t>(C) % HeaderBytes != 0 ||
      C < Begin + HeaderBytes || C >= Begin + meta(A).Bump)
    failBadBlock(Function, P);
  auto *H =
      reinterpret_cast<BlockHeader *>(const_cast<char *>(C) - HeaderBytes);
  if (H->Link != LiveTag || H->Class < MinClass || H->Class >= NumClasses ||
      uint64_t(reinterpret_cast<char *>(H) - Begin) < H->Offset)
    failBadBlock(Function, P);
  return H;
}

inline uint64_t usableBytes(const BlockHeader *H) {
  return (uint64_t(1) << H->Class) - HeaderBytes - H->Offset;
}

void freeLive(ThreadArena &A, BlockHeader *H) {
  unsigned C = H->Class;
  char *Start = reinterpret_cast<char *>(H) - H->Offset;
  if (H->Offset) {
    // The header inside the block must not look live any more, or freeing
    // the pointer again would go unnoticed.
    journalWrite(&H->Link, sizeof(uint64_t));
    H->Link = 0;
  }
  ArenaMeta &M = meta(A);
  auto *Free = reinterpret_cast<BlockHeader *>(Start);
  journalWrite(Free, HeaderBytes);
  Free->Class = C;
  Free->Offset = 0;
  Free->Link = M.FreeHeads[C];
  journalWrite(&M.FreeHeads[C], sizeof(uint64_t));
  M.FreeHeads[C] = reinterpret_cast<uint64_t>(Start);
}

// A block that did not come from this thread's arena: allocated by the C
// library before the computation (or by code that is not instrumented).
void freeForeign(ThreadArena &A, void *P, const char *Function) {
  if (inOtherArena(static_cast<char *>(P)))
    failOtherThread(Function, P);
  if (__capsule_journal_depth) {
    // A live capsule may be resumed at a point where the block is still in
    // use, and a free cannot be undone: leak it.
    ++A.LeakedForeignFrees;
    return;
  }
  ++A.ForeignFrees;
  std::free(P);
}

// Payload of at least Bytes aligned to Align (a power of two, >= 16).
void *allocate(uint64_t Bytes, uint64_t Align, bool &Fresh) {
  ThreadArena &A = arena();
  // The header and, for a larger alignment, room to move the payload.
  uint64_t Extra = Align > HeaderBytes ? Align : HeaderBytes;
  uint64_t Room = A.End - blocksBegin(A);
  if (Bytes > Room || Bytes + Extra > Room) {
    errno = ENOMEM;
    return nullptr;
  }
  unsigned C = classFor((Bytes ? Bytes : 1) + Extra);
  Block B = takeBlock(A, C);
  Fresh = B.Fresh;
  return makeLive(B, C, Align);
}

// Fills [P, P + Bytes) of a newly allocated block with Fill (or copies
// Source). A fresh block needs no journal; a block from a free list may have
// been live at a snapshot (freed after it), so its old contents must be
// saved like those of any other store.
void initialize(void *P, bool Fresh, const void *Source, uint64_t Bytes) {
  if (!Fresh)
    journalWrite(P, Bytes);
  if (Source)
    std::memcpy(P, Source, Bytes);
  else
    std::memset(P, 0, Bytes);
}

} // namespace

ArenaStats arenaStats() {
  const ThreadArena &A = ThisThread;
  ArenaStats S{};
  if (!A.Base)
    return S;
  S.ReservedBytes = A.End - A.Base;
  S.CommittedBytes = A.Committed - A.Base;
  S.CarvedBytes = meta(A).Bump;
  S.ForeignFrees = A.ForeignFrees;
  S.LeakedForeignFrees = A.LeakedForeignFrees;
  return S;
}

bool arenaContains(const void *P) {
  const ThreadArena &A = ThisThread;
  return A.Base && contains(A, P);
}

uint64_t arenaUsableSize(const void *P) {
  if (!arenaContains(P))
    failBadBlock("arenaUsableSize", P);
  return usableBytes(liveHeader(ThisThread, P, "arenaUsableSize"));
}

uint64_t reallocUsableSize(const void *P) {
  if (!P)
    return 0;
  const ThreadArena &A = ThisThread;
  if (A.Base && contains(A, P))
    return usableBytes(liveHeader(A, P, "realloc"));
  if (inOtherArena(static_cast<const char *>(P)))
    failOtherThread("realloc", P);
  return malloc_usable_size(const_cast<void *>(P));
}

} // namespace capsule

using namespace capsule;

extern "C" void *__capsule_malloc(uint64_t Bytes) {
  bool Fresh;
  return allocate(Bytes, HeaderBytes, Fresh);
}

extern "C" void *__capsule_calloc(uint64_t Count, uint64_t Size) {
  uint64_t Bytes;
  if (__builtin_mul_overflow(Count, Size, &Bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  bool Fresh;
  void *P = allocate(Bytes, HeaderBytes, Fresh);
  if (P)
    initialize(P, Fresh, nullptr, Bytes);
  return P;
}

extern "C" void *__capsule_aligned_alloc(uint64_t Alignment, uint64_t Bytes) {
  if (Alignment == 0 || (Alignment & (Alignment - 1)) != 0 ||
      Alignment > MaxArenaAlignment) {
    errno = EINVAL;
    return nullptr;
  }
  bool Fresh;
  return allocate(Bytes, Alignment > HeaderBytes ? Alignment : HeaderBytes,
                  Fresh);
}

extern "C" void __capsule_free(void *P) {
  if (!P)
    return;
  ThreadArena &A = ThisThread;
  if (!A.Base || !contains(A, P)) {
    freeForeign(A, P, "free");
    return;
  }
  freeLive(A, liveHeader(A, P, "free"));
}

extern "C" void *__capsule_realloc(void *P, uint64_t Bytes) {
  if (!P)
    return __capsule_malloc(Bytes);
  ThreadArena &A = ThisThread;
  bool Foreign = !A.Base || !contains(A, P);
  if (Foreign && inOtherArena(static_cast<char *>(P)))
    failOtherThread("realloc", P);
  // As glibc does: realloc(P, 0) frees P and returns null.
  if (Bytes == 0) {
    __capsule_free(P);
    return nullptr;
  }
  uint64_t Old;
  BlockHeader *H = nullptr;
  if (Foreign) {
    Old = malloc_usable_size(P);
  } else {
    H = liveHeader(A, P, "realloc");
    Old = usableBytes(H);
    if (Bytes <= Old)
      return P;
  }
  bool Fresh;
  void *New = allocate(Bytes, HeaderBytes, Fresh);
  if (!New)
    return nullptr;
  initialize(New, Fresh, P, Old < Bytes ? Old : Bytes);
  if (Foreign)
    freeForeign(arena(), P, "realloc");
  else
    freeLive(A, H);
  return New;
}
