//===- Checkpointed.cpp - Driver of checkpointed gradients ----------------===//
//
// __capsule_run_checkpointed reverses a root computation with the paper's
// divide-and-conquer schedules (Scheduler.h), over the capsules of
// Interrupt.cpp:
//
//  - PRIMOPS: a green run (GreenRun.h) of the derivative's untaped forward
//    sweep from the start capsule to the end counts the steps n. The online
//    schedule has none: its first run goes on (advance) chunk by chunk
//    from the start capsule, capturing and releasing capsules on the way,
//    and n is known when it ends;
//  - interrupt: a green run from a capsule for some steps, captured as a new
//    capsule. The untaped sweep keeps the shadow pointers stored beside
//    pointers in memory as the taped one would, so that they are what a
//    later taped run from the new capsule expects;
//  - a stage: a taped run from a capsule to exactly where the next capsule
//    was taken (or to the end, where the result's adjoint is seeded), then
//    the reverse sweep, which turns the adjoints in shadow memory at the
//    stage's end into those at its start. Adjoints are not journaled, so
//    they survive the rollbacks that restore primal memory.
//
// Last, memory is brought to the state the computation ends in (as after a
// plain gradient) by running the step function from the start capsule once
// more.
//
// Under a memory limit (CAPSULE_MEMORY_LIMIT) the driver measures, before
// the schedule, what a step's tape and a snapshot cost (planMemory) and
// picks d and α to fit (fitToMemory); a stage whose tape outgrows its share
// anyway stops the program with a message.
//===----------------------------------------------------------------------===//
#include "Capsules.h"
#include "CheckpointConfig.h"
#include "Config.h"
#include "GreenRun.h"
#include "Journal.h"
#include "Progress.h"
#include "RuntimeRegion.h"
#include "Scheduler.h"
#include "ScratchShadows.h"
#include "Support.h"
#include "Tape.h"
#include "Trace.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace capsule {
namespace {

/// A forward sweep of the root's step function (taped or not), on its frame
/// and the frame's adjoints one region span above it.
bool runSweep(uint8_t (*Sweep)(void *, void *), void *Frame) {
  return (Sweep(Frame, static_cast<char *>(Frame) + __capsule_region_span) &
          1) != 0;
}

bool runForwardSweep(const void *Entry, void *Frame) {
  return runSweep(
      static_cast<const capsule_checkpointed_entry *>(Entry)->forward, Frame);
}

bool runUntapedSweep(const void *Entry, void *Frame) {
  return runSweep(
      static_cast<const capsule_checkpointed_entry *>(Entry)->untaped, Frame);
}

/// What a green run reports as it goes: the steps PRIMOPS counted so far,
/// or those run again.
enum class GreenRunKind { Counting, Recomputing };

/// Runs the untaped forward sweep from C for Limit steps (a green run).
/// While progress is reported it runs in pieces of at most Piece steps,
/// each stopping where the computation can and the next resuming there, as
/// from any yield, and reports after each, so that the report moves during
/// a long run; it stops where one run of Limit steps would, at the first
/// point to stop at after Limit steps.
bool greenRun(const capsule_checkpointed_entry &E, Capsule *C, uint64_t Limit,
              uint64_t *Done, ProgressReport &Progress, GreenRunKind Kind,
              uint64_t Piece) {
  if (!Progress.reporting())
    Piece = Limit;
  beginGreenRun();
  uint64_t Ran;
  bool Yielded = runFrom(C, Piece < Limit ? Piece : Limit, runUntapedSweep,
                         &E, &Ran);
  *Done = Ran;
  for (;;) {
    if (Kind == GreenRunKind::Counting)
      Progress.counting(*Done);
    else
      Progress.ranAgain(Ran);
    if (!Yielded || *Done >= Limit)
      break;
    uint64_t Left = Limit - *Done;
    Yielded = runOn(Piece < Left ? Piece : Left, runUntapedSweep, &E, &Ran);
    *Done += Ran;
  }
  endGreenRun();
  return Yielded;
}

/// The pieces a reported green run goes in: a stage's α.
uint64_t progressPiece(const CheckpointPolicy &Policy) {
  return Policy.LeafSteps ? Policy.LeafSteps : DefaultLeafSteps;
}

struct Timings {
  double Primal = 0, Forward = 0, Reverse = 0;
};

/// "the first N steps taped B", for messages about the memory limit.
struct ProbeText {
  char Text[96];
};

/// The estimates a memory limit is applied with.
struct MemoryPlan {
  uint64_t Limit = 0; ///< bytes of tape and snapshots; 0: no limit
  uint64_t ProbedSteps = 0, ProbedBytes = 0; ///< the measurement
  uint64_t TapeBytesPerStep = 0;             ///< twice what it found
  uint64_t SnapshotBytes = 0; ///< what one live snapshot may take
  uint64_t TapeBudget = 0;    ///< what a stage's tape may take; 0: any

