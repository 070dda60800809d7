//===- Journal.cpp - Copy-on-first-write journal of snapshots -------------===//
//
// The entries of all live snapshots sit in one growable array, oldest
// snapshot first; each segment owns a hash set of the granules it saved. The
// hot path is a store to a granule the newest segment already saved: a hash
// lookup (or a hit on the last granule) and no allocation.
//===----------------------------------------------------------------------===//
#include "Journal.h"
#include "ScratchShadows.h"
#include "ThreadExit.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>

__thread uint32_t __capsule_journal_depth
    __attribute__((tls_model("initial-exec")));
__thread uintptr_t __capsule_journal_filter[CAPSULE_JOURNAL_FILTER_SLOTS]
    __attribute__((tls_model("initial-exec")));

namespace capsule {
namespace {

constexpr unsigned MinSetLog2 = 6; // 64 slots, 512 bytes
// Tables larger than this are freed when their snapshot is released instead
// of being kept for the next snapshot.
constexpr uint64_t MaxKeptSetSlots = uint64_t(1) << 16;

[[noreturn]] void failAllocation(uint64_t Bytes) {
  std::fprintf(stderr,
               "capsule: out of memory allocating %llu bytes of journal for "
               "live capsules; release capsules that are no longer needed\n",
               static_cast<unsigned long long>(Bytes));
  std::exit(3);
}

void *reallocate(void *Old, uint64_t Bytes) {
  void *P = std::realloc(Old, Bytes);
  if (!P)
    failAllocation(Bytes);
  return P;
}

// The eight granules of a 64-byte line of memory share a 64-byte line of
// slots, so a run of stores to neighbouring memory touches one slot line per
// eight granules; the lines are spread by Fibonacci hashing (the top bits of
// the product). Tables have at least 64 slots, so Shift + 3 < 64.
inline uint64_t slotOf(const GranuleSet &S, uintptr_t Granule) {
  uint64_t Line =
      (uint64_t(Granule >> 6) * 0x9E3779B97F4A7C15ull) >> (S.Shift + 3);
  return Line << 3 | ((Granule >> 3) & 7);
}

void initSet(GranuleSet &S, unsigned Log2) {
  uint64_t Slots = uint64_t(1) << Log2;
  S.Slots = static_cast<uintptr_t *>(std::calloc(Slots, sizeof(uintptr_t)));
  if (!S.Slots)
    failAllocation(Slots * sizeof(uintptr_t));
  S.Mask = Slots - 1;
  S.Count = 0;
  S.Shift = 64 - Log2;
}

// Places Granule, known to be absent, without growing.
void place(GranuleSet &S, uintptr_t Granule) {
  uint64_t I = slotOf(S, Granule);
  while (S.Slots[I])
    I = (I + 1) & S.Mask;
  S.Slots[I] = Granule;
  ++S.Count;
}

__attribute__((noinline)) void growSet(GranuleSet &S) {
  GranuleSet Old = S;
  initSet(S, 64 - Old.Shift + 1);
  for (uint64_t I = 0; I <= Old.Mask; ++I)
    if (Old.Slots[I])
      place(S, Old.Slots[I]);
  std::free(Old.Slots);
}

/// The last generation a journal took (Journal::generation).
std::atomic<uint64_t> Generations{0};

__thread Journal ThisThread;
__thread bool CleanupRegistered;

// Runs at thread exit with the exiting thread's TLS still in place.
void freeThreadJournal(void *) {
  ThisThread.freeAll();
  // A later key destructor may use the journal again and must register anew.
  CleanupRegistered = false;
}

} // namespace

void freeGranules(GranuleSet &S) {
  std::free(S.Slots);
  S = GranuleSet();
}

void clearGranules(GranuleSet &S) {
  if (S.Count)
    std::memset(S.Slots, 0, (S.Mask + 1) * sizeof(uintptr_t));
  S.Count = 0;
}

bool insertGranule(GranuleSet &S, uintptr_t Granule) {
  if (__builtin_expect(!S.Slots, 0))
    initSet(S, MinSetLog2);
  uint64_t I = slotOf(S, Granule);
  for (;;) {
    uintptr_t Slot = S.Slots[I];
    if (Slot == Granule)
      return false;
    if (!Slot)
      break;
    I = (I + 1) & S.Mask;
  }
  S.Slots[I] = Granule;
  if (++S.Count * 2 > S.Mask + 1)
    growSet(S);
  return true;
}

void Journal::write(const void *Addr, uint64_t Bytes) {
  if (!Depth || !Bytes)
    return;
  uintptr_t First = reinterpret_cast<uintptr_t>(Addr) & ~(GranuleBytes - 1);
  uintptr_t Last =
      (reinterpret_cast<uintptr_t>(Addr) + Bytes - 1) & ~(GranuleBytes - 1);
  if (First == Last ? First == LastGranule : inSavedRange(First, Last))
    return;
  saveGranules(First, Last);
  if (First == Last)
    LastGranule = Last;
  else
    Ranges[NextRange++ % SavedRangeCount] = {First, Last};
}

bool Journal::inSavedRange(uintptr_t First, uintptr_t Last) const {
  for (const SavedRange &R : Ranges)
    if (R.First <= First && Last <= R.Last)
      return true;
  return false;
}

void Journal::saveGranules(uintptr_t First, uintptr_t Last) {
  GranuleSet &Saved = Segments[Depth - 1].Saved;
  for (uintptr_t Granule = First;; Granule += GranuleBytes) {
    uintptr_t *Cached = Filter ? &Filter[(Granule >> 3) & FilterMask] : nullptr;
    if (!Cached || *Cached != Granule) {
      if (insertGranule(Saved, Granule))
        append(Granule);
      if (Cached)
        *Cached = Granule;
    }
    if (Granule == Last)
      break;
  }
}

void Journal::cacheSavedGranules(uintptr_t *Slots, uint64_t SlotCount) {
  Filter = Slots;
  FilterMask = SlotCount - 1;
  forgetCachedGranules();
}

// No granule lives at address 0, so zeroes cache nothing.
void Journal::forgetCachedGranules() {
  // Unique across journals: a thread's knowledge of another's journal
  // (JournalTeams.cpp) cannot match a later journal at the same address.
  Generation = Generations.fetch_add(1, std::memory_order_relaxed) + 1;
  LastGranule = 0;
  for (SavedRange &R : Ranges)
    R = SavedRange();
  if (Filter)
    std::memset(Filter, 0, (FilterMask + 1) * sizeof(uintptr_t));
}

void Journal::append(uintptr_t Granule) {
  if (__builtin_expect(Size == Capacity, 0))
    growEntries();
  JournalEntry &E = Entries[Size++];
  E.Granule = Granule;
  std::memcpy(&E.Old, reinterpret_cast<const void *>(Granule), GranuleBytes);
  if (Size * GranuleBytes > Peak)
    Peak = Size * GranuleBytes;
}

void Journal::growEntries() {
  uint64_t NewCapacity = Capacity ? 2 * Capacity : 1024;
  Entries = static_cast<JournalEntry *>(
      reallocate(Entries, NewCapacity * sizeof(JournalEntry)));
  Capacity = NewCapacity;
}

void Journal::setDepth(uint32_t NewDepth) {
  Depth = NewDepth;
  forgetCachedGranules();
  if (DepthMirror)
    *DepthMirror = NewDepth;
}

void Journal::pushSnapshot() {
  if (Depth == SegmentCapacity) {
    uint32_t NewCapacity = SegmentCapacity ? 2 * SegmentCapacity : 16;
    Segments = static_cast<JournalSegment *>(
        reallocate(Segments, NewCapacity * sizeof(JournalSegment)));
    for (uint32_t I = SegmentCapacity; I != NewCapacity; ++I)
      Segments[I] = JournalSegment();
    SegmentCapacity = NewCapacity;
  }
  Segments[Depth].Begin = Size;
  setDepth(Depth + 1);
}

void Journal::rollbackTop() {
  if (!Depth)
    return;
  JournalSegment &Top = Segments[Depth - 1];
  // Each granule appears once in a segment, so the order does not matter.
  for (uint64_t I = Top.Begin; I != Size; ++I)
    std::memcpy(reinterpret_cast<void *>(Entries[I].Granule), &Entries[I].Old,
                GranuleBytes);
  Size = Top.Begin;
  clearGranules(Top.Saved);
  forgetCachedGranules();
}

void Journal::releaseTop() {
  if (Depth)
    release(Depth - 1);
}

void Journal::release(uint32_t Level) {
  if (Level >= Depth)
    return;
  JournalSegment Gone = Segments[Level];
  uint64_t End = Level + 1 < Depth ? Segments[Level + 1].Begin : Size;
  // Keep, in place, the entries whose granule the snapshot below has not
  // saved: it had not written them, so their value at this snapshot's time
  // is also the value at its own. With none below, they are dropped.
  uint64_t Kept = Gone.Begin;
  if (Level != 0) {
    GranuleSet &Below = Segments[Level - 1].Saved;
    for (uint64_t I = Gone.Begin; I != End; ++I)
      if (insertGranule(Below, Entries[I].Granule))
        Entries[Kept++] = Entries[I];
  }
  // The newer snapshots' entries move down over the dropped ones.
  uint64_t Dropped = End - Kept;
  std::memmove(Entries + Kept, Entries + End,
               (Size - End) * sizeof(JournalEntry));
  Size -= Dropped;
  for (uint32_t L = Level; L + 1 != Depth; ++L) {
    Segments[L] = Segments[L + 1];
    Segments[L].Begin -= Dropped;
  }
  // The slot above the live ones keeps the released table for reuse.
  if (Gone.Saved.Mask + 1 > MaxKeptSetSlots)
    freeGranules(Gone.Saved);
  else
    clearGranules(Gone.Saved);
  Segments[Depth - 1] = {0, Gone.Saved};
  setDepth(Depth - 1);
}

uint64_t Journal::segmentBytes(uint32_t Level) const {
  if (Level >= Depth)
    return 0;
  uint64_t End = Level + 1 < Depth ? Segments[Level + 1].Begin : Size;
  return (End - Segments[Level].Begin) * GranuleBytes;
}

void Journal::freeAll() {
  for (uint32_t I = 0; I != SegmentCapacity; ++I)
    freeGranules(Segments[I].Saved);
  std::free(Segments);
  std::free(Entries);
  Segments = nullptr;
  Entries = nullptr;
  Size = Capacity = Peak = 0;
  SegmentCapacity = 0;
  setDepth(0);
}

Journal &threadJournal() {
  Journal &J = ThisThread;
  if (__builtin_expect(!CleanupRegistered, 0)) {
    J.mirrorDepth(&__capsule_journal_depth);
    J.cacheSavedGranules(__capsule_journal_filter,
                         CAPSULE_JOURNAL_FILTER_SLOTS);
    runAtThreadExit<freeThreadJournal>(&J);
    CleanupRegistered = true;
  }
  return J;
}

__thread char *RunStackTop;

} // namespace capsule

extern "C" void __capsule_journal_write(void *Addr, uint64_t Bytes) {
  // The machine stack between here and the driver holds only frames that a
  // yield or the end of the run returns through (a bounded leaf's byval
  // copies and stack slots, whose addresses leaves pass to leaves): nothing
  // there outlives the run, and restoring it later would write over
  // whatever frames then occupy that stack.
  char *At = static_cast<char *>(Addr);
  if (At < capsule::RunStackTop &&
      At >= static_cast<char *>(__builtin_frame_address(0)))
    return;
  // Nor do the shadows of such slots in checkpointed code.
  if (capsule::inScratchShadows(At))
    return;
  if (capsule::Team *T = capsule::CurrentTeam)
    return capsule::teamJournalWrite(*T, Addr, Bytes);
  // Generated code calls this only with a live snapshot, so the thread
  // journal is already set up.
  capsule::ThisThread.write(Addr, Bytes);
}
