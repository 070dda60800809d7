//===- Scheduler.cpp - Divide-and-conquer checkpoint schedules ------------===//
#include "Scheduler.h"

namespace capsule {
namespace {

using u128 = unsigned __int128;

uint64_t ceilDiv(uint64_t A, uint64_t B) { return A / B + (A % B != 0); }

// The least X in [0, Hi] with Reaches(X), for Reaches monotone in X and true
// at Hi.
template <typename Predicate>
uint64_t leastWith(uint64_t Hi, Predicate Reaches) {
  uint64_t Lo = 0;
  while (Lo < Hi) {
    uint64_t Mid = Lo + (Hi - Lo) / 2;
    if (Reaches(Mid))
      Hi = Mid;
    else
      Lo = Mid + 1;
  }
  return Lo;
}

// The least count X with Capacity(X) ≥ Need, for Capacity nondecreasing;
// when none reaches Need, the least X reaching the largest capacity, in
// which case *Reached says false.
template <typename CapacityOf>
uint64_t leastCount(uint64_t Need, CapacityOf Capacity, bool *Reached) {
  // Every capacity here is at least X + 1 or 2^X once it grows at all, so
  // the answer is at most Need, or 64 for a capacity that saturates early.
  uint64_t Hi = Need > 64 ? Need : 64;
  uint64_t Most = Capacity(Hi);
  *Reached = Most >= Need;
  uint64_t Goal = *Reached ? Need : Most;
  return leastWith(Hi, [&](uint64_t X) { return Capacity(X) >= Goal; });
}

// Walks one schedule. Both strategies share the bookkeeping: snapshots taken
// and released, stages run, statistics.
class Walker {
public:
  /// Live counts the snapshots alive when the walk starts, the one it
  /// starts from included.
  Walker(Computation &C, Split How, uint64_t Alpha, uint64_t Live = 1)
      : C(C), How(How), Alpha(Alpha ? Alpha : 1), Live(Live) {
    Stats.PeakLiveSnapshots = Live;
  }

  void binary(Computation::Snapshot X, uint64_t Lo, uint64_t Hi, uint64_t Delta,
              uint64_t Tau, uint64_t Depth);
  uint64_t treeverse(Computation::Snapshot X, uint64_t Beta, uint64_t Sigma,
                     uint64_t Phi, uint64_t Delta, uint64_t Tau,
                     uint64_t Depth);
  void rest(Computation::Snapshot X, uint64_t Sigma, uint64_t Phi,
            uint64_t Delta, uint64_t Tau, uint64_t Depth);

  ScheduleStats Stats = {};

private:
  bool splits(uint64_t Span, uint64_t Delta, uint64_t Tau) const {
    return Span > Alpha && Delta != 0 && Tau != 0;
  }
  Computation::Snapshot snapshotAt(Computation::Snapshot X, uint64_t From,
                                   uint64_t Target, uint64_t Hi, uint64_t *At);
  void drop(Computation::Snapshot Z);
  void stage(Computation::Snapshot X, uint64_t Lo, uint64_t Hi, uint64_t Depth);

