//===- Tape.cpp - The chunked LIFO tape -----------------------------------===//
//
// Generated code pushes and pops inline (abi.h) and lands here only at chunk
// boundaries. Invariants that keep the inline paths right:
//   - a record never straddles two chunks, so a chunk below the current one
//     ends exactly where its last record ends;
//   - no chunk below the current one is empty, so popping from an empty
//     chunk always has a record waiting in the chunk below;
//   - a chunk's usable end is capped at the room the tape limit left when the
//     chunk was started, so the inline push can never pass the limit.
// In a green run (GreenRun.h) the tape stays empty: its code is untaped, so
// a push there is an internal error, and the inline push is made to take
// the slow path, where that is detected.
//
// Each thread has two tapes (Tape.h, TapeLevel): the outer one serves a
// gradient of code that itself computes gradients (reverse over reverse),
// whose records would otherwise interleave with the inner gradient's.
//===----------------------------------------------------------------------===//
#include "Tape.h"
#include "Config.h"
#include "GreenRun.h"
#include "ThreadExit.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>

// Zero-initialized, so the very first push of a thread takes the slow path.
__thread capsule_tape_state __capsule_tape
    __attribute__((tls_model("initial-exec")));
__thread capsule_tape_state __capsule_tangent_tape
    __attribute__((tls_model("initial-exec")));
__thread capsule_tape_state __capsule_tangent_tape_lanes[CAPSULE_MAX_LANES]
    __attribute__((tls_model("initial-exec")));
__thread capsule_tape_state __capsule_outer_tape
    __attribute__((tls_model("initial-exec")));
__thread capsule_tape_state __capsule_adjoint_tape
    __attribute__((tls_model("initial-exec")));

namespace {

// Header in front of a chunk's bytes; 16-byte aligned so records are too.
struct alignas(16) Chunk {
  Chunk *Below;           // the chunk under this one, null for the bottom chunk
  char *BelowTop;         // Below's top when this chunk was started
  char *End;              // usable end: capacity capped at the limit's room
  uint64_t Capacity;      // bytes allocated after the header
  uint64_t BytesBelow;    // bytes in use in all chunks below
  uint64_t CapacityBelow; // capacity of all chunks below
  // Capacity bytes for the tangents of the records (forward mode over a
  // gradient), one per lane of vector mode, null until first needed.
  char *Twins[CAPSULE_MAX_LANES];
  char *AdjointTwin; // Capacity zeroed bytes for their adjoints (reverse
                     // mode over a gradient), null until first needed
  uint64_t TwinHigh; // bytes of AdjointTwin written since it was cleared