  ProbeText probe() const {
    ProbeText P;
    std::snprintf(P.Text, sizeof P.Text, "the first %llu steps taped %s",
                  static_cast<unsigned long long>(ProbedSteps),
                  formatBytes(ProbedBytes, 1).Text);
    return P;
  }
};

const char *strategyName(Strategy S) {
  return S == Strategy::Binary      ? "binary"
         : S == Strategy::Treeverse ? "treeverse"
                                    : "online";
}

const char *splitName(Split S) {
  return S == Split::Bisection ? "bisection" : "binomial";
}

class CheckpointedRun final : public Computation {
public:
  /// N is the computation's steps, or UINT64_MAX until advance() finds
  /// them.
  CheckpointedRun(const capsule_checkpointed_entry &E, void *Frame, uint64_t N,
                  const CheckpointPolicy &Policy, const MemoryPlan &Plan,
                  ProgressReport &Progress)
      : E(E), Frame(static_cast<char *>(Frame)), N(N), Policy(Policy),
        Plan(Plan), Progress(Progress) {}

  /// Once n is known and the schedule chosen: the trace's header and the
  /// start of the reverse sweep's progress.
  void announceSchedule(const ScheduleParams &Params) {
    traceSchedule(E.entry->name, N, E.loop_iterations,
                  strategyName(Policy.Strat), splitName(Policy.How), Params);
    Progress.stepsCounted(N);
  }

  bool advance(uint64_t Steps, uint64_t *Reached) override {
    double Start = monotonicSeconds();
    uint64_t Done;
    beginGreenRun();
    bool Yielded = runOn(Steps, runUntapedSweep, &E, &Done);
    endGreenRun();
    T.Primal += monotonicSeconds() - Start;
    tracePrimal(Position, Position + Done);
    Position += Done;
    Progress.counting(Position);
    if (!Yielded) {
      // The online schedule resolves each span's counts for its length;
      // those for all n bound them.
      N = Position;
      announceSchedule(resolvePolicy(Policy, N));
    }
    *Reached = Position;
    return Yielded;
  }

  Snapshot capture() override {
    traceSnapshot(Position);
    return captureNow(Position);
  }

  Snapshot interrupt(Snapshot From, uint64_t Steps,
                     uint64_t *Reached) override {
    auto *C = static_cast<Capsule *>(From);
    double Start = monotonicSeconds();
    uint64_t Done;
    greenRun(E, C, Steps, &Done, Progress, GreenRunKind::Recomputing,
             progressPiece(Policy));
    T.Primal += monotonicSeconds() - Start;
    *Reached = capsuleSteps(C) + Done;
    Capsule *Z = captureAfter(C, Done);
    tracePrimal(capsuleSteps(C), *Reached);
    traceSnapshot(*Reached);
    return Z;
  }

  void gradientOfStage(Snapshot From, uint64_t Steps) override {
    auto *C = static_cast<Capsule *>(From);
    bool Last = capsuleSteps(C) + Steps >= N;
    double Start = monotonicSeconds();
    uint64_t Done;
    bool Yielded =
        runFrom(C, Last ? UINT64_MAX : Steps, runForwardSweep, &E, &Done);
    if (Yielded == Last || Done != Steps)
      failNotRepeated(capsuleSteps(C), Done, Steps);
    traceForward(capsuleSteps(C), capsuleSteps(C) + Steps);
    if (Plan.TapeBudget && tapeBytesInUse() > Plan.TapeBudget)
      failStageOverBudget(Steps);
    tapeRecordPeak();
    double Middle = monotonicSeconds();
    T.Forward += Middle - Start;
    if (Last)
      seedResult();
    E.reverse();
    traceReverse(capsuleSteps(C), capsuleSteps(C) + Steps);
    T.Reverse += monotonicSeconds() - Middle;
    Progress.reversed(Steps);
  }

