//===- Scheduler.h - Divide-and-conquer checkpoint schedules --------------===//
//
// The checkpoint scheduler of DESIGN §4, pure C++ over an abstract
// computation so that it is unit-tested with a mock that only counts steps.
// It walks the paper's BINARY (Siskind & Pearlmutter 2018, Fig. 27) or
// TREEVERSE (Fig. 26, after Griewank 1992) checkpoint tree, splitting by
// bisection (Griewank's eq. 12) or binomially (eq. 16), and resolves the
// termination criteria of the paper's eq. (23).
//
// The counts, exactly:
//  - d (Snapshots, the paper's δ at the root) bounds the snapshots the
//    scheduler takes itself. The caller's snapshot at position 0 is not one
//    of them, so at most d + 1 snapshots are alive at once, counting it.
//    This is the paper's and Griewank's d, and Griewank & Walther's number
//    of checkpoints s ("snaps" in revolve), which counts the initial state
//    but not the working state that revolve advances: here that working
//    state is a snapshot too, since a stage starts from one.
//  - t (Reps, the paper's τ at the root) bounds the left branches on any
//    path of the tree; a step is recomputed (run untaped) once per left
//    branch above it, so each step runs untaped at most t times.
//  - α (LeafSteps) bounds the steps of a stage, the taped run of a leaf.
//    Stages are longer only where δ or τ ran out first, or where the
//    computation offers no point to stop at inside the span. resolveParams
//    picks d and t so that neither runs out first (see leafCapacity).
//
// The two strategies build the same schedule: BINARY's right branch is
// TREEVERSE's nested call and its left branch is TREEVERSE's REST, and both
// split with the same MID (relative in Fig. 27, absolute in Fig. 26). They
// differ in the shape of the tree they walk, which MaxDepth reports. Both
// recurse only on right branches (left branches are tail calls, run as
// loops), so the machine stack holds a small frame or two per live
// snapshot.
//
// Online (runOnlineSchedule) reverses a computation whose length is unknown
// until it ends, without a run that counts its steps first: it takes a
// snapshot every α steps as the computation runs and thins them so that
// when the run ends the live snapshots split it into spans of 2^k α-chunks
// that halve from the start to the end, one or two of each length (the
// count of chunks in bijective base 2). Each span is then reversed, last
// first, by the binary schedule with the counts resolved for its length.
// docs/checkpointing.md ("Online checkpointing") proves its bounds.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_SCHEDULER_H
#define CAPSULE_RUNTIME_SCHEDULER_H

#include <cstdint>

namespace capsule {

/// Which checkpoint tree to walk: the paper's Fig. 27 or Fig. 26, or the
/// online schedule, which needs no step count (runOnlineSchedule).
enum class Strategy { Binary, Treeverse, Online };

/// Where to split a span: halfway (Griewank 1992 eq. 12) or in proportion
/// to the snapshots and repetitions left (eq. 16).
enum class Split { Bisection, Binomial };

/// Which of d, t and α the user fixes (paper §5, eq. 23): Space fixes d and
/// α and computes t, Time fixes t and α and computes d, Log computes d = t
/// from α.
enum class Criterion { Space, Time, Log };

/// The computation the scheduler reverses: positions are counted in steps
/// from 0 (the caller's initial state) to n (the end), and states are opaque
/// snapshots.
///
/// The destructor is protected and not virtual: the scheduler never owns a
/// computation, and a virtual destructor would make every implementation's
/// vtable refer to operator delete, which C programs linking the runtime do
/// not have (see Support.h).
class Computation {
public:
  using Snapshot = void *;

  /// An untaped run (the paper's green line): from From, run at least Steps
  /// steps and stop at the next point where the computation can stop, or at
  /// its end. Returns a new snapshot there and its position in *Reached.
  /// From stays valid.
  virtual Snapshot interrupt(Snapshot From, uint64_t Steps,
                             uint64_t *Reached) = 0;

  /// One stage (red and blue lines): from From, a taped run of exactly Steps
  /// steps, then its reverse sweep. The span always ends at a position where
  /// interrupt() stopped, or at n.
  virtual void gradientOfStage(Snapshot From, uint64_t Steps) = 0;

  /// Releases a snapshot interrupt() or capture() returned. The scheduler
  /// releases them in the reverse of the order it took them, except that
  /// the online schedule's first run releases older ones too (the newer
  /// ones stay valid).
  virtual void release(Snapshot S) = 0;

  /// For the online schedule, which learns n only at the end: an untaped
  /// run on from where the computation stands (its start, or where the last
  /// advance() stopped) for at least Steps steps, to the next point where it
  /// can stop. Returns true and that position in *Reached, or false and n
  /// when the computation ended first.
  virtual bool advance(uint64_t Steps, uint64_t *Reached) = 0;

