//===- Journal.h - Copy-on-first-write journal of snapshots ---------------===//
//
// The journal lets interruptible execution roll memory back to a snapshot.
// While a snapshot is live, every store of instrumented code first saves the
// old contents of the memory it overwrites (abi.h: __capsule_journal_write),
// but only the first time since the newest snapshot: memory is saved in
// 8-byte aligned granules, and each snapshot's segment of the journal keeps
// a hash set of the granules it saved.
//
// Snapshots form a stack. Rolling back the newest one writes its saved
// granules back, which restores all memory to its state when that snapshot
// was taken; the snapshot stays live, so it can be rolled back again after
// more stores. Releasing the newest snapshot hands its saved granules to the
// snapshot below, which keeps its own older value where it saved the granule
// too, so rolling that one back still restores its own point in time.
//
// A Journal is plain data with a constant initializer, so each thread has
// one in __thread storage (threadJournal()); unit tests make their own.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_JOURNAL_H
#define CAPSULE_RUNTIME_JOURNAL_H

#include "abi.h"
#include "capsule/capsule.h"

#include <cstdint>

namespace capsule {

/// Bytes saved and restored as one unit; granules are aligned to their size.
constexpr uint64_t GranuleBytes = 8;

/// One saved granule: its address and the 8 bytes it held.
struct JournalEntry {
  uintptr_t Granule;
  uint64_t Old;
};

/// The most memory one saved granule costs: its entry in an array that
/// doubles when full, and its slot in a hash set kept at most half full
/// (which doubles when it would not be).
constexpr uint64_t MaxBytesPerSavedGranule =
    2 * sizeof(JournalEntry) + 4 * sizeof(uintptr_t);

/// An open-addressing hash set of granule addresses (0 marks an empty slot;
/// no granule lives at address 0). Linear probing, at most half full.
struct GranuleSet {
  uintptr_t *Slots = nullptr;
  uint64_t Mask = 0;  // capacity - 1 (capacity is a power of two)
  uint64_t Count = 0; // granules in the set
  unsigned Shift = 0; // 64 - log2(capacity), for Fibonacci hashing
};

/// Adds \p Granule to \p S; false if it was there already.
bool insertGranule(GranuleSet &S, uintptr_t Granule);
/// Empties \p S, keeping its table; frees its table.
void clearGranules(GranuleSet &S);
void freeGranules(GranuleSet &S);

/// The part of the journal one snapshot owns: the entries from Begin to the
/// next segment's Begin (or the end), and the set of their granules.
struct JournalSegment {
  uint64_t Begin = 0;
  GranuleSet Saved;
};

class Journal {
public:
  constexpr Journal() = default;
  Journal(const Journal &) = delete;
  Journal &operator=(const Journal &) = delete;

  /// Saves the old contents of every granule covering [Addr, Addr + Bytes)
  /// that the newest snapshot has not saved yet. Does nothing when no
  /// snapshot is live.
  void write(const void *Addr, uint64_t Bytes);

  /// Takes a snapshot of all memory as it is now: a new, empty segment.
  void pushSnapshot();

  /// Restores every granule the newest snapshot saved, so memory is as it
  /// was when that snapshot was taken, and empties its segment. The snapshot
  /// stays live.
  void rollbackTop();

  /// Removes the newest snapshot. Its saved granules move to the snapshot
  /// below (except those the snapshot below already saved: its older value
  /// wins); with none below, they are dropped. Memory is left as it is.
  void releaseTop();

  /// Removes live snapshot Level (0 the oldest), newest or not, as
  /// releaseTop() removes the newest: its saved granules move to the
  /// snapshot below it unless that one saved them too, and memory is left
  /// as it is. The snapshots above it keep their points in time and move
  /// one level down. Costs a move of the newer snapshots' entries.
  void release(uint32_t Level);

  /// Number of live snapshots.
  uint32_t depth() const { return Depth; }

  /// Changes whenever what the newest snapshot has saved may shrink (a new
  /// snapshot, a rollback, a release), to a value no journal had before: a
  /// cache of saved granules tagged with it is valid while it stays the
  /// same.
  uint64_t generation() const { return Generation; }

