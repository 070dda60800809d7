//===- Interrupt.cpp - Driver of interruptible execution ------------------===//
//
// Runs the step functions the pass generates for a root (abi.h) and keeps
// the capsules of this thread. A capsule is a snapshot of the journal plus
// the steps done when it was taken: resuming it rolls memory back to that
// snapshot, where the root's frame holds the point at which it yielded, and
// runs the root's step function again on the same frame.
//
// The capsules of a thread form a stack matching the journal's snapshots
// (the newest capsule owns the newest snapshot), so only the newest live
// capsule may be resumed or released. Misuse of the API stops the program
// with a message naming the function and exit status 4; an impossible state
// (a bug in the pass or the runtime) is an internal error and aborts.
//
// Capsule structs come from the C library's malloc and are not journaled. A
// released one is kept, marked dead, in a small FIFO quarantine before it is
// really freed, so that recent use of a released capsule is reported as such.
//===----------------------------------------------------------------------===//
#include "Capsules.h"
#include "Config.h"
#include "FrameStack.h"
#include "Journal.h"
#include "Replay.h"
#include "StackGuard.h"
#include "ThreadExit.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>

// Code reached outside a run (the budget is only meaningful inside one)
// never yields.
__thread int64_t __capsule_budget __attribute__((tls_model("initial-exec"))) =
    INT64_MAX;