  char *begin() { return reinterpret_cast<char *>(this + 1); }
};

// What a thread's tape needs besides the inline state in __capsule_tape.
// Plain data in __thread storage: a C++ thread_local with a destructor would
// need libstdc++, so a pthread key frees the chunks when the thread exits.
struct ThreadTape {
  // Emptied chunks kept for reuse (linked through Below): the reverse sweep
  // empties them and the next forward sweep fills them again. Freeing them
  // instead costs a page fault per page on every gradient call, since the
  // allocator returns blocks this large to the system.
  Chunk *Free;
  uint64_t FreeBytes;
  uint64_t Peak;
  // The capacity of the chunks in use at the peak: what the next call of
  // the same size needs kept (more than Peak, by the tails of chunks a
  // record did not fit in).
  uint64_t PeakCapacity;
  capsule::TapeChunkCounts Chunks;
  bool CleanupRegistered;
  // Between the outer tape's gradient begin and end: the inner tape's
  // chunks keep their adjoint twins, which that call's reverse sweep
  // reads, so none is freed (Outer only).
  bool InCall;
};

__thread ThreadTape InnerThread, OuterThread;
std::atomic<uint64_t> ChunkBytes{capsule::DefaultChunkBytes};

/// One tape: its inline state, which generated code reads, and the rest.
struct Tape {
  capsule_tape_state &Header;
  ThreadTape &Thread;
};

Tape tape(capsule::TapeLevel L) {
  if (L == capsule::TapeLevel::Outer)
    return {__capsule_outer_tape, OuterThread};
  return {__capsule_tape, InnerThread};
}

Chunk *currentChunk(const capsule_tape_state &H) {
  char *Begin = H.chunk_begin;
  return Begin ? reinterpret_cast<Chunk *>(Begin) - 1 : nullptr;
}

uint64_t bytesInUse(const capsule_tape_state &H) {
  Chunk *C = currentChunk(H);
  return C ? C->BytesBelow + (H.top - C->begin()) : 0;
}

[[noreturn]] void failAllocation(uint64_t Bytes) {
  std::fprintf(stderr,
               "capsule: out of memory allocating %llu bytes of gradient "
               "tape; set CAPSULE_TAPE_LIMIT to stop earlier with a clear "
               "message\n",
               static_cast<unsigned long long>(Bytes));
  std::exit(3);
}

Chunk *allocateChunk(ThreadTape &T, uint64_t Capacity) {
  auto *C = static_cast<Chunk *>(std::malloc(sizeof(Chunk) + Capacity));
  if (!C)
    failAllocation(Capacity);
  C->Capacity = Capacity;
  std::fill_n(C->Twins, CAPSULE_MAX_LANES, nullptr);
  C->AdjointTwin = nullptr;
  C->TwinHigh = 0;
  ++T.Chunks.Allocated;
  ++T.Chunks.Held;
  return C;
}

void freeChunk(ThreadTape &T, Chunk *C) {
  if (!C)
    return;
  for (char *Twin : C->Twins)
    std::free(Twin);
  std::free(C->AdjointTwin);
  std::free(C);
  --T.Chunks.Held;
}

void release(ThreadTape &T, Chunk *C) {
  C->Below = T.Free;
  T.Free = C;
  T.FreeBytes += C->Capacity;
}

// Frees kept chunks until at most Keep bytes of them remain.
void trimFree(ThreadTape &T, uint64_t Keep) {
  while (T.Free && T.FreeBytes > Keep) {
    Chunk *C = T.Free;
    T.Free = C->Below;
    T.FreeBytes -= C->Capacity;
    freeChunk(T, C);
  }
}

// Keeps every chunk of the tape and leaves no current chunk.
void releaseStack(Tape T) {
  for (Chunk *C = currentChunk(T.Header); C;) {
    Chunk *Below = C->Below;
    release(T.Thread, C);
    C = Below;
  }
  T.Header = capsule_tape_state{};
}

// A chunk that can hold at least N bytes on a tape holding InUse bytes; Room
// (>= N) is what the tape limit still allows, so no more than that is
// allocated. Chunks grow with the tape, from FirstChunkBytes to ChunkBytes:
// a tape that stays small (the share of one parallel region a thread
// records, thousands of them alive at once) does not take a whole chunk of
// the default size. A kept chunk serves if it is as large as a new chunk
// would be (its usable end is capped at Room by the caller).
Chunk *acquire(ThreadTape &T, uint64_t N, uint64_t InUse, uint64_t Room) {
  uint64_t Grown =
      std::min(std::max(InUse, capsule::FirstChunkBytes), ChunkBytes.load());
  uint64_t Capacity = std::min(std::max(Grown, N), Room);
  for (Chunk **Link = &T.Free; *Link; Link = &(*Link)->Below) {
    Chunk *C = *Link;
    if (C->Capacity < Capacity)
      continue;
    *Link = C->Below;
    T.FreeBytes -= C->Capacity;
    return C;
  }
  return allocateChunk(T, Capacity);
}

[[noreturn]] void failPopPastBottom(uint64_t N) {
  std::fprintf(stderr,
               "capsule: internal error: a %llu-byte record was popped from "
               "the gradient tape but none was pushed\n",
               static_cast<unsigned long long>(N));
  std::abort();
}

// Runs at thread exit with the exiting thread's TLS still in place.
template <capsule::TapeLevel L> void freeThreadTape(void *) {
  capsule::tapeFree(L);
  // A later key destructor may use the tape again and must register anew.
  tape(L).Thread.CleanupRegistered = false;
}

// Arranges for this thread's chunks to be freed when it exits; called before
// its first chunk is allocated.
void registerCleanup(capsule::TapeLevel L) {
  ThreadTape &T = tape(L).Thread;
  if (T.CleanupRegistered)
    return;
  if (L == capsule::TapeLevel::Outer)
    capsule::runAtThreadExit<freeThreadTape<capsule::TapeLevel::Outer>>(&T);
  else
    capsule::runAtThreadExit<freeThreadTape<capsule::TapeLevel::Inner>>(&T);
  T.CleanupRegistered = true;
}

// Calls F on every chunk of the inner tape, in use or kept for reuse.
template <typename Fn> void forEachInnerChunk(Fn F) {
  for (Chunk *List : {currentChunk(__capsule_tape), InnerThread.Free})
    for (Chunk *C = List; C; C = C->Below)
      F(*C);
}

// Records up to Top in chunk C may have had shadow pointers written into
// their adjoint twin (reverse over reverse: see clearAdjointTwins).
void noteTwinWritten(Chunk *C, char *Top) {
  if (C && C->AdjointTwin)
    C->TwinHigh = std::max<uint64_t>(C->TwinHigh, Top - C->begin());
}

void *pushSlow(capsule::TapeLevel L, uint64_t N) {
  if (__builtin_expect(capsule::inGreenRun(), 0))
    capsule::failInternal("a record was pushed on the gradient tape in a "
                          "green run (%llu bytes)",
                          static_cast<unsigned long long>(N));
  Tape Tp = tape(L);
  ThreadTape &T = Tp.Thread;
  Chunk *Current = currentChunk(Tp.Header);
  uint64_t InUse = bytesInUse(Tp.Header);
  uint64_t Limit = capsule::tapeLimit();
  if (Limit && (InUse > Limit || N > Limit - InUse))
    capsule::failTapeLimit(Limit);
  uint64_t Room = Limit ? Limit - InUse : UINT64_MAX;

  Chunk *Below = Current;
  char *BelowTop = Tp.Header.top;
  noteTwinWritten(Current, BelowTop);
  // An empty chunk (too small for this record) must not stay below.
  if (Current && BelowTop == Current->begin()) {
    Below = Current->Below;
    BelowTop = Current->BelowTop;
    release(T, Current);
  }

  registerCleanup(L);
  Chunk *C = acquire(T, N, InUse, Room);
  C->Below = Below;
  C->BelowTop = BelowTop;
  C->BytesBelow = InUse;
  C->CapacityBelow = Below ? Below->CapacityBelow + Below->Capacity : 0;
  T.PeakCapacity = std::max(T.PeakCapacity, C->CapacityBelow + C->Capacity);
  C->End = C->begin() + std::min(C->Capacity, Room);
  Tp.Header = {C->begin() + N, C->End, C->begin()};
  T.Peak = std::max(T.Peak, InUse + N);
  return C->begin();
}

void *popSlow(capsule::TapeLevel L, uint64_t N) {
  if (__builtin_expect(capsule::inGreenRun(), 0))
    capsule::failInternal("a record was popped from the gradient tape in a "
                          "green run (%llu bytes)",
                          static_cast<unsigned long long>(N));
  Tape Tp = tape(L);
  Chunk *Current = currentChunk(Tp.Header);
  Chunk *Below = Current ? Current->Below : nullptr;
  if (!Below || uint64_t(Current->BelowTop - Below->begin()) < N)
    failPopPastBottom(N);
  char *Record = Current->BelowTop - N;
  release(Tp.Thread, Current);
  Tp.Header = {Record, Below->End, Below->begin()};
  return Record;
}

// Points Mirror at the current chunk's twin (the chunk's field TwinOf
// gives, allocated on first use, zeroed if Zeroed) and returns the twin of
// Record (null for null): forward and reverse mode over a gradient.
template <class TwinField>
void *mirrorTape(capsule_tape_state &Mirror, TwinField TwinOf, bool Zeroed,
                 void *Record) {
  Chunk *C = currentChunk(__capsule_tape);
  if (!C) {
    Mirror = capsule_tape_state{};
    return nullptr;
  }
  char *&T = TwinOf(*C);
  if (!T) {
    T = static_cast<char *>(Zeroed ? std::calloc(1, C->Capacity)
                                   : std::malloc(C->Capacity));
    if (!T)
      failAllocation(C->Capacity);
  }
  auto At = [C, T](char *P) { return T + (P - C->begin()); };
  Mirror = {At(__capsule_tape.top), At(__capsule_tape.chunk_end), T};
  return Record ? At(static_cast<char *>(Record)) : nullptr;
}

} // namespace