  /// Payload bytes (GranuleBytes per saved granule) of the segment of live
  /// snapshot Level, 0 being the oldest.
  uint64_t segmentBytes(uint32_t Level) const;
  /// Payload bytes of the newest snapshot's segment, 0 with none live.
  uint64_t topBytes() const { return Depth ? segmentBytes(Depth - 1) : 0; }
  /// Payload bytes of all live snapshots.
  uint64_t totalBytes() const { return Size * GranuleBytes; }
  /// The largest totalBytes() so far (since resetPeak()).
  uint64_t peakBytes() const { return Peak; }
  void resetPeak() { Peak = totalBytes(); }

  /// Drops all snapshots without restoring anything and frees all memory.
  void freeAll();

  /// Makes the journal keep *Target equal to its depth (the thread journal
  /// mirrors __capsule_journal_depth, which generated code tests).
  void mirrorDepth(uint32_t *Target) {
    DepthMirror = Target;
    *Target = Depth;
  }
  bool mirrorsDepth() const { return DepthMirror != nullptr; }

  /// Makes the journal keep Slots (SlotCount of them, a power of two) a
  /// direct-mapped cache of the granules the newest snapshot saved: slot
  /// (g >> 3) & (SlotCount - 1) holds g, or anything else when g is not
  /// known to be saved (the thread journal keeps __capsule_journal_filter,
  /// which generated code tests before calling __capsule_journal_write).
  void cacheSavedGranules(uintptr_t *Slots, uint64_t SlotCount);

private:
  void saveGranules(uintptr_t First, uintptr_t Last);
  void append(uintptr_t Granule);
  void growEntries();
  void setDepth(uint32_t NewDepth);
  bool inSavedRange(uintptr_t First, uintptr_t Last) const;
  // Forgets which granules the newest segment saved, for the caches above
  // and the filter, when that segment changes.
  void forgetCachedGranules();

  JournalEntry *Entries = nullptr;
  uint64_t Size = 0;
  uint64_t Capacity = 0;
  // Segments[0, Depth) belong to live snapshots; the slots above keep their
  // (empty) hash tables for the next snapshots.
  JournalSegment *Segments = nullptr;
  uint32_t Depth = 0;
  uint32_t SegmentCapacity = 0;
  uint64_t Peak = 0;
  // The granule found or saved last in the newest segment (0: none): stores
  // to the same variable in a row skip the hash lookup.
  uintptr_t LastGranule = 0;
  uint64_t Generation = 0;
  // The last few writes of several granules the newest segment saved, by
  // first and last granule: code that saves a whole array before a loop
  // over it, time step after time step, skips the granule-by-granule work.
  struct SavedRange {
    uintptr_t First = 0, Last = 0;
  };
  static constexpr unsigned SavedRangeCount = 4;
  SavedRange Ranges[SavedRangeCount] = {};
  unsigned NextRange = 0;
  uint32_t *DepthMirror = nullptr;
  uintptr_t *Filter = nullptr;
  uint64_t FilterMask = 0;
};

/// This thread's journal, the one __capsule_journal_write saves into. Its
/// depth is mirrored in __capsule_journal_depth; its memory is freed when the
/// thread exits.
Journal &threadJournal();

/// During a run, the driver's frame: the machine stack below it belongs to
/// the run's own frames, which __capsule_journal_write does not journal.
/// Null outside runs.
extern __thread char *RunStackTop;

/// The team of a parallel region this thread runs its share of, if any
/// (JournalTeams.cpp), and how its threads' stores are journaled: in the
/// journal of the thread that forked it.
struct Team;
extern __thread Team *CurrentTeam;
void teamJournalWrite(Team &T, void *Addr, uint64_t Bytes);

/// What generated code does before a store: journal it if a snapshot is
/// live. The allocator uses it for its own metadata.
inline void journalWrite(const void *Addr, uint64_t Bytes) {
  if (__capsule_journal_depth)
    __capsule_journal_write(const_cast<void *>(Addr), Bytes);
}

} // namespace capsule

#endif // CAPSULE_RUNTIME_JOURNAL_H