namespace capsule {

struct ThreadDriver;

bool runStepFunction(const void *Entry, void *Frame) {
  return (static_cast<const capsule_entry *>(Entry)->step(Frame) & 1) != 0;
}

struct Capsule {
  uint64_t Magic;
  const capsule_entry *Entry;
  void *Frame;
  uint64_t Steps;      // steps from the root's start to this capsule
  uint32_t Depth;      // journal depth of its snapshot (1 for the oldest)
  Capsule *Below;      // the next older live capsule of the thread
  ThreadDriver *Owner; // the thread that made it
};

struct ThreadDriver {
  Capsule *Newest;
  uint64_t Live;
  uint64_t LastRunSteps;
  const capsule_entry *Running; // the root being run, or null
  Capsule **Quarantine;         // QuarantineSize slots, or null
  unsigned QuarantineNext;
  bool CleanupRegistered;
};

namespace {

/// Exit status of a program that misused the interruption API.
constexpr int MisuseExitStatus = 4;

constexpr uint64_t LiveMagic = 0x43415053554c4956ull; // "CAPSULIV"
constexpr uint64_t DeadMagic = 0x43415053554c4444ull; // "CAPSULDD"
constexpr unsigned QuarantineSize = 1024;

__thread ThreadDriver ThisThread;

// Runs at thread exit with the exiting thread's TLS still in place. The
// thread's capsules die with it.
void freeThreadDriver(void *) {
  ThreadDriver &D = ThisThread;
  while (Capsule *C = D.Newest) {
    D.Newest = C->Below;
    C->Magic = DeadMagic;
    std::free(C);
  }
  D.Live = 0;
  if (D.Quarantine)
    for (unsigned I = 0; I != QuarantineSize; ++I)
      std::free(D.Quarantine[I]);
  std::free(D.Quarantine);
  D.Quarantine = nullptr;
  D.QuarantineNext = 0;
  D.CleanupRegistered = false;
}

ThreadDriver &driver() {
  ThreadDriver &D = ThisThread;
  if (__builtin_expect(!D.CleanupRegistered, 0)) {
    runAtThreadExit<freeThreadDriver>(&D);
    D.CleanupRegistered = true;
  }
  return D;
}

const char *rootName(const capsule_entry *Entry) {
  return Entry && Entry->name ? Entry->name : "?";
}

[[noreturn]] __attribute__((format(printf, 2, 3))) void
failMisuse(const char *Function, const char *Format, ...) {
  std::fprintf(stderr, "capsule: error: %s: ", Function);
  va_list Args;
  va_start(Args, Format);
  std::vfprintf(stderr, Format, Args);
  va_end(Args);
  std::fputc('\n', stderr);
  std::exit(MisuseExitStatus);
}

void checkNotRunning(const ThreadDriver &D, const char *Function) {
  if (D.Running)
    failMisuse(Function,
               "called while the interruptible computation of %s is running "
               "on this thread; interruptible computations do not nest (if "
               "an exception escaped that computation: exceptions may not "
               "leave interruptible or checkpointed code)",
               rootName(D.Running));
}

// The live capsule behind Handle, or a stop naming Function.
Capsule *checkLive(const ThreadDriver &D, const capsule_t *Handle,
                   const char *Function) {
  if (!Handle)
    failMisuse(Function, "the capsule is NULL (__capsule_interrupt and "
                         "capsule_resume_for return NULL when the "
                         "computation ends)");
  auto *C = reinterpret_cast<Capsule *>(const_cast<capsule_t *>(Handle));
  if (C->Magic == DeadMagic)
    failMisuse(Function, "capsule %p (of %s) was already released",
               static_cast<void *>(C), rootName(C->Entry));
  if (C->Magic != LiveMagic)
    failMisuse(Function,
               "%p is not a live capsule (released long ago, or not a "
               "capsule at all)",
               static_cast<void *>(C));
  if (C->Owner != &D)
    failMisuse(Function,
               "capsule %p (of %s) was made by another thread; capsules "
               "belong to the thread that made them",
               static_cast<void *>(C), rootName(C->Entry));
  return C;
}

// The newest live capsule, Handle, or a stop: only the newest can be
// Verb ("resumed", "released").
Capsule *checkNewest(const ThreadDriver &D, const capsule_t *Handle,
                     const char *Function, const char *Verb) {
  Capsule *C = checkLive(D, Handle, Function);
  if (C != D.Newest) {
    unsigned long long Newer = D.Newest->Depth - C->Depth;
    failMisuse(Function,
               "capsule %p (of %s, %llu steps) is not the newest live "
               "capsule; %p (of %s, %llu steps) is, and only the newest can "
               "be %s: release the %llu newer capsule%s first (capsules are "
               "released in the reverse order of their creation)",
               static_cast<void *>(C), rootName(C->Entry),
               static_cast<unsigned long long>(C->Steps),
               static_cast<void *>(D.Newest), rootName(D.Newest->Entry),
               static_cast<unsigned long long>(D.Newest->Steps), Verb, Newer,
               Newer == 1 ? "" : "s");
  }
  if (threadJournal().depth() != C->Depth)
    failInternal("capsule %p has journal depth %u but the journal holds %u "
                 "snapshots",
                 static_cast<void *>(C), C->Depth, threadJournal().depth());
  return C;
}

int64_t budgetFor(uint64_t Limit) {
  return Limit > uint64_t(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(Limit);
}

// Runs Entry's computation on Frame with Budget steps: its step function,
// or Runner(Context, Frame) when given. Returns whether it yielded; Done is
// set to the steps it took.
bool run(ThreadDriver &D, const capsule_entry *Entry, void *Frame,
         int64_t Budget, uint64_t &Done, StepRunner Runner = runStepFunction,
         const void *Context = nullptr) {
  D.Running = Entry;
  __capsule_budget = Budget;
  RunStackTop = static_cast<char *>(__builtin_frame_address(0));
  bool Yielded = Runner(Context ? Context : Entry, Frame);
  RunStackTop = nullptr;
  int64_t Left = __capsule_budget;
  D.Running = nullptr;
  // Unsigned, so a budget overdrawn past INT64_MIN still counts right.
  Done = static_cast<uint64_t>(Budget) - static_cast<uint64_t>(Left);
  if (Yielded && Left > 0)
    failInternal("the step function of %s yielded with %lld steps of budget "
                 "left",
                 rootName(Entry), static_cast<long long>(Left));
  return Yielded;
}

// Runs Entry's step function to its end.
uint64_t runToEnd(ThreadDriver &D, const capsule_entry *Entry, void *Frame) {
  uint64_t Done;
  if (run(D, Entry, Frame, INT64_MAX, Done))
    failInternal("the step function of %s yielded although its budget was "
                 "unlimited",
                 rootName(Entry));
  return Done;
}

// A new capsule for a run of Entry that yielded after Steps steps from its
// start: a snapshot of memory as the run left it.
capsule_t *capture(ThreadDriver &D, const capsule_entry *Entry, void *Frame,
                   uint64_t Steps) {
  auto *C = static_cast<Capsule *>(std::malloc(sizeof(Capsule)));
  if (!C) {
    std::fprintf(stderr, "capsule: out of memory allocating a capsule\n");
    std::exit(3);
  }
  Journal &J = threadJournal();
  J.pushSnapshot();
  C->Magic = LiveMagic;
  C->Entry = Entry;
  C->Frame = Frame;
  C->Steps = Steps;
  C->Depth = J.depth();
  C->Below = D.Newest;
  C->Owner = &D;
  D.Newest = C;
  ++D.Live;
  return reinterpret_cast<capsule_t *>(C);
}

void quarantine(ThreadDriver &D, Capsule *C) {
  C->Magic = DeadMagic;
  if (!D.Quarantine) {
    D.Quarantine =
        static_cast<Capsule **>(std::calloc(QuarantineSize, sizeof(Capsule *)));
    if (!D.Quarantine) {
      std::free(C);
      return;
    }
  }
  Capsule *&Slot = D.Quarantine[D.QuarantineNext];
  std::free(Slot); // the oldest released capsule, if the quarantine is full
  Slot = C;
  D.QuarantineNext = (D.QuarantineNext + 1) % QuarantineSize;
}

} // namespace

Capsule *captureStart(const capsule_entry *Entry, void *Frame) {
  ThreadDriver &D = driver();
  return reinterpret_cast<Capsule *>(capture(D, Entry, Frame, 0));
}

bool runFrom(Capsule *C, uint64_t Limit, StepRunner Runner, const void *Context,
             uint64_t *Done) {
  ThreadDriver &D = driver();
  if (C != D.Newest || threadJournal().depth() != C->Depth)
    failInternal("the checkpointing driver resumed capsule %p out of order",
                 static_cast<void *>(C));
  threadJournal().rollbackTop();
  return run(D, C->Entry, C->Frame, budgetFor(Limit), *Done, Runner, Context);
}

Capsule *captureAfter(Capsule *From, uint64_t Done) {
  ThreadDriver &D = driver();
  return reinterpret_cast<Capsule *>(
      capture(D, From->Entry, From->Frame, From->Steps + Done));
}

bool runOn(uint64_t Limit, StepRunner Runner, const void *Context,
           uint64_t *Done) {
  ThreadDriver &D = driver();
  Capsule *C = D.Newest;
  if (!C || threadJournal().depth() != C->Depth)
    failInternal("the checkpointing driver ran on without a capsule");
  return run(D, C->Entry, C->Frame, budgetFor(Limit), *Done, Runner, Context);
}

Capsule *captureNow(uint64_t Steps) {
  ThreadDriver &D = driver();
  if (!D.Newest)
    failInternal("the checkpointing driver captured without a capsule");
  return reinterpret_cast<Capsule *>(
      capture(D, D.Newest->Entry, D.Newest->Frame, Steps));
}

uint64_t capsuleSteps(const Capsule *C) { return C->Steps; }

uint64_t releaseCapsule(Capsule *C) {
  ThreadDriver &D = driver();
  // The newer capsules' snapshots move one level down.
  uint64_t Newer = 0;
  Capsule **Link = &D.Newest;
  for (; *Link != C; Link = &(*Link)->Below, ++Newer) {
    if (!*Link)
      failInternal("the checkpointing driver released capsule %p, which is "
                   "not live",
                   static_cast<void *>(C));
    --(*Link)->Depth;
  }
  *Link = C->Below;
  threadJournal().release(C->Depth - 1);
  --D.Live;
  quarantine(D, C);
  return Newer;
}

} // namespace capsule

using namespace capsule;

extern "C" void *__capsule_root_frame(const capsule_entry *Entry) {
  ThreadDriver &D = driver();
  checkNotRunning(D, "__capsule_primops/__capsule_interrupt");
  armStackOverflowGuard();
  char *Frame = frameStackBase();
  uint64_t Bytes = Entry->frame_bytes;
  if (Bytes > uint64_t(__capsule_frame_limit - Frame))
    __capsule_frame_grow(Frame + Bytes);
  // A live capsule of an earlier computation may still need what the frame
  // stack held.
  journalWrite(Frame, Bytes);
  std::memset(Frame, 0, Bytes);
  replayStartComputation(D.Live != 0);
  return Frame;
}

extern "C" uint64_t __capsule_run_primops(const capsule_entry *Entry,
                                          void *Frame) {
  ThreadDriver &D = driver();
  checkNotRunning(D, "__capsule_primops");
  uint64_t Done = runToEnd(D, Entry, Frame);
  D.LastRunSteps = Done;
  return Done;
}

extern "C" capsule_t *__capsule_run_interrupt(const capsule_entry *Entry,
                                              void *Frame, uint64_t Limit) {
  ThreadDriver &D = driver();
  checkNotRunning(D, "__capsule_interrupt");
  uint64_t Done;
  if (!run(D, Entry, Frame, budgetFor(Limit), Done)) {
    D.LastRunSteps = Done;
    return nullptr;
  }
  return capture(D, Entry, Frame, Done);
}

extern "C" capsule_t *capsule_resume_for(capsule_t *Handle, uint64_t Limit) {
  ThreadDriver &D = driver();
  checkNotRunning(D, "capsule_resume_for");
  Capsule *C = checkNewest(D, Handle, "capsule_resume_for", "resumed");
  threadJournal().rollbackTop();
  uint64_t Done;
  if (!run(D, C->Entry, C->Frame, budgetFor(Limit), Done)) {
    D.LastRunSteps = C->Steps + Done;
    return nullptr;
  }
  return capture(D, C->Entry, C->Frame, C->Steps + Done);
}

extern "C" void capsule_resume(capsule_t *Handle, void *Result) {
  ThreadDriver &D = driver();
  checkNotRunning(D, "capsule_resume");
  Capsule *C = checkNewest(D, Handle, "capsule_resume", "resumed");
  threadJournal().rollbackTop();
  D.LastRunSteps = C->Steps + runToEnd(D, C->Entry, C->Frame);
  const capsule_entry *Entry = C->Entry;
  if (Result && Entry->result_bytes)
    std::memcpy(Result, static_cast<char *>(C->Frame) + Entry->result_offset,
                Entry->result_bytes);
}

extern "C" void capsule_release(capsule_t *Handle) {
  ThreadDriver &D = driver();
  checkNotRunning(D, "capsule_release");
  Capsule *C = checkNewest(D, Handle, "capsule_release", "released");
  threadJournal().releaseTop();
  D.Newest = C->Below;
  --D.Live;
  quarantine(D, C);
}

extern "C" uint64_t capsule_steps(const capsule_t *Handle) {
  return checkLive(driver(), Handle, "capsule_steps")->Steps;
}

extern "C" void capsule_get_interrupt_stats(capsule_interrupt_stats_t *Out) {
  const ThreadDriver &D = driver();
  const Journal &J = threadJournal();
  Out->live_capsules = D.Live;
  Out->journal_bytes = J.totalBytes();
  Out->newest_journal_bytes = J.topBytes();
  Out->peak_journal_bytes = J.peakBytes();
  Out->last_run_steps = D.LastRunSteps;
}
