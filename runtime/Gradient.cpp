//===- Gradient.cpp - Bracketing of gradient calls and their statistics ---===//
//
// A gradient call resets the thread's tape, runs the forward and reverse
// sweeps, then frees what the program freed in between. A split-mode call
// (abi.h) runs each half on a tape of its own, kept in an object between
// the halves, so that other gradients, or the enclosing gradient of a
// custom rule that uses split mode, go on with the thread's tape meanwhile.
//===----------------------------------------------------------------------===//
#include "Config.h"
#include "RuntimeRegion.h"
#include "StackGuard.h"
#include "Support.h"
#include "Tape.h"

#include "capsule/capsule.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using capsule::TapeLevel;

/// The blocks __capsule_defer_free postponed in a gradient call.
struct DeferredFrees {
  void **Blocks = nullptr;
  uint64_t Size = 0, Capacity = 0;
};

/// A thread's gradient call on one of its tapes (Tape.h, TapeLevel): a
/// gradient that differentiates gradients (reverse over reverse) brackets
/// calls on the inner tape inside its own.
struct GradientCall {
  double Start = 0;
  DeferredFrees Deferred;
  /// The tape's bytes when the forward sweep ended, and those of the
  /// records OpenMP teams set aside by then: all live until the reverse
  /// sweep.
  uint64_t BytesAtForwardDone = 0;
  uint64_t TeamBytes = 0; // added to atomically
};
__thread GradientCall InnerCall, OuterCall;

GradientCall &callOn(TapeLevel L) {
  return L == TapeLevel::Outer ? OuterCall : InnerCall;
}

void freeDeferredBlocks(DeferredFrees &Deferred) {
  for (uint64_t I = 0; I < Deferred.Size; ++I)
    std::free(Deferred.Blocks[I]);
  Deferred.Size = 0;
}

// Process-wide, so a program can read them from any thread; written only at
// the end of a call. The counts are atomics, so that an untimed call takes no
// lock; the seconds, written only by timed calls, are under the mutex.
struct SharedStats {
  std::atomic<uint64_t> Calls{0}, LastTapeBytes{0}, PeakTapeBytes{0};
  pthread_mutex_t SecondsMutex = PTHREAD_MUTEX_INITIALIZER;
  double LastSeconds = 0, TotalSeconds = 0;
};
SharedStats Stats;

void printCall(uint64_t Call, uint64_t PeakBytes, double Seconds) {
  std::fprintf(stderr,
               "capsule: gradient call %llu: peak tape %s (%llu bytes), "
               "%.6f s\n",
               static_cast<unsigned long long>(Call),
               capsule::formatBytes(PeakBytes, 2).Text,
               static_cast<unsigned long long>(PeakBytes), Seconds);
}

/// The contents of a table's shadow globals, saved.
struct SavedShadows {
  const capsule_shadow_global *Globals;
  uint64_t Count;
  char *Bytes;
};

void saveShadows(const SavedShadows &S) {
  char *To = S.Bytes;
  for (uint64_t K = 0; K < S.Count; ++K) {
    std::memcpy(To, S.Globals[K].shadow, S.Globals[K].bytes);
    To += S.Globals[K].bytes;
  }
}

void loadShadows(const SavedShadows &S) {
  const char *From = S.Bytes;
  for (uint64_t K = 0; K < S.Count; ++K) {
    std::memcpy(S.Globals[K].shadow, From, S.Globals[K].bytes);
    From += S.Globals[K].bytes;
  }
}

/// The bytes of all shadows of a table.
uint64_t shadowBytes(const capsule_shadow_global *G, uint64_t N) {
  uint64_t Bytes = 0;
  for (uint64_t K = 0; K < N; ++K)
    Bytes += G[K].bytes;
  return Bytes;
}

constexpr const char *InsideAnother = "starting a gradient call inside another";
constexpr const char *InSplitMode = "in __enzyme_augmentfwd";

/// Memory for a gradient call's bookkeeping, or the end of the program.
void *allocateOrExit(size_t Bytes, const char *What) {
  void *P = std::calloc(1, Bytes ? Bytes : 1);
  if (!P) {
    std::fprintf(stderr, "capsule: out of memory %s\n", What);
    std::exit(3);
  }
  return P;
}