extern "C" void *__capsule_tape_push_slow(uint64_t N) {
  return pushSlow(capsule::TapeLevel::Inner, N);
}

extern "C" void *__capsule_tape_pop_slow(uint64_t N) {
  return popSlow(capsule::TapeLevel::Inner, N);
}

extern "C" void *__capsule_outer_tape_push_slow(uint64_t N) {
  return pushSlow(capsule::TapeLevel::Outer, N);
}

extern "C" void *__capsule_outer_tape_pop_slow(uint64_t N) {
  return popSlow(capsule::TapeLevel::Outer, N);
}

extern "C" void *__capsule_tangent_tape_lane_mirror(void *Record,
                                                    uint64_t Lane) {
  return mirrorTape(
      Lane ? __capsule_tangent_tape_lanes[Lane] : __capsule_tangent_tape,
      [Lane](Chunk &C) -> char *& { return C.Twins[Lane]; },
      /*Zeroed=*/false, Record);
}

// The adjoint twins are the outer gradient's shadow memory of the records,
// so they hold the shadows of the pointers the records hold as well as the
// adjoints of their numbers, and the records of successive inner calls lay
// out the same bytes differently. An inner call's pointer shadows must not
// be read as adjoints by another's numbers: the twins are cleared when an
// inner call begins (of the previous calls' pointer shadows) and, in the
// outer reverse sweep, when one has been reversed (of its own; its numbers'
// adjoints are consumed by then). Clearing covers what the records reached
// (TwinHigh), so it costs what the inner call's tape does.
extern "C" void __capsule_adjoint_tape_clear(void) {
  forEachInnerChunk([](Chunk &C) {
    if (C.AdjointTwin && C.TwinHigh) {
      std::memset(C.AdjointTwin, 0, C.TwinHigh);
      C.TwinHigh = 0;
    }
  });
}

