//===- Replay.cpp - Results of non-deterministic calls, replayed ----------===//
#include "Replay.h"

#include "Config.h"
#include "Journal.h"
#include "ThreadExit.h"

#include <cstdlib>
#include <cstring>

namespace capsule {
namespace {

/// Results and written bytes, each padded to 8 bytes, in call order.
struct ReplayLog {
  char *Data = nullptr;
  uint64_t Size = 0;
  uint64_t Capacity = 0;
  /// Where the next replayed call's entry is (journaled).
  uint64_t Cursor = 0;
  bool CleanupRegistered = false;
};

__thread ReplayLog Log;

void freeLog(void *) {
  std::free(Log.Data);
  Log = ReplayLog();
}

uint64_t padded(uint64_t Bytes) { return (Bytes + 7) & ~uint64_t(7); }

void append(const void *Src, uint64_t Bytes) {
  ReplayLog &L = Log;
  if (!L.CleanupRegistered) {
    runAtThreadExit<freeLog>(&L);
    L.CleanupRegistered = true;
  }
  uint64_t Need = L.Size + padded(Bytes);
  if (Need > L.Capacity) {
    uint64_t Capacity = L.Capacity ? 2 * L.Capacity : 4096;
    while (Capacity < Need)
      Capacity *= 2;
    char *Data = static_cast<char *>(std::realloc(L.Data, Capacity));
    if (!Data)
      failInternal("out of memory growing the replay log to %llu bytes",
                   static_cast<unsigned long long>(Capacity));
    L.Data = Data;
    L.Capacity = Capacity;
  }
  std::memcpy(L.Data + L.Size, Src, Bytes);
  L.Size = Need;
}

/// Moves the cursor past an entry of \p Bytes; the journal keeps the old
/// cursor for the capsules that may roll back to it.
const char *advance(uint64_t Bytes) {
  ReplayLog &L = Log;
  if (L.Cursor + padded(Bytes) > L.Size)
    failInternal("a replayed call reads past the end of the replay log");
  const char *Entry = L.Data + L.Cursor;
  journalWrite(&L.Cursor, sizeof L.Cursor);
  L.Cursor += padded(Bytes);
  return Entry;
}

} // namespace

void replayStartComputation(bool CapsulesLive) {
  ReplayLog &L = Log;
  if (!CapsulesLive)
    L.Size = 0;
  journalWrite(&L.Cursor, sizeof L.Cursor);
  L.Cursor = L.Size;
}

} // namespace capsule

using namespace capsule;

extern "C" uint8_t __capsule_replay_pending(void) {
  return Log.Cursor < Log.Size;
}

namespace {
template <typename T> T take() {
  T Value;
  std::memcpy(&Value, advance(sizeof Value), sizeof Value);
  return Value;
}
template <typename T> void record(T Value) {
  append(&Value, sizeof Value);
  journalWrite(&Log.Cursor, sizeof Log.Cursor);
  Log.Cursor = Log.Size;
}
} // namespace

extern "C" uint64_t __capsule_replay_take(void) { return take<uint64_t>(); }
extern "C" double __capsule_replay_take_f64(void) { return take<double>(); }
extern "C" float __capsule_replay_take_f32(void) { return take<float>(); }

extern "C" void __capsule_replay_take_bytes(void *Dst, uint64_t Bytes) {
  if (!Dst)
    return;
  const char *Entry = advance(Bytes);
  journalWrite(Dst, Bytes);
  std::memcpy(Dst, Entry, Bytes);
}

extern "C" void __capsule_replay_will_write(void *Dst, uint64_t Bytes) {
  if (Dst)
    journalWrite(Dst, Bytes);
}

extern "C" void __capsule_replay_record(uint64_t Bits) { record(Bits); }
extern "C" void __capsule_replay_record_f64(double Value) { record(Value); }
extern "C" void __capsule_replay_record_f32(float Value) { record(Value); }

extern "C" void __capsule_replay_record_bytes(const void *Src, uint64_t Bytes) {
  if (!Src)
    return;
  append(Src, Bytes);
  journalWrite(&Log.Cursor, sizeof Log.Cursor);
  Log.Cursor = Log.Size;
}
