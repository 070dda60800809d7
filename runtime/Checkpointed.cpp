//===- Checkpointed.cpp - Driver of checkpointed gradients ----------------===//
//
// __capsule_run_checkpointed reverses a root computation with the paper's
// divide-and-conquer schedules (Scheduler.h), over the capsules of
// Interrupt.cpp:
//
//  - PRIMOPS: a green run (GreenRun.h) of the derivative's forward sweep
//    from the start capsule to the end counts the steps n;
//  - interrupt: a green run from a capsule for some steps, captured as a new
//    capsule. Green runs execute the forward sweep untaped, so that the
//    shadow pointers stored beside pointers in memory are what a later
//    taped run from the new capsule expects;
//  - a stage: a taped run from a capsule to exactly where the next capsule
//    was taken (or to the end, where the result's adjoint is seeded), then
//    the reverse sweep, which turns the adjoints in shadow memory at the
//    stage's end into those at its start. Adjoints are not journaled, so
//    they survive the rollbacks that restore primal memory.
//
// Last, memory is brought to the state the computation ends in (as after a
// plain gradient) by running the step function from the start capsule once
// more.
//===----------------------------------------------------------------------===//
#include "Capsules.h"
#include "CheckpointConfig.h"
#include "Config.h"
#include "GreenRun.h"
#include "Journal.h"
#include "RuntimeRegion.h"
#include "Scheduler.h"
#include "Support.h"
#include "Tape.h"

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

/// Runs the untaped forward sweep from C for Limit steps (a green run).
bool greenRun(const capsule_checkpointed_entry &E, Capsule *C, uint64_t Limit,
              uint64_t *Done) {
  beginGreenRun();
  bool Yielded = runFrom(C, Limit, runUntapedSweep, &E, Done);
  endGreenRun();
  return Yielded;
}

struct Timings {
  double Primal = 0, Forward = 0, Reverse = 0;
};

class CheckpointedRun final : public Computation {
public:
  CheckpointedRun(const capsule_checkpointed_entry &E, void *Frame, uint64_t N)
      : E(E), Frame(static_cast<char *>(Frame)), N(N) {}

  Snapshot interrupt(Snapshot From, uint64_t Steps,
                     uint64_t *Reached) override {
    auto *C = static_cast<Capsule *>(From);
    double Start = monotonicSeconds();
    uint64_t Done;
    greenRun(E, C, Steps, &Done);
    T.Primal += monotonicSeconds() - Start;
    *Reached = capsuleSteps(C) + Done;
    return captureAfter(C, Done);
  }

  void gradientOfStage(Snapshot From, uint64_t Steps) override {
    auto *C = static_cast<Capsule *>(From);
    bool Last = capsuleSteps(C) + Steps >= N;
    double Start = monotonicSeconds();
    uint64_t Done;
    bool Yielded =
        runFrom(C, Last ? UINT64_MAX : Steps, runForwardSweep, &E, &Done);
    if (Yielded == Last || Done != Steps)
      failInternal("a stage of %s from step %llu ran %llu steps, not %llu",
                   E.entry->name,
                   static_cast<unsigned long long>(capsuleSteps(C)),
                   static_cast<unsigned long long>(Done),
                   static_cast<unsigned long long>(Steps));
    tapeRecordPeak();
    double Middle = monotonicSeconds();
    T.Forward += Middle - Start;
    if (Last)
      seedResult();
    E.reverse();
    T.Reverse += monotonicSeconds() - Middle;
  }

  void release(Snapshot S) override {
    releaseCapsule(static_cast<Capsule *>(S));
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

  const capsule_checkpointed_entry &E;
  char *Frame;
  uint64_t N;
  Timings T;
};

const char *strategyName(Strategy S) {
  return S == Strategy::Binary ? "binary" : "treeverse";
}

const char *splitName(Split S) {
  return S == Split::Bisection ? "bisection" : "binomial";
}

void printStats(const capsule_checkpointed_entry &E, uint64_t N,
                const CheckpointPolicy &P, const ScheduleParams &Params,
                const ScheduleStats &S, const Timings &T) {
  std::fprintf(
      stderr,
      "capsule: checkpointed gradient of %s: %llu primal steps, %s-%s, "
      "alpha %llu, d %llu, t %llu; %llu stages, %llu recomputed steps, "
      "peak %llu live snapshots, peak snapshot bytes %s, peak tape %s; "
      "time: primal %.6f s, taped forward %.6f s, reverse %.6f s\n",
      E.entry->name, static_cast<unsigned long long>(N), strategyName(P.Strat),
      splitName(P.How), static_cast<unsigned long long>(Params.LeafSteps),
      static_cast<unsigned long long>(Params.Snapshots),
      static_cast<unsigned long long>(Params.Reps),
      static_cast<unsigned long long>(S.Stages),
      static_cast<unsigned long long>(S.RecomputedSteps),
      static_cast<unsigned long long>(S.PeakLiveSnapshots),
      formatBytes(threadJournal().peakBytes(), 2).Text,
      formatBytes(tapePeakBytes(), 2).Text, T.Primal, T.Forward, T.Reverse);
}

} // namespace
} // namespace capsule

using namespace capsule;

extern "C" void __capsule_run_checkpointed(const capsule_checkpointed_entry *E,
                                           void *Frame) {
  CheckpointPolicy Policy = checkpointPolicy();
  if (Policy.MemoryLimit) {
    std::fprintf(stderr,
                 "capsule: error: CAPSULE_MEMORY_LIMIT (or "
                 "capsule_config_memory_limit) is not supported yet by the "
                 "checkpointing driver; bound memory with CAPSULE_SNAPSHOTS "
                 "and CAPSULE_LEAF_STEPS instead\n");
    std::exit(2);
  }
  reserveSink();
  __capsule_gradient_begin();
  // The root frame's slots were written by the marker call, whose stores
  // have no reverse sweep to clear their adjoints: what the last gradient
  // left there goes now.
  std::memset(static_cast<char *>(Frame) + __capsule_region_span, 0,
              E->entry->frame_bytes);
  Capsule *Start = captureStart(E->entry, Frame);

  // PRIMOPS, as a green run so that it needs no code of its own.
  double Begin = monotonicSeconds();
  uint64_t N;
  if (greenRun(*E, Start, UINT64_MAX, &N))
    failInternal("the forward sweep of %s yielded with an unlimited budget",
                 E->entry->name);
  double Primops = monotonicSeconds() - Begin;

  ScheduleParams Params = resolvePolicy(Policy, N);
  CheckpointedRun Run(*E, Frame, N);
  ScheduleStats Stats =
      runSchedule(Run, Start, N, Policy.Strat, Policy.How, Params);

  // Leave memory as the computation leaves it.
  uint64_t Done;
  runFrom(Start, UINT64_MAX, runStepFunction, E->entry, &Done);
  releaseCapsule(Start);
  __capsule_gradient_end();
  if (statsEnabled()) {
    Timings T = Run.timings();
    T.Primal += Primops;
    printStats(*E, N, Policy, Params, Stats, T);
  }
}