extern "C" void *__capsule_adjoint_tape_mirror(void *Record) {
  return mirrorTape(
      __capsule_adjoint_tape, [](Chunk &C) -> char *& { return C.AdjointTwin; },
      /*Zeroed=*/true, Record);
}

namespace capsule {

uint64_t tapeBytesInUse(TapeLevel L) { return bytesInUse(tape(L).Header); }

void tapeLimitChanged() {
  Chunk *C = currentChunk(__capsule_tape);
  if (!C || inGreenRun())
    return;
  uint64_t Limit = tapeLimit();
  uint64_t Room = !Limit                  ? UINT64_MAX
                  : Limit > C->BytesBelow ? Limit - C->BytesBelow
                                          : 0;
  // Never below the top: the records there stay, and the next push goes to
  // the slow path, which stops the program if it passes the limit.
  uint64_t Used = __capsule_tape.top - C->begin();
  C->End = C->begin() + std::max(Used, std::min(C->Capacity, Room));
  __capsule_tape.chunk_end = C->End;
}

bool tapeRestartInPlace() {
  Chunk *C = currentChunk(__capsule_tape);
  // A current chunk above the bottom one is an abandoned call's; kept
  // chunks over the trim's floor are a larger call's, to be trimmed.
  if (!C || C->Below || InnerThread.FreeBytes > ChunkBytes.load() ||
      inGreenRun())
    return false;
  uint64_t Limit = tapeLimit();
  C->End = C->begin() + (Limit ? std::min(C->Capacity, Limit) : C->Capacity);
  __capsule_tape = {C->begin(), C->End, C->begin()};
  InnerThread.Peak = 0;
  InnerThread.PeakCapacity = C->Capacity;
  return true;
}

void tapeReset(TapeLevel L) {
  if (L == TapeLevel::Inner && tapeRestartInPlace())
    return;
  Tape Tp = tape(L);
  ThreadTape &T = Tp.Thread;
  releaseStack(Tp);
  // Keep what the previous call needed (a repeated gradient reuses it), and
  // at least one chunk; a one-off large call does not pin its memory past
  // the next call. Inside an outer call, the inner tape's chunks all stay:
  // their adjoint twins are that call's memory until it ends.
  if (L == TapeLevel::Outer || !OuterThread.InCall)
    trimFree(T, std::max(T.PeakCapacity, ChunkBytes.load()));
  T.Peak = 0;
  T.PeakCapacity = 0;
}

capsule_tape_state tapeDetach() {
  capsule_tape_state Records = __capsule_tape;
  __capsule_tape = capsule_tape_state{};
  return Records;
}

void tapeAttach(const capsule_tape_state &Records) {
  releaseStack(tape(TapeLevel::Inner));
  __capsule_tape = Records;
}

void tapeRecordPeak(TapeLevel L) {
  Tape Tp = tape(L);
  Tp.Thread.Peak = std::max(Tp.Thread.Peak, tapeBytesInUse(L));
  // The forward sweep is done: no record of this call is above the top.
  noteTwinWritten(currentChunk(Tp.Header), Tp.Header.top);
}

void tapeFree(TapeLevel L) {
  Tape Tp = tape(L);
  releaseStack(Tp);
  trimFree(Tp.Thread, 0);
  Tp.Thread.Peak = 0;
  Tp.Thread.PeakCapacity = 0;
}

uint64_t tapePeakBytes(TapeLevel L) { return tape(L).Thread.Peak; }

uint64_t tapeBytesOf(const capsule_tape_state &Records) {
  return bytesInUse(Records);
}

TapeChunkCounts tapeChunkCounts() { return InnerThread.Chunks; }

void outerTapeCallBegins() {
  // A previous outer call that did not end (an exception crossed it) may
  // have left adjoints in the twins, which its reverse sweep would have
  // consumed.
  if (OuterThread.InCall)
    forEachInnerChunk([](Chunk &C) {
      if (C.AdjointTwin)
        std::memset(C.AdjointTwin, 0, C.Capacity);
      C.TwinHigh = 0;
    });
  OuterThread.InCall = true;
}

void outerTapeCallEnds() { OuterThread.InCall = false; }

void setTapeChunkBytes(uint64_t Bytes) { ChunkBytes.store(Bytes); }

// The tape is empty, so top is the current chunk's beginning (or null before
// the first chunk). An end equal to top leaves no room for any record, both
// to the inline push of generated code (a signed comparison) and to
// tapePush (an unsigned one), so every push lands in the slow path, which
// stops the program; every pop does too (top == chunk_begin).
void tapeBeginGreenRun() {
  if (uint64_t InUse = tapeBytesInUse(TapeLevel::Inner))
    failInternal("a green run began with records on the gradient tape (%llu "
                 "bytes)",
                 static_cast<unsigned long long>(InUse));
  __capsule_tape.chunk_end = __capsule_tape.top;
}

// Nothing moved during the run, so the current chunk's end (capped at the
// limit's room when the chunk was started) serves the next taped sweep.
void tapeEndGreenRun() {
  Chunk *C = currentChunk(__capsule_tape);
  __capsule_tape.chunk_end = C ? C->End : nullptr;
}

} // namespace capsule