/// A gradient call begun while another runs on the same thread (a custom
/// rule's body computing a gradient during the enclosing call's sweeps):
/// what the enclosing call had, put back when the inner call ends.
struct EnclosingCall {
  EnclosingCall *Next; // the call enclosing that one, if any
  uintptr_t Frame;     // where the enclosing call began on the stack
  capsule_tape_state Records;
  GradientCall Call;
  SavedShadows Shadows; // Bytes set by __capsule_gradient_keep_globals
};

/// This thread's plain gradient calls in progress. A call begun deeper on
/// the stack than the innermost one runs inside it; one begun elsewhere
/// means that those were abandoned (an exception left them), and it starts
/// afresh.
struct ActiveCalls {
  bool Active;
  uintptr_t Frame; // where the innermost call began
  EnclosingCall *Enclosing;
};
__thread ActiveCalls Calls;

void dropAbandonedCalls() {
  while (EnclosingCall *E = Calls.Enclosing) {
    Calls.Enclosing = E->Next;
    capsule::tapeAttach(E->Records);
    freeDeferredBlocks(E->Call.Deferred);
    std::free(E->Call.Deferred.Blocks);
    std::free(E->Shadows.Bytes);
    std::free(E);
  }
}

/// Sets the enclosing call aside when this one runs inside it.
void enterCall(uintptr_t Here) {
  if (Calls.Active && Here < Calls.Frame) {
    auto *E = static_cast<EnclosingCall *>(
        allocateOrExit(sizeof(EnclosingCall), InsideAnother));
    *E = {Calls.Enclosing, Calls.Frame, capsule::tapeDetach(), InnerCall, {}};
    InnerCall = GradientCall{};
    Calls.Enclosing = E;
  } else {
    dropAbandonedCalls();
  }
  Calls.Active = true;
  Calls.Frame = Here;
}

/// Puts the enclosing call back, if this one ran inside another.
void leaveCall() {
  EnclosingCall *E = Calls.Enclosing;
  if (!E) {
    Calls.Active = false;
    return;
  }
  std::free(InnerCall.Deferred.Blocks);
  capsule::tapeAttach(E->Records);
  InnerCall = E->Call;
  if (E->Shadows.Bytes) {
    loadShadows(E->Shadows);
    std::free(E->Shadows.Bytes);
  }
  Calls.Frame = E->Frame;
  Calls.Enclosing = E->Next;
  std::free(E);
}

/// The time now if calls are timed, else 0 (no clock read).
double startTime() {
  return capsule::timingOn() ? capsule::monotonicSeconds() : 0;
}

/// Seconds since Start (startTime()) if calls are timed, else 0.
double secondsSince(double Start) {
  return capsule::timingOn() && Start ? capsule::monotonicSeconds() - Start : 0;
}

/// What a thread's first gradient call does once: read the settings, so
/// that a bad value stops the program before any work, and arm the guard.
__thread bool ThreadPrepared;
void prepareThread() {
  if (__builtin_expect(ThreadPrepared, 1))
    return;
  capsule::checkCallSettings();
  capsule::armStackOverflowGuard();
  ThreadPrepared = true;
}

void beginCall(TapeLevel L) {
  prepareThread();
  capsule::tapeReset(L);
  freeDeferredBlocks(callOn(L).Deferred);
  callOn(L).Start = startTime();
  __atomic_store_n(&callOn(L).TeamBytes, 0, __ATOMIC_RELAXED);
}

void deferFree(TapeLevel L, void *Block) {
  DeferredFrees &Deferred = callOn(L).Deferred;
  if (Deferred.Size == Deferred.Capacity) {
    uint64_t Capacity = std::max<uint64_t>(64, 2 * Deferred.Capacity);
    void *Grown = std::realloc(Deferred.Blocks, Capacity * sizeof(void *));
    if (!Grown) {
      // Freeing the block now would let the reverse sweep read freed memory.
      std::fprintf(stderr, "capsule: out of memory postponing free() in a "
                           "gradient call\n");
      std::exit(3);
    }
    Deferred.Blocks = static_cast<void **>(Grown);
    Deferred.Capacity = Capacity;
  }
  Deferred.Blocks[Deferred.Size++] = Block;
}