  void release(Snapshot S) override {
    traceRelease(releaseCapsule(static_cast<Capsule *>(S)));
  }

  const Timings &timings() const { return T; }

private:
  /// The result's adjoint is 1 where the root stored its return value.
  void seedResult() {
    char *Adjoint = Frame + __capsule_region_span + E.entry->result_offset;
    if (E.seeded_result == CAPSULE_SEED_FLOAT)
      *reinterpret_cast<float *>(Adjoint) += 1.0f;
    else if (E.seeded_result == CAPSULE_SEED_DOUBLE)
      *reinterpret_cast<double *>(Adjoint) += 1.0;
  }

  /// The tape estimate came from the first steps; later ones taped more.
  /// Steps count the program's work; a program that does different work
  /// when it runs again from a capsule cannot be checkpointed.
  [[noreturn]] void failNotRepeated(uint64_t From, uint64_t Done,
                                    uint64_t Steps) {
    std::fprintf(stderr,
                 "capsule: error: the checkpointed gradient of %s did not "
                 "repeat its computation when it ran again from step %llu "
                 "(%llu steps, not %llu): its control flow changed between "
                 "runs. With OpenMP, keep the team size fixed "
                 "(OMP_DYNAMIC=false, the default, and the same thread "
                 "limit) and do not make a parallel region's loops depend on "
                 "the order in which threads pass critical sections; with "
                 "-ffast-math, add -fno-associative-math (a reassociated "
                 "sum may round differently in each run)\n",
                 E.entry->name, static_cast<unsigned long long>(From),
                 static_cast<unsigned long long>(Done),
                 static_cast<unsigned long long>(Steps));
    std::exit(3);
  }

  [[noreturn]] void failStageOverBudget(uint64_t Steps) {
    std::fprintf(stderr,
                 "capsule: error: the checkpointed gradient of %s exceeds the "
                 "memory limit of %s: a stage of %llu steps taped %s, more "
                 "than the %s left beside the snapshots (%s, later ones "
                 "more); raise CAPSULE_MEMORY_LIMIT, or set "
                 "CAPSULE_LEAF_STEPS and CAPSULE_SNAPSHOTS instead\n",
                 E.entry->name, formatBytes(Plan.Limit, 1).Text,
                 static_cast<unsigned long long>(Steps),
                 formatBytes(tapeBytesInUse(), 1).Text,
                 formatBytes(Plan.TapeBudget, 1).Text, Plan.probe().Text);
    std::exit(3);
  }

