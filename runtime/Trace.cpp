//===- Trace.cpp - A trace of what the checkpointing driver did -----------===//
#include "Trace.h"
#include "Config.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>

namespace capsule {
namespace {

const char *const Variable = "CAPSULE_TRACE";

pthread_once_t OpenOnce = PTHREAD_ONCE_INIT;
// Null when no trace was asked for. Set once, before any call is traced.
std::FILE *File;
// For messages; a copy, since the environment may change meanwhile.
char Path[4096];

// Held by the thread whose call is being traced, from beginTrace to
// endTrace, so the state below belongs to one call at a time.
pthread_mutex_t CallMutex = PTHREAD_MUTEX_INITIALIZER;
// The ids of the call's live capsules, oldest first (they are released in
// the reverse order).
uint64_t *LiveIds;
uint64_t LiveCount, LiveCapacity;
uint64_t NextId;

void openTrace() {
  const char *Value = std::getenv(Variable);
  if (!Value)
    return;
  // Unlike the other settings, an empty value does not switch the trace
  // off: it is most likely a script's unset variable, and the trace asked
  // for would be lost without a word.
  if (!*Value)
    failSetting(Variable, Value,
                "the path of a file to write the checkpoint schedule to");
  File = std::fopen(Value, "w");
  if (!File) {
    std::fprintf(stderr, "capsule: cannot open the %s file '%s': %s\n",
                 Variable, Value, std::strerror(errno));
    std::exit(2);
  }
  std::snprintf(Path, sizeof(Path), "%s", Value);
}

// One record: Kind, then A, then B unless Kind is release.
struct Record {
  const char *Kind;
  uint64_t A, B;
};

// The call's records before its header: the header needs n, which the
// online schedule learns only at the end of its first run.
Record *Pending;
uint64_t PendingCount, PendingCapacity;
bool HeaderWritten;

void write(const Record &R) {
  if (std::strcmp(R.Kind, "release") == 0)
    std::fprintf(File, "release %llu\n", static_cast<unsigned long long>(R.A));
  else
    std::fprintf(File, "%s %llu %llu\n", R.Kind,
                 static_cast<unsigned long long>(R.A),
                 static_cast<unsigned long long>(R.B));
}

// Appends Value to the array Items (Count of Capacity, which doubles),
// stopping the program when memory runs out.
template <typename T>
void append(T *&Items, uint64_t &Count, uint64_t &Capacity, const T &Value) {
  if (Count == Capacity) {
    Capacity = Capacity ? 2 * Capacity : 64;
    Items = static_cast<T *>(std::realloc(Items, Capacity * sizeof(T)));
    if (!Items) {
      std::fputs("capsule: out of memory for the CAPSULE_TRACE file's "
                 "records\n",
                 stderr);
      std::exit(3);
    }
  }
  Items[Count++] = Value;
}

void record(const char *Kind, uint64_t A, uint64_t B) {
  if (!File)
    return;
  if (HeaderWritten)
    write({Kind, A, B});
  else
    append(Pending, PendingCount, PendingCapacity, Record{Kind, A, B});
}

} // namespace

void beginTrace() {
  pthread_once(&OpenOnce, openTrace);
  if (!File)
    return;
  pthread_mutex_lock(&CallMutex);
  LiveCount = 0;
  NextId = 0;
  PendingCount = 0;
  HeaderWritten = false;
}

void traceSchedule(const char *Root, uint64_t N, bool LoopIterations,
                   const char *Strategy, const char *Split,
                   const ScheduleParams &Params) {
  if (!File)
    return;
  std::fprintf(File,
               "gradient n=%llu unit=%s strategy=%s split=%s d=%llu t=%llu "
               "alpha=%llu root=%s\n",
               static_cast<unsigned long long>(N),
               LoopIterations ? "iterations" : "steps", Strategy, Split,
               static_cast<unsigned long long>(Params.Snapshots),
               static_cast<unsigned long long>(Params.Reps),
               static_cast<unsigned long long>(Params.LeafSteps), Root);
  HeaderWritten = true;
  for (uint64_t I = 0; I != PendingCount; ++I)
    write(Pending[I]);
  PendingCount = 0;
}

void tracePrimal(uint64_t From, uint64_t To) { record("primal", From, To); }

void traceProbe(uint64_t Steps) { record("probe", 0, Steps); }

void traceForward(uint64_t From, uint64_t To) { record("forward", From, To); }

void traceReverse(uint64_t From, uint64_t To) { record("reverse", From, To); }

void traceSnapshot(uint64_t Step) {
  if (!File)
    return;
  append(LiveIds, LiveCount, LiveCapacity, NextId);
  record("snapshot", NextId++, Step);
}

void traceRelease(uint64_t Newer) {
  if (!File)
    return;
  uint64_t *Gone = LiveIds + LiveCount - 1 - Newer;
  record("release", *Gone, 0);
  std::memmove(Gone, Gone + 1, Newer * sizeof(uint64_t));
  --LiveCount;
}

void endTrace() {
  if (!File)
    return;
  std::fputs("end\n", File);
  if (std::fflush(File) != 0 || std::ferror(File)) {
    std::fprintf(stderr, "capsule: cannot write the %s file '%s': %s\n",
                 Variable, Path, std::strerror(errno));
    std::exit(2);
  }
  pthread_mutex_unlock(&CallMutex);
}

} // namespace capsule