/// Counts a call that ended; Start is its startTime().
void recordCall(uint64_t PeakBytes, double Start) {
  double Seconds = secondsSince(Start);
  uint64_t Call = Stats.Calls.fetch_add(1, std::memory_order_relaxed) + 1;
  Stats.LastTapeBytes.store(PeakBytes, std::memory_order_relaxed);
  uint64_t Peak = Stats.PeakTapeBytes.load(std::memory_order_relaxed);
  while (Peak < PeakBytes && !Stats.PeakTapeBytes.compare_exchange_weak(
                                 Peak, PeakBytes, std::memory_order_relaxed))
    ;
  if (!capsule::timingOn())
    return;
  {
    capsule::MutexLock Lock(Stats.SecondsMutex);
    Stats.LastSeconds = Seconds;
    Stats.TotalSeconds += Seconds;
  }
  if (capsule::statsEnabled())
    printCall(Call, PeakBytes, Seconds);
}

void endCall(TapeLevel L) {
  GradientCall &Call = callOn(L);
  freeDeferredBlocks(Call.Deferred);
  uint64_t Peak = capsule::tapePeakBytes(L);
  if (uint64_t Team = __atomic_exchange_n(&Call.TeamBytes, 0, __ATOMIC_RELAXED))
    Peak = std::max(Peak, Call.BytesAtForwardDone + Team);
  recordCall(Peak, Call.Start);
}

/// A split-mode gradient call (abi.h): its tape, postponed frees and shadow
/// globals between the halves, and the thread's while one of its halves
/// runs.
struct SplitCall {
  uint64_t Magic; // SplitMagic until the call ends
  const void *Rev;
  capsule_tape_state Records;
  GradientCall Call;
  SavedShadows Shadows;
  uint64_t PeakBytes;
  capsule_tape_state ThreadRecords;
  GradientCall ThreadCall;
  SavedShadows ThreadShadows;
  ActiveCalls ThreadCalls;
};
constexpr uint64_t SplitMagic = 0x6361707375736c74; // "capsuslt"

/// A half runs as a call in progress (ActiveCalls): a gradient a custom
/// rule computes inside it sets the half's tape aside, not the thread's.
void enterHalf(SplitCall &S, uintptr_t Here) {
  S.ThreadCalls = Calls;
  Calls = {true, Here, nullptr};
  S.ThreadRecords = capsule::tapeDetach();
  S.ThreadCall = InnerCall;
  capsule::tapeAttach(S.Records);
  InnerCall = S.Call;
  if (S.Shadows.Bytes) {
    saveShadows(S.ThreadShadows);
    loadShadows(S.Shadows);
  }
}

void leaveHalf(SplitCall &S) {
  Calls = S.ThreadCalls;
  S.Records = capsule::tapeDetach();
  S.Call = InnerCall;
  capsule::tapeAttach(S.ThreadRecords);
  InnerCall = S.ThreadCall;
  if (S.Shadows.Bytes) {
    saveShadows(S.Shadows);
    loadShadows(S.ThreadShadows);
  }
}

[[noreturn]] void failTape(const char *Why) {
  std::fprintf(stderr, "capsule: __enzyme_reverse (__capsule_reverse) got %s\n",
               Why);
  std::exit(3);
}

} // namespace

extern "C" void __capsule_gradient_begin(void) {
  auto Here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  // The usual call, by the shortest path: not the thread's first, none in
  // progress or abandoned (whose postponed frees would wait), and the tape
  // left empty on its bottom chunk by the previous call.
  if (__builtin_expect(ThreadPrepared && !Calls.Active && !Calls.Enclosing &&
                           capsule::tapeRestartInPlace(),
                       1)) {
    Calls.Active = true;
    Calls.Frame = Here;
    InnerCall.Start = startTime();
    return;
  }
  enterCall(Here);
  beginCall(TapeLevel::Inner);
}

extern "C" void __capsule_gradient_keep_globals(const capsule_shadow_global *G,
                                                uint64_t N) {
  EnclosingCall *E = Calls.Enclosing;
  // Only a call inside another, before its binding zeroes them.
  if (!E || E->Shadows.Bytes)
    return;
  E->Shadows = {
      G, N,
      static_cast<char *>(allocateOrExit(shadowBytes(G, N), InsideAnother))};
  saveShadows(E->Shadows);
}

extern "C" void __capsule_gradient_forward_done(void) {
  capsule::tapeRecordPeak(TapeLevel::Inner);
  InnerCall.BytesAtForwardDone = capsule::tapeBytesInUse(TapeLevel::Inner);
}

uint64_t &capsule::gradientTeamTapeBytes() { return InnerCall.TeamBytes; }

extern "C" void __capsule_defer_free(void *Block) {
  deferFree(TapeLevel::Inner, Block);
}