  Computation &C;
  Split How;
  uint64_t Alpha;
  uint64_t Live;
};

// Runs untaped from X at From towards Target and returns the snapshot where
// the run stopped, at *At, or null when that is not strictly inside
// (From, Hi): a snapshot at Hi or beyond cannot split [From, Hi], and the
// span must then be taped whole.
Computation::Snapshot Walker::snapshotAt(Computation::Snapshot X, uint64_t From,
                                         uint64_t Target, uint64_t Hi,
                                         uint64_t *At) {
  uint64_t Reached = From;
  Computation::Snapshot Z = C.interrupt(X, Target - From, &Reached);
  if (++Live > Stats.PeakLiveSnapshots)
    Stats.PeakLiveSnapshots = Live;
  if (Reached > From)
    Stats.RecomputedSteps += Reached - From;
  if (Reached <= From || Reached >= Hi) {
    drop(Z);
    return nullptr;
  }
  *At = Reached;
  return Z;
}

void Walker::drop(Computation::Snapshot Z) {
  C.release(Z);
  --Live;
}

void Walker::stage(Computation::Snapshot X, uint64_t Lo, uint64_t Hi,
                   uint64_t Depth) {
  C.gradientOfStage(X, Hi - Lo);
  ++Stats.Stages;
  Stats.TapedSteps += Hi - Lo;
  if (Depth > Stats.MaxDepth)
    Stats.MaxDepth = Depth;
}

// Fig. 27 on the span [Lo, Hi], X the snapshot at Lo: split at MID δ τ 0 φ,
// reverse the right part from a new snapshot with one snapshot fewer, then
// the left part from X with one repetition fewer. The left branch is the
// last thing a node does, so it is the loop, not a call.
void Walker::binary(Computation::Snapshot X, uint64_t Lo, uint64_t Hi,
                    uint64_t Delta, uint64_t Tau, uint64_t Depth) {
  for (; splits(Hi - Lo, Delta, Tau); --Tau, ++Depth) {
    uint64_t Kappa = mid(How, Delta, Tau, 0, Hi - Lo), At;
    Computation::Snapshot Z = snapshotAt(X, Lo, Lo + Kappa, Hi, &At);
    if (!Z)
      break;
    binary(Z, At, Hi, Delta - 1, Tau, Depth + 1);
    drop(Z);
    // The split is where the run stopped, which may be past Kappa.
    Hi = At;
  }
  stage(X, Lo, Hi, Depth);
}

// Fig. 26's TREEVERSE: X is the snapshot at Beta; when Sigma is past it,
// take a snapshot at Sigma (leaving one fewer to take) and reverse
// [Sigma, Phi] from there. Returns where that snapshot landed, which may be
// past Sigma, or Phi when there was no point to stop at before Phi (and
// nothing was done).
uint64_t Walker::treeverse(Computation::Snapshot X, uint64_t Beta,
                           uint64_t Sigma, uint64_t Phi, uint64_t Delta,
                           uint64_t Tau, uint64_t Depth) {
  if (Sigma == Beta) {
    rest(X, Sigma, Phi, Delta, Tau, Depth);
    return Sigma;
  }
  uint64_t At;
  Computation::Snapshot Z = snapshotAt(X, Beta, Sigma, Phi, &At);
  if (!Z)
    return Phi;
  rest(Z, At, Phi, Delta - 1, Tau, Depth + 1);
  drop(Z);
  return At;
}

// Fig. 26's FIRST and REST, which differ only in which of them returns the
// primal result y; here a stage's run produces it, so one function serves
// both. It peels the span from the right: each piece [κ, φ] goes to a nested
// TREEVERSE, and the rest [σ, κ] continues here with one repetition fewer.
void Walker::rest(Computation::Snapshot X, uint64_t Sigma, uint64_t Phi,
                  uint64_t Delta, uint64_t Tau, uint64_t Depth) {
  for (; splits(Phi - Sigma, Delta, Tau); --Tau) {
    uint64_t Kappa = mid(How, Delta, Tau, Sigma, Phi);
    uint64_t At = treeverse(X, Sigma, Kappa, Phi, Delta, Tau, Depth);
    if (At >= Phi)
      break;
    Phi = At;
  }
  stage(X, Sigma, Phi, Depth);
}

/// Adds what one walk did to what the walks before it did.
void accumulate(ScheduleStats &Total, const ScheduleStats &Walk) {
  Total.Stages += Walk.Stages;
  Total.RecomputedSteps += Walk.RecomputedSteps;
  Total.TapedSteps += Walk.TapedSteps;
  if (Walk.PeakLiveSnapshots > Total.PeakLiveSnapshots)
    Total.PeakLiveSnapshots = Walk.PeakLiveSnapshots;
  if (Walk.MaxDepth > Total.MaxDepth)
    Total.MaxDepth = Walk.MaxDepth;
}

/// A snapshot the online schedule keeps, after its Chunk-th chunk.
struct ChunkSnapshot {
  Computation::Snapshot S;
  uint64_t Chunk, Position;
};

/// The spans between the online schedule's snapshots, oldest first, halve
/// in length, at most two of each (the digits of the chunk count in
/// bijective base 2): when a third span of one length closes, the two
/// oldest of the three merge, and the merged span may make a third of twice
/// the length. So the snapshots left when the run ends are close to the
/// right spine of the bisection tree of the whole run (n/2, 3n/4, ...),
/// the split points the offline schedule would first run to again, with at
/// most two snapshots per bit of the count.
void mergeSpans(Computation &C, ChunkSnapshot *Kept, unsigned &Live) {
  for (unsigned Top = Live - 1; Top >= 3; Top -= 2) {
    uint64_t Length = Kept[Top].Chunk - Kept[Top - 1].Chunk;
    if (Kept[Top - 1].Chunk - Kept[Top - 2].Chunk != Length ||
        Kept[Top - 2].Chunk - Kept[Top - 3].Chunk != Length)
      return;
    C.release(Kept[Top - 2].S);
    for (unsigned I = Top - 2; I + 1 != Live; ++I)
      Kept[I] = Kept[I + 1];
    --Live;
  }
}

/// At most two live snapshots per bit of the chunk count, the start's, and
/// the one a merge is about to release.
constexpr unsigned MaxChunkSnapshots = 2 * 64 + 2;

} // namespace

uint64_t eta(uint64_t D, uint64_t T) {
  uint64_t Small = D < T ? D : T, Large = D < T ? T : D;
  // C(Large + I, I) for I = 1, 2, ...: each is an integer, and each is at
  // least the one before, so the first that saturates ends the loop.
  u128 Value = 1;
  for (uint64_t I = 1; I <= Small; ++I) {
    Value = Value * (u128(Large) + I) / I;
    if (Value >= UINT64_MAX)
      return UINT64_MAX;
  }
  return uint64_t(Value);
}

uint64_t leafCapacity(Split How, uint64_t D, uint64_t T) {
  if (How == Split::Binomial)
    return eta(D, T);
  uint64_t Halvings = D < T ? D : T;
  return Halvings >= 64 ? UINT64_MAX : uint64_t(1) << Halvings;
}

bool leastReps(Split How, uint64_t D, uint64_t Need, uint64_t *T) {
  bool Reached;
  *T = leastCount(
      Need, [&](uint64_t X) { return leafCapacity(How, D, X); }, &Reached);
  return Reached;
}

uint64_t mid(Split How, uint64_t Delta, uint64_t Tau, uint64_t Sigma,
             uint64_t Phi) {
  uint64_t Span = Phi - Sigma;
  u128 Shares = u128(Delta) + Tau;
  // Steps from Sigma: ⌈(δσ+τφ)/(δ+τ)⌉ − σ = ⌈τ(φ−σ)/(δ+τ)⌉, which cannot
  // overflow in 128 bits.
  uint64_t Left = How == Split::Binomial && Shares != 0
                      ? uint64_t((u128(Tau) * Span + Shares - 1) / Shares)
                      : ceilDiv(Span, 2);
  if (Span >= 2)
    Left = Left < 1 ? 1 : Left > Span - 1 ? Span - 1 : Left;
  return Sigma + Left;
}

ScheduleParams resolveParams(Criterion Crit, Split How, uint64_t N, uint64_t D,
                             uint64_t T, uint64_t Alpha) {
  if (Alpha == 0)
    Alpha = DefaultLeafSteps;
  uint64_t Need = ceilDiv(N, Alpha);
  bool Reached;
  uint64_t Balanced = leastCount(
      Need, [&](uint64_t X) { return leafCapacity(How, X, X); }, &Reached);
  ScheduleParams P = {Balanced, Balanced, Alpha};
  if (Crit == Criterion::Space) {
    P.Snapshots = D ? D : Balanced;
    Reached = leastReps(How, P.Snapshots, Need, &P.Reps);
  } else if (Crit == Criterion::Time) {
    P.Reps = T ? T : Balanced;
    P.Snapshots = leastCount(
        Need, [&](uint64_t X) { return leafCapacity(How, X, P.Reps); },
        &Reached);
  }
  if (!Reached)
    P.LeafSteps = ceilDiv(N, leafCapacity(How, P.Snapshots, P.Reps));
  return P;
}

ScheduleStats runSchedule(Computation &C, Computation::Snapshot Start,
                          uint64_t N, Strategy S, Split How,
                          const ScheduleParams &P) {
  Walker W(C, How, P.LeafSteps);
  if (S == Strategy::Binary)
    W.binary(Start, 0, N, P.Snapshots, P.Reps, 0);
  else
    W.treeverse(Start, 0, 0, N, P.Snapshots, P.Reps, 0);
  return W.Stats;
}

ScheduleStats runOnlineSchedule(Computation &C, Computation::Snapshot Start,
                                Split How, Criterion Crit, uint64_t D,
                                uint64_t T, uint64_t Alpha,
                                OnlineOutcome *Out) {
  if (Alpha == 0)
    Alpha = DefaultLeafSteps;
  ChunkSnapshot Kept[MaxChunkSnapshots] = {{Start, 0, 0}};
  unsigned Live = 1;
  ScheduleStats Stats = {};
  Stats.PeakLiveSnapshots = 1;
  uint64_t Reached, Chunks = 0;
  while (C.advance(Alpha, &Reached)) {
    Kept[Live++] = {C.capture(), ++Chunks, Reached};
    if (Live > Stats.PeakLiveSnapshots)
      Stats.PeakLiveSnapshots = Live;
    mergeSpans(C, Kept, Live);
  }
  Out->Steps = Reached;
  Out->Chunks = Chunks;
  for (uint64_t Hi = Reached, HiChunk = Chunks + 1; Live != 0;) {
    const ChunkSnapshot &From = Kept[Live - 1];
    // Chunks overshoot α to the next point where the run could stop, so a
    // span of 2^k chunks is a little longer than 2^k α: with α it would
    // need twice the stages. Its own chunks' average length keeps it at
    // 2^k, and the counts no larger.
    uint64_t Span = Hi - From.Position;
    uint64_t PerChunk = ceilDiv(Span, HiChunk - From.Chunk);
    ScheduleParams P = resolveParams(Crit, How, Span, D, T,
                                     PerChunk > Alpha ? PerChunk : Alpha);
    Walker W(C, How, P.LeafSteps, Live);
    W.binary(From.S, From.Position, Hi, P.Snapshots, P.Reps, 0);
    accumulate(Stats, W.Stats);
    Hi = From.Position;
    HiChunk = From.Chunk;
    if (--Live != 0)
      C.release(From.S);
  }
  return Stats;
}

} // namespace capsule