  /// A snapshot of the state the last advance() stopped in.
  virtual Snapshot capture() = 0;

protected:
  ~Computation() = default;
};

/// The counts that bound a schedule (see the file comment). 0 snapshots or
/// repetitions mean no split at all: the whole computation is one stage.
struct ScheduleParams {
  uint64_t Snapshots; ///< d
  uint64_t Reps;      ///< t
  uint64_t LeafSteps; ///< α; 0 is taken as 1
};

/// What a schedule did.
struct ScheduleStats {
  uint64_t Stages;            ///< gradientOfStage() calls
  uint64_t RecomputedSteps;   ///< steps run untaped by interrupt()
  uint64_t TapedSteps;        ///< steps run taped: always n
  uint64_t PeakLiveSnapshots; ///< counting the caller's initial snapshot
  /// The deepest stage's depth in the tree the strategy walks: for Binary
  /// the splits above it (≤ d + t), for Treeverse the snapshots taken above
  /// it (≤ d).
  uint64_t MaxDepth;
};

/// α when none is given: about a million steps (instructions). Each stage
/// costs a snapshot restore and a tape set-up, so smaller stages waste time;
/// a stage's tape, a few bytes a step, then stays in the megabytes. A
/// computation no longer than this is not checkpointed at all.
constexpr uint64_t DefaultLeafSteps = uint64_t(1) << 20;

/// η(d, t) = C(d + t, t) of eq. (23), saturating at UINT64_MAX.
uint64_t eta(uint64_t D, uint64_t T);

/// How many stages of at most α steps a schedule with d snapshots and t
/// repetitions is sure to cover: it reverses any n ≤ α·leafCapacity without
/// a stage longer than α. η(d, t) for the binomial split, since its MID
/// sends at most α·η(δ−1, τ) steps right and α·η(δ, τ−1) left; 2^min(d,t)
/// for bisection, which halves the span whichever count it spends, so the
/// one that runs out first limits it. Saturates at UINT64_MAX.
uint64_t leafCapacity(Split How, uint64_t D, uint64_t T);

/// The least t with leafCapacity(How, D, t) ≥ Need, in *T. False when no t
/// reaches Need (bisection with 2^D < Need, or D = 0 < Need − 1); *T is
/// then the least t that reaches the most.
bool leastReps(Split How, uint64_t D, uint64_t Need, uint64_t *T);

/// The split point MID(δ, τ, σ, φ) in [σ, φ]: ⌈(σ+φ)/2⌉ for bisection,
/// ⌈(δσ+τφ)/(δ+τ)⌉ for the binomial split (bisection when δ + τ = 0). When
/// φ − σ ≥ 2 it is kept strictly inside, so that a split always leaves two
/// non-empty spans (the binomial formula reaches φ when τ ≫ δ).
uint64_t mid(Split How, uint64_t Delta, uint64_t Tau, uint64_t Sigma,
             uint64_t Phi);

/// Resolves eq. (23) for a computation of N steps. D, T and Alpha are the
/// values given, 0 for none. Alpha defaults to DefaultLeafSteps; the
/// criterion then computes the rest:
///  - Log: d = t, the least with α·leafCapacity(d, d) ≥ N (D and T ignored).
///  - Space: t, the least with α·leafCapacity(d, t) ≥ N (T ignored). A
///    missing d is the one Log would pick.
///  - Time: d, the least with α·leafCapacity(d, t) ≥ N (D ignored). A
///    missing t is the one Log would pick.
/// When no value of the computed count reaches N (the fixed count is too
/// small for bisection's 2^min(d,t)), it takes the least value that reaches
/// the most, and raises α to ⌈N / leafCapacity⌉: the fixed count is a memory
/// or time bound, α the softer one. So the result always has
/// N ≤ α·leafCapacity(d, t), and α is the longest stage it can produce.
ScheduleParams resolveParams(Criterion C, Split How, uint64_t N, uint64_t D,
                             uint64_t T, uint64_t Alpha);

/// Reverses a computation of N steps: stages tile [0, N] exactly, each step
/// is taped once, and stages run from the end back to the start. Start is
/// the snapshot at position 0; it stays the caller's and is never released.
ScheduleStats runSchedule(Computation &C, Computation::Snapshot Start,
                          uint64_t N, Strategy S, Split How,
                          const ScheduleParams &P);

/// What the online schedule learnt.
struct OnlineOutcome {
  uint64_t Steps;  ///< n, known when the computation ended
  uint64_t Chunks; ///< the α-chunks the first run snapshotted after
};

/// Reverses a computation of unknown length from Start, which stays the
/// caller's: one untaped run from Start to the end, through advance(),
/// snapshots after every chunk of at least Alpha steps (capture()) and
/// releases, older ones included, those between the two oldest of three
/// equal spans; then, from the newest live snapshot back to Start, the span
/// from each to the next is reversed by the binary schedule with the counts
/// resolveParams(Crit, How, span, D, T, Alpha) gives, and the snapshot
/// released. Stats count the first run's steps neither as recomputed nor as
/// taped.
ScheduleStats runOnlineSchedule(Computation &C, Computation::Snapshot Start,
                                Split How, Criterion Crit, uint64_t D,
                                uint64_t T, uint64_t Alpha, OnlineOutcome *Out);

} // namespace capsule

#endif // CAPSULE_RUNTIME_SCHEDULER_H