extern "C" void __capsule_gradient_end(void) {
  endCall(TapeLevel::Inner);
  leaveCall();
}

extern "C" void __capsule_outer_gradient_begin(void) {
  capsule::outerTapeCallBegins();
  capsule::clearAdjointPlaceSink();
  beginCall(TapeLevel::Outer);
}

extern "C" void __capsule_outer_gradient_forward_done(void) {
  capsule::tapeRecordPeak(TapeLevel::Outer);
}

extern "C" void __capsule_outer_defer_free(void *Block) {
  deferFree(TapeLevel::Outer, Block);
}

extern "C" void __capsule_outer_gradient_end(void) {
  endCall(TapeLevel::Outer);
  capsule::outerTapeCallEnds();
}

extern "C" void capsule_get_stats(capsule_stats_t *Out) {
  Out->calls = Stats.Calls.load();
  Out->last_tape_bytes = Stats.LastTapeBytes.load();
  Out->peak_tape_bytes = Stats.PeakTapeBytes.load();
  capsule::MutexLock Lock(Stats.SecondsMutex);
  Out->last_seconds = Stats.LastSeconds;
  Out->total_seconds = Stats.TotalSeconds;
}

extern "C" void capsule_reset_stats(void) {
  Stats.Calls.store(0);
  Stats.LastTapeBytes.store(0);
  Stats.PeakTapeBytes.store(0);
  capsule::MutexLock Lock(Stats.SecondsMutex);
  Stats.LastSeconds = Stats.TotalSeconds = 0;
}

extern "C" void *__capsule_split_begin(const void *Rev) {
  prepareThread();
  auto *S =
      static_cast<SplitCall *>(allocateOrExit(sizeof(SplitCall), InSplitMode));
  S->Magic = SplitMagic;
  S->Rev = Rev;
  S->Call.Start = startTime();
  enterHalf(*S, reinterpret_cast<uintptr_t>(__builtin_frame_address(0)));
  return S;
}

extern "C" void __capsule_split_keep_globals(void *Split,
                                             const capsule_shadow_global *G,
                                             uint64_t N) {
  auto *S = static_cast<SplitCall *>(Split);
  uint64_t Bytes = shadowBytes(G, N);
  auto *Both = static_cast<char *>(allocateOrExit(2 * Bytes, InSplitMode));
  S->Shadows = {G, N, Both};
  S->ThreadShadows = {G, N, Both + Bytes};
  // The first half began without them: what the others had is saved now,
  // before the binding zeroes them for this call.
  saveShadows(S->ThreadShadows);
}

extern "C" void *__capsule_split_forward_done(void *Split) {
  auto *S = static_cast<SplitCall *>(Split);
  S->PeakBytes = capsule::tapeBytesInUse();
  leaveHalf(*S);
  return S;
}

extern "C" void __capsule_split_reverse_begin(void *Split, const void *Rev) {
  auto *S = static_cast<SplitCall *>(Split);
  if (!S)
    failTape("a null tape");
  if (S->Magic != SplitMagic)
    failTape("a tape that is not one __enzyme_augmentfwd returned, or one "
             "already reversed");
  if (S->Rev != Rev)
    failTape("the tape of __enzyme_augmentfwd of another function, or of the "
             "same function with other activities");
  enterHalf(*S, reinterpret_cast<uintptr_t>(__builtin_frame_address(0)));
}

extern "C" void __capsule_split_end(void *Split) {
  auto *S = static_cast<SplitCall *>(Split);
  freeDeferredBlocks(InnerCall.Deferred);
  std::free(InnerCall.Deferred.Blocks);
  // The thread's tape back; the split call's chunks are kept for reuse.
  Calls = S->ThreadCalls;
  capsule::tapeAttach(S->ThreadRecords);
  InnerCall = S->ThreadCall;
  if (S->Shadows.Bytes) {
    loadShadows(S->ThreadShadows);
    std::free(S->Shadows.Bytes);
  }
  recordCall(S->PeakBytes, S->Call.Start);
  S->Magic = 0;
  std::free(S);
}

extern "C" void __capsule_split_check_bytes(uint64_t Bytes) {
  if (Bytes < sizeof(void *)) {
    std::fprintf(stderr,
                 "capsule: enzyme_allocated gives %llu bytes for the tape of "
                 "split mode; it needs %zu (__enzyme_augmentsize)\n",
                 static_cast<unsigned long long>(Bytes), sizeof(void *));
    std::exit(3);
  }
}