  const capsule_checkpointed_entry &E;
  char *Frame;
  uint64_t N;
  uint64_t Position = 0; ///< where the last advance() stopped
  const CheckpointPolicy &Policy;
  const MemoryPlan &Plan;
  ProgressReport &Progress;
  Timings T;
};

/// Steps the memory probe tapes: few enough that their tape is small next
/// to any sensible limit.
constexpr uint64_t ProbeSteps = 4096;

/// Measures, after PRIMOPS, what the memory limit is applied with. A
/// snapshot's journal segment holds at most the granules the whole run
/// wrote, which PRIMOPS left in the start capsule's segment. A step's tape
/// is measured on a taped run of the first steps, whose records are then
/// dropped (no reverse sweep follows; memory is rolled back by the next
/// run), and doubled: later steps may tape more.
MemoryPlan planMemory(const capsule_checkpointed_entry &E, Capsule *Start,
                      uint64_t N, uint64_t Limit) {
  MemoryPlan Plan;
  Plan.Limit = Limit;
  uint64_t Granules = threadJournal().topBytes() / GranuleBytes;
  Plan.SnapshotBytes = (Granules ? Granules : 1) * MaxBytesPerSavedGranule;
  char *Scratch = scratchShadowMark();
  uint64_t Done;
  runFrom(Start, N < ProbeSteps ? N : ProbeSteps, runForwardSweep, &E, &Done);
  Plan.ProbedSteps = Done;
  Plan.ProbedBytes = tapeBytesInUse();
  tapeReset();
  releaseScratchShadowsAbove(Scratch);
  uint64_t PerStep = Done ? (2 * Plan.ProbedBytes + Done - 1) / Done : 0;
  Plan.TapeBytesPerStep = PerStep ? PerStep : 1;
  return Plan;
}

/// d, t and α under the memory limit, or a message and exit before the
/// schedule starts.
ScheduleParams fitSchedule(const capsule_checkpointed_entry &E,
                           const CheckpointPolicy &Policy, uint64_t N,
                           MemoryPlan &Plan) {
  ScheduleParams Params;
  if (!fitToMemory(N, Plan.TapeBytesPerStep, Plan.SnapshotBytes, Plan.Limit,
                   Policy.Crit, Policy.How, Policy.Reps, &Params)) {
    std::fprintf(
        stderr,
        "capsule: error: the checkpointed gradient of %s cannot fit in the "
        "memory limit of %s (CAPSULE_MEMORY_LIMIT or "
        "capsule_config_memory_limit): it runs %llu steps, %s, and a "
        "snapshot may take %s, so even one step per stage with the fewest "
        "snapshots needs more; raise the limit\n",
        E.entry->name, formatBytes(Plan.Limit, 1).Text,
        static_cast<unsigned long long>(N), Plan.probe().Text,
        formatBytes(Plan.SnapshotBytes, 1).Text);
    std::exit(2);
  }
  Plan.TapeBudget = Plan.Limit - (Params.Snapshots + 1) * Plan.SnapshotBytes;
  return Params;
}

/// What a schedule was and did, for the statistics line.
struct ScheduleReport {
  uint64_t N = 0;
  ScheduleParams Params = {}; ///< online: those for n, which bound its spans'
  ScheduleStats Stats = {};
  MemoryPlan Plan;
  double CountingSeconds = 0; ///< PRIMOPS; online: in the run's timings
};

void printStats(const capsule_checkpointed_entry &E, const CheckpointPolicy &P,
                const ScheduleReport &R, const Timings &T) {
  std::fprintf(
      stderr,
      "capsule: checkpointed gradient of %s: %llu primal steps, %s-%s, "
      "alpha %llu, d %llu, t %llu; %llu stages, %llu recomputed steps, "
      "peak %llu live snapshots, peak snapshot bytes %s, peak tape %s; "
      "time: primal %.6f s, taped forward %.6f s, reverse %.6f s\n",
      E.entry->name, static_cast<unsigned long long>(R.N),
      strategyName(P.Strat), splitName(P.How),
      static_cast<unsigned long long>(R.Params.LeafSteps),
      static_cast<unsigned long long>(R.Params.Snapshots),
      static_cast<unsigned long long>(R.Params.Reps),
      static_cast<unsigned long long>(R.Stats.Stages),
      static_cast<unsigned long long>(R.Stats.RecomputedSteps),
      static_cast<unsigned long long>(R.Stats.PeakLiveSnapshots),
      formatBytes(threadJournal().peakBytes(), 2).Text,
      formatBytes(tapePeakBytes(), 2).Text, T.Primal + R.CountingSeconds,
      T.Forward, T.Reverse);
  if (R.Plan.Limit)
    std::fprintf(stderr,
                 "capsule: memory limit %s: tape budgeted at %llu bytes per "
                 "step, a snapshot at most %s\n",
                 formatBytes(R.Plan.Limit, 1).Text,
                 static_cast<unsigned long long>(R.Plan.TapeBytesPerStep),
                 formatBytes(R.Plan.SnapshotBytes, 1).Text);
}

/// The paper's method: PRIMOPS counts the steps, then the schedule (fitted
/// to the memory limit, if any) reverses them.
ScheduleReport reverseOffline(const capsule_checkpointed_entry &E,
                              const CheckpointPolicy &Policy, void *Frame,
                              Capsule *Start, ProgressReport &Progress,
                              Timings &T) {
  ScheduleReport R;
  // PRIMOPS, as a green run so that it needs no code of its own.
  double Begin = monotonicSeconds();
  if (greenRun(E, Start, UINT64_MAX, &R.N, Progress, GreenRunKind::Counting,
               progressPiece(Policy)))
    failInternal("the forward sweep of %s yielded with an unlimited budget",
                 E.entry->name);
  R.CountingSeconds = monotonicSeconds() - Begin;
  tracePrimal(0, R.N);
  if (Policy.MemoryLimit) {
    R.Plan = planMemory(E, Start, R.N, Policy.MemoryLimit);
    traceProbe(R.Plan.ProbedSteps);
    R.Params = fitSchedule(E, Policy, R.N, R.Plan);
  } else {
    R.Params = resolvePolicy(Policy, R.N);
  }
  CheckpointedRun Run(E, Frame, R.N, Policy, R.Plan, Progress);
  Run.announceSchedule(R.Params);
  R.Stats = runSchedule(Run, Start, R.N, Policy.Strat, Policy.How, R.Params);
  T = Run.timings();
  return R;
}

/// Online: no counting run; the schedule learns n as it goes.
ScheduleReport reverseOnline(const capsule_checkpointed_entry &E,
                             const CheckpointPolicy &Policy, void *Frame,
                             Capsule *Start, ProgressReport &Progress,
                             Timings &T) {
  ScheduleReport R;
  CheckpointedRun Run(E, Frame, UINT64_MAX, Policy, R.Plan, Progress);
  OnlineOutcome Out;
  R.Stats =
      runOnlineSchedule(Run, Start, Policy.How, Policy.Crit, Policy.Snapshots,
                        Policy.Reps, Policy.LeafSteps, &Out);
  R.N = Out.Steps;
  R.Params = resolvePolicy(Policy, R.N);
  T = Run.timings();
  return R;
}

} // namespace
} // namespace capsule

using namespace capsule;

extern "C" void __capsule_check_checkpointed_shadow(const void *Primal,
                                                    const void *Shadow,
                                                    uint32_t Arg) {
  auto Granule = [](const void *P) {
    return reinterpret_cast<uintptr_t>(P) / GranuleBytes;
  };
  if (!Shadow || (reinterpret_cast<uintptr_t>(Shadow) % GranuleBytes == 0 &&
                  Granule(Shadow) != Granule(Primal)))
    return;
  std::fprintf(stderr,
               "capsule: error: the shadow of argument %u of a checkpointed "
               "gradient shares an 8-byte block with other memory (it is not "
               "8-byte aligned, or it is next to the argument itself): "
               "checkpointing restores memory in 8-byte blocks and would "
               "restore the adjoints accumulated there too; align the shadow "
               "to 8 bytes (alignas(8)) and keep it apart from data the "
               "function writes\n",
               Arg);
  std::exit(3);
}

extern "C" void __capsule_run_checkpointed(const capsule_checkpointed_entry *E,
                                           void *Frame) {
  CheckpointPolicy Policy = checkpointPolicy();
  if (E->loop_iterations)
    Policy = loopIterationPolicy(Policy);
  beginTrace();
  reserveSink();
  __capsule_gradient_begin();
  // The root frame's slots were written by the marker call, whose stores
  // have no reverse sweep to clear their adjoints: what the last gradient
  // left there goes now.
  std::memset(static_cast<char *>(Frame) + __capsule_region_span, 0,
              E->entry->frame_bytes);
  Capsule *Start = captureStart(E->entry, Frame);
  traceSnapshot(0);
  ProgressReport Progress(E->entry->name);
  Timings T;
  ScheduleReport R =
      Policy.Strat == Strategy::Online
          ? reverseOnline(*E, Policy, Frame, Start, Progress, T)
          : reverseOffline(*E, Policy, Frame, Start, Progress, T);

  // Leave memory as the computation leaves it.
  Progress.finishing();
  uint64_t Done;
  runFrom(Start, UINT64_MAX, runStepFunction, E->entry, &Done);
  tracePrimal(0, Done);
  traceRelease(releaseCapsule(Start));
  endTrace();
  Progress.finish();
  __capsule_gradient_end();
  if (statsEnabled())
    printStats(*E, Policy, R, T);
}
