//===- SchedulerTest.cpp - Checkpoint schedules over a mock computation ---===//
#include "Scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

using namespace capsule;

namespace {

using u128 = unsigned __int128;

const Strategy Strategies[] = {Strategy::Binary, Strategy::Treeverse};
const Split Splits[] = {Split::Bisection, Split::Binomial};

std::string describe(Strategy S, Split How, uint64_t N,
                     const ScheduleParams &P) {
  return std::string(S == Strategy::Binary ? "binary" : "treeverse") + "-" +
         (How == Split::Bisection ? "bisection" : "binomial") +
         " n=" + std::to_string(N) + " d=" + std::to_string(P.Snapshots) +
         " t=" + std::to_string(P.Reps) +
         " alpha=" + std::to_string(P.LeafSteps);
}

/// A computation that only counts steps. A snapshot is a heap-allocated
/// position; the mock checks that snapshots are used while alive and
/// released in LIFO order, and records every call.
class MockComputation final : public Computation {
public:
  /// The first point at or after a position where the computation can stop
  /// (it may exceed N; the end caps it).
  using StopFinder = std::function<uint64_t(uint64_t)>;

  struct Span {
    uint64_t Begin, End;
  };
  /// 'i' interrupt (From, Reached), 's' stage (Begin, End), 'r' release.
  struct Event {
    char Kind;
    uint64_t A, B;
    bool operator==(const Event &O) const {
      return Kind == O.Kind && A == O.A && B == O.B;
    }
  };

  explicit MockComputation(uint64_t N, StopFinder NextStop = nullptr)
      : N(N), NextStop(std::move(NextStop)) {
    Live.push_back(new Snap{0});
  }
  ~MockComputation() {
    for (Snap *S : Live)
      delete S;
  }

  Snapshot start() { return Live.front(); }

  Snapshot interrupt(Snapshot From, uint64_t Steps,
                     uint64_t *Reached) override {
    uint64_t Pos = position(From);
    uint64_t Target = Steps > N - std::min(Pos, N) ? N : Pos + Steps;
    uint64_t At =
        NextStop && Target < N ? std::min(N, NextStop(Target)) : Target;
    Recomputed += At - Pos;
    Taken.insert(At);
    Live.push_back(new Snap{At});
    Peak = std::max<uint64_t>(Peak, Live.size());
    Events.push_back({'i', Pos, At});
    *Reached = At;
    return Live.back();
  }

  void gradientOfStage(Snapshot From, uint64_t Steps) override {
    if (Stages.empty())
      for (Snap *S : Live)
        LiveAtFirstStage.push_back(S->Pos);
    uint64_t Pos = position(From);
    Stages.push_back({Pos, Pos + Steps});
    Events.push_back({'s', Pos, Pos + Steps});
  }

  bool advance(uint64_t Steps, uint64_t *Reached) override {
    uint64_t Target = Steps > N - Cur ? N : Cur + Steps;
    uint64_t At =
        NextStop && Target < N ? std::min(N, NextStop(Target)) : Target;
    Advanced += At - Cur;
    Events.push_back({'a', Cur, At});
    Cur = At;
    *Reached = At;
    return At < N;
  }

  Snapshot capture() override {
    Taken.insert(Cur);
    Live.push_back(new Snap{Cur});
    Peak = std::max<uint64_t>(Peak, Live.size());
    Events.push_back({'c', Cur, 0});
    return Live.back();
  }

  void release(Snapshot S) override {
    auto It = std::find(Live.begin() + 1, Live.end(), S);
    if (Stages.empty() && It != Live.end() && *It != Live.back()) {
      // The online schedule's first run thins older snapshots.
      Events.push_back({'r', position(S), 0});
      delete *It;
      Live.erase(It);
      ++OlderReleases;
      return;
    }
    if (Live.size() < 2 || Live.back() != S) {
      ++LifoViolations;
      return;
    }
    Events.push_back({'r', position(S), 0});
    delete Live.back();
    Live.pop_back();
  }

  uint64_t N;
  StopFinder NextStop;
  std::vector<Span> Stages;
  std::vector<Event> Events;
  std::unordered_set<uint64_t> Taken;
  std::vector<uint64_t> LiveAtFirstStage;
  uint64_t Cur = 0; ///< where the last advance() stopped
  uint64_t Recomputed = 0, Advanced = 0, Peak = 1, LifoViolations = 0,
           OlderReleases = 0, DeadUses = 0;
  size_t LiveCount() const { return Live.size(); }

private:
  struct Snap {
    uint64_t Pos;
  };

  uint64_t position(Snapshot S) {
    if (std::find(Live.begin(), Live.end(), S) == Live.end()) {
      ++DeadUses;
      return 0;
    }
    return static_cast<Snap *>(S)->Pos;
  }

  std::vector<Snap *> Live;
};

/// Checks what holds for every schedule, offline or online: the stages
/// tile [0, N] from right to left, so each step is taped exactly once (only
/// the last stage of an online schedule may be empty, where the run ended
/// right after its last stop); every stage ends at N or where a snapshot
/// was taken; snapshots are used alive and released LIFO, all but the
/// caller's; the statistics say what happened.
void checkTiling(const MockComputation &M, const ScheduleStats &Stats,
                 const std::string &Where, bool Online) {
  uint64_t N = M.N;
  EXPECT_FALSE(M.Stages.empty()) << Where;
  if (M.Stages.empty())
    return;
  EXPECT_EQ(M.Stages.front().End, N) << Where;
  EXPECT_EQ(M.Stages.back().Begin, 0u) << Where;
  uint64_t Taped = 0;
  for (size_t I = 0; I != M.Stages.size(); ++I) {
    const MockComputation::Span &Stage = M.Stages[I];
    EXPECT_TRUE(Stage.Begin < Stage.End || N == 0 || (Online && I == 0))
        << Where << " stage " << I;
    if (I != 0)
      EXPECT_EQ(Stage.End, M.Stages[I - 1].Begin) << Where << " stage " << I;
    EXPECT_TRUE(Stage.End == N || M.Taken.count(Stage.End))
        << Where << " stage " << I << " ends at " << Stage.End;
    Taped += Stage.End - Stage.Begin;
  }
  EXPECT_EQ(Taped, N) << Where;
  EXPECT_EQ(Stats.TapedSteps, N) << Where;
  EXPECT_EQ(Stats.Stages, M.Stages.size()) << Where;
  EXPECT_EQ(Stats.RecomputedSteps, M.Recomputed) << Where;
  EXPECT_EQ(Stats.PeakLiveSnapshots, M.Peak) << Where;
  EXPECT_EQ(M.LifoViolations, 0u) << Where;
  EXPECT_EQ(M.DeadUses, 0u) << Where;
  EXPECT_EQ(M.LiveCount(), 1u) << Where << ": snapshots left alive";
}

/// Runs one offline schedule on a fresh mock and checks checkTiling and
/// its bounds: at most d + 1 snapshots are alive, counting the caller's;
/// each step runs untaped at most t times; the tree is no deeper than its
/// counts allow.
ScheduleStats runAndCheck(MockComputation &M, Strategy S, Split How,
                          const ScheduleParams &P) {
  uint64_t N = M.N;
  ScheduleStats Stats = runSchedule(M, M.start(), N, S, How, P);
  std::string Where = describe(S, How, N, P);
  checkTiling(M, Stats, Where, /*Online=*/false);
  EXPECT_EQ(M.Advanced, 0u) << Where;
  EXPECT_EQ(M.OlderReleases, 0u) << Where;
  EXPECT_LE(u128(Stats.PeakLiveSnapshots), u128(P.Snapshots) + 1) << Where;
  EXPECT_LE(u128(Stats.RecomputedSteps), u128(P.Reps) * N) << Where;
  u128 DepthBound =
      S == Strategy::Binary ? u128(P.Snapshots) + P.Reps : u128(P.Snapshots);
  EXPECT_LE(u128(Stats.MaxDepth), DepthBound) << Where;
  return Stats;
}

uint64_t longestStage(const MockComputation &M) {
  uint64_t Longest = 0;
  for (const MockComputation::Span &Stage : M.Stages)
    Longest = std::max(Longest, Stage.End - Stage.Begin);
  return Longest;
}

const uint64_t Lengths[] = {0, 1, 2, 3, 10, 100, 1000, 12345};

/// The parameters of every criterion for N steps: each given count with a
/// few leaf budgets, plus the defaults (0).
std::vector<ScheduleParams> resolvedParams(Split How, uint64_t N) {
  std::vector<ScheduleParams> All;
  for (uint64_t Alpha : {0, 1, 4, 100}) {
    for (uint64_t Count : {0, 1, 2, 5}) {
      All.push_back(resolveParams(Criterion::Space, How, N, Count, 0, Alpha));
      All.push_back(resolveParams(Criterion::Time, How, N, 0, Count, Alpha));
    }
    All.push_back(resolveParams(Criterion::Log, How, N, 0, 0, Alpha));
  }
  return All;
}

TEST(SchedulerTest, ResolvedSchedulesTileAndKeepTheirBounds) {
  for (Strategy S : Strategies)
    for (Split How : Splits)
      for (uint64_t N : Lengths)
        for (const ScheduleParams &P : resolvedParams(How, N)) {
          MockComputation M(N);
          runAndCheck(M, S, How, P);
          // resolveParams keeps N ≤ α·leafCapacity(d, t), so neither count
          // runs out before the stages are down to α steps.
          EXPECT_LE(longestStage(M), std::max<uint64_t>(P.LeafSteps, 1))
              << describe(S, How, N, P);
        }
}

TEST(SchedulerTest, AnyCountsTileEvenWhenStagesExceedAlpha) {
  // Counts too small for N: stages longer than α where δ or τ ran out.
  const ScheduleParams Params[] = {
      {0, 5, 1}, {5, 0, 1}, {0, 0, 1},  {1, 1, 1},  {2, 2, 1},  {3, 1, 2},
      {1, 3, 2}, {4, 4, 0}, {7, 2, 10}, {2, 7, 10}, {40, 40, 1}};
  for (Strategy S : Strategies)
    for (Split How : Splits)
      for (uint64_t N : Lengths)
        for (const ScheduleParams &P : Params) {
          MockComputation M(N);
          ScheduleStats Stats = runAndCheck(M, S, How, P);
          if (P.Snapshots == 0 || P.Reps == 0) {
            EXPECT_EQ(Stats.Stages, 1u) << describe(S, How, N, P);
            EXPECT_EQ(Stats.RecomputedSteps, 0u) << describe(S, How, N, P);
          }
          if (u128(std::max<uint64_t>(P.LeafSteps, 1)) *
                  leafCapacity(How, P.Snapshots, P.Reps) >=
              N)
            EXPECT_LE(longestStage(M), std::max<uint64_t>(P.LeafSteps, 1))
                << describe(S, How, N, P);
        }
}

TEST(SchedulerTest, EmptyComputationIsOneEmptyStage) {
  for (Strategy S : Strategies) {
    MockComputation M(0);
    ScheduleStats Stats = runSchedule(M, M.start(), 0, S, Split::Binomial,
                                      ScheduleParams{3, 3, 1});
    ASSERT_EQ(M.Stages.size(), 1u);
    EXPECT_EQ(M.Stages[0].Begin, 0u);
    EXPECT_EQ(M.Stages[0].End, 0u);
    EXPECT_EQ(Stats.PeakLiveSnapshots, 1u);
  }
}

std::vector<uint64_t> splitPoints(uint64_t N, Split How,
                                  const ScheduleParams &P) {
  MockComputation M(N);
  runSchedule(M, M.start(), N, Strategy::Binary, How, P);
  std::vector<uint64_t> Points;
  for (const MockComputation::Event &E : M.Events)
    if (E.Kind == 'i')
      Points.push_back(E.B);
  return Points;
}

TEST(SchedulerTest, BisectionHalvesAsFigure27Does) {
  // One step a stage, ample counts: eight steps split at 4, then 6 and 2,
  // then the odd positions; the left part gets the odd step (eq. 12).
  ScheduleParams P = {10, 10, 1};
  EXPECT_EQ(splitPoints(8, Split::Bisection, P),
            (std::vector<uint64_t>{4, 6, 7, 5, 2, 3, 1}));
  EXPECT_EQ(splitPoints(5, Split::Bisection, P),
            (std::vector<uint64_t>{3, 4, 2, 1}));
}

TEST(SchedulerTest, BinomialSplitFollowsTheCountsLeft) {
  // δ = 2, τ = 1 on 6 steps: ⌈1·6/3⌉ = 2. The right part [2, 6] has δ = 1:
  // 2 + ⌈1·4/2⌉ = 4, leaving [4, 6] with δ = 0 and [2, 4] with τ = 0, one
  // stage each, as is the left part [0, 2].
  EXPECT_EQ(splitPoints(6, Split::Binomial, ScheduleParams{2, 1, 1}),
            (std::vector<uint64_t>{2, 4}));
}

TEST(SchedulerTest, BinaryAndTreeverseBuildTheSameSchedule) {
  // BINARY's right branch is TREEVERSE's nested call, its left branch
  // TREEVERSE's REST, and their MIDs agree (relative in Fig. 27, absolute in
  // Fig. 26): the calls to the computation are identical, with or without
  // overshooting stops.
  MockComputation::StopFinder Stops[] = {
      nullptr, [](uint64_t P) { return (P + 6) / 7 * 7; }};
  for (const MockComputation::StopFinder &Stop : Stops)
    for (Split How : Splits)
      for (uint64_t N : Lengths)
        for (const ScheduleParams &P : resolvedParams(How, N)) {
          MockComputation B(N, Stop), T(N, Stop);
          ScheduleStats SB =
              runSchedule(B, B.start(), N, Strategy::Binary, How, P);
          ScheduleStats ST =
              runSchedule(T, T.start(), N, Strategy::Treeverse, How, P);
          EXPECT_TRUE(B.Events == T.Events)
              << describe(Strategy::Binary, How, N, P);
          EXPECT_EQ(SB.RecomputedSteps, ST.RecomputedSteps);
          EXPECT_EQ(SB.PeakLiveSnapshots, ST.PeakLiveSnapshots);
          EXPECT_GE(SB.MaxDepth, ST.MaxDepth);
        }
}

//===----------------------------------------------------------------------===//
// Griewank & Walther's optimum.
//
// With s checkpoints (revolve's "snaps", counting the one that holds the
// initial state) and one step a stage, the fewest untaped steps that
// reverse n steps are t(n, s) = r·n − C(s + r, s + 1), r the least with
// C(s + r, s) ≥ n; by recurrence, t(n, s) = min over 0 < i < n of
// i + t(i, s) + t(n − i, s − 1), t(n, 1) = n(n − 1)/2, t(1, s) = 0.
//
// Mapping s to the scheduler: revolve advances a working state besides its
// checkpoints, which is not counted; here that state is a snapshot too (a
// stage starts from one), while the caller's initial snapshot is not counted
// in d. Both recurrences then agree, so s = d: a right branch (δ − 1) is the
// new checkpoint of t(n − i, s − 1), a left branch re-advances i steps from
// the same checkpoint. So d = s, t = r, α = 1, and at most s + 1 snapshots
// are alive counting the initial one.
//===----------------------------------------------------------------------===//

uint64_t binomial(uint64_t N, uint64_t K) {
  u128 Value = 1;
  for (uint64_t I = 1; I <= K; ++I)
    Value = Value * (N - K + I) / I;
  return uint64_t(Value);
}

uint64_t leastReps(uint64_t N, uint64_t S) {
  uint64_t R = 0;
  while (binomial(S + R, S) < N)
    ++R;
  return R;
}

uint64_t griewankWalther(uint64_t N, uint64_t S) {
  uint64_t R = leastReps(N, S);
  return R * N - binomial(S + R, S + 1);
}

TEST(SchedulerTest, GriewankWaltherFormulaMatchesItsRecurrence) {
  constexpr uint64_t MaxN = 200, MaxS = 8;
  std::vector<std::vector<uint64_t>> T(MaxS + 1,
                                       std::vector<uint64_t>(MaxN + 1));
  for (uint64_t N = 1; N <= MaxN; ++N)
    T[1][N] = N * (N - 1) / 2;
  for (uint64_t S = 2; S <= MaxS; ++S)
    for (uint64_t N = 2; N <= MaxN; ++N) {
      uint64_t Best = UINT64_MAX;
      for (uint64_t I = 1; I < N; ++I)
        Best = std::min(Best, I + T[S][I] + T[S - 1][N - I]);
      T[S][N] = Best;
    }
  for (uint64_t S = 1; S <= MaxS; ++S)
    for (uint64_t N = 1; N <= MaxN; ++N)
      EXPECT_EQ(griewankWalther(N, S), T[S][N]) << "n=" << N << " s=" << S;
}

ScheduleStats runRevolveSetting(Strategy S, uint64_t N, uint64_t Snaps) {
  MockComputation M(N);
  ScheduleParams P = {Snaps, leastReps(N, Snaps), 1};
  return runAndCheck(M, S, Split::Binomial, P);
}

TEST(SchedulerTest, BinomialSplitIsOptimalAtFullCapacity) {
  // At n = η(s, r), eq. 16 reproduces revolve: each split gives the right
  // part exactly η(s − 1, r) steps. Small cases from the recurrence's
  // range, larger ones by the formula.
  std::vector<std::pair<uint64_t, uint64_t>> Cases; // (s, r)
  for (uint64_t S = 1; S <= 8; ++S)
    for (uint64_t R = 1; binomial(S + R, S) <= 200; ++R)
      Cases.push_back({S, R});
  for (auto Large :
       {std::make_pair(1, 300), std::make_pair(2, 60), std::make_pair(3, 25),
        std::make_pair(4, 30), std::make_pair(6, 9), std::make_pair(12, 5)})
    Cases.push_back(Large);
  for (Strategy Strat : Strategies)
    for (auto [S, R] : Cases) {
      uint64_t N = binomial(S + R, S);
      ScheduleStats Stats = runRevolveSetting(Strat, N, S);
      EXPECT_EQ(Stats.RecomputedSteps, griewankWalther(N, S))
          << "n=" << N << " s=" << S << " r=" << R;
      // s checkpoints besides the initial state, as revolve keeps s
      // checkpoints beside its working state.
      EXPECT_EQ(Stats.PeakLiveSnapshots, S + 1) << "n=" << N << " s=" << S;
    }
}

TEST(SchedulerTest, BinomialSplitStaysWithinRepsOfTheOptimum) {
  // Between full capacities eq. 16 is not optimal: its ceiling and the fixed
  // τ = r send more steps left than revolve would (n = 7, s = 2: 12 untaped
  // steps, the optimum 11; up to about 0.45·n more for n ≤ 5000, s ≤ 8).
  // What it guarantees is the bound of any schedule with t = r: a step runs
  // untaped once per left branch above it, at most r times, so r·n. The
  // optimum itself is a lower bound: a schedule that beat it would mean d
  // counts one snapshot more than revolve's s.
  uint64_t Optimal = 0, Total = 0;
  for (Strategy Strat : Strategies)
    for (uint64_t S = 1; S <= 8; ++S)
      for (uint64_t N = 1; N <= 200; ++N) {
        ScheduleStats Stats = runRevolveSetting(Strat, N, S);
        uint64_t Best = griewankWalther(N, S);
        EXPECT_GE(Stats.RecomputedSteps, Best) << "n=" << N << " s=" << S;
        EXPECT_LE(Stats.RecomputedSteps, leastReps(N, S) * N)
            << "n=" << N << " s=" << S;
        Optimal += Stats.RecomputedSteps == Best;
        ++Total;
      }
  // Optimal for n ≤ s + 1 and in a range above each full capacity.
  EXPECT_GT(Optimal, Total / 3);
  EXPECT_LT(Optimal, Total);
}

//===----------------------------------------------------------------------===//
// Overshooting computations: a real program stops only at its next yield
// point, so interrupt() lands at or after the position asked for.
//===----------------------------------------------------------------------===//

MockComputation::StopFinder everyNth(uint64_t Grain) {
  return [Grain](uint64_t P) { return (P + Grain - 1) / Grain * Grain; };
}

MockComputation::StopFinder randomStops(uint64_t N, unsigned Seed) {
  std::mt19937_64 Random(Seed);
  auto Stops = std::make_shared<std::vector<uint64_t>>();
  for (uint64_t P = 1; P < N; ++P)
    if (Random() % 5 == 0)
      Stops->push_back(P);
  return [Stops, N](uint64_t P) {
    auto It = std::lower_bound(Stops->begin(), Stops->end(), P);
    return It == Stops->end() ? N : *It;
  };
}

TEST(SchedulerTest, OvershootingStopsStillTileTheComputation) {
  for (Strategy S : Strategies)
    for (Split How : Splits)
      for (uint64_t N : Lengths)
        for (const ScheduleParams &P : resolvedParams(How, N)) {
          for (uint64_t Grain : {2, 3, 7, 64}) {
            MockComputation M(N, everyNth(Grain));
            runAndCheck(M, S, How, P);
          }
          MockComputation R(N, randomStops(N, unsigned(N)));
          runAndCheck(R, S, How, P);
        }
}

TEST(SchedulerTest, NoStopBeforeTheEndMeansOneStage) {
  // Each attempted split runs to the end, which cannot split anything: the
  // snapshot is dropped and the whole computation is one stage.
  for (Strategy S : Strategies) {
    MockComputation M(1000, [](uint64_t) { return UINT64_MAX; });
    ScheduleStats Stats =
        runAndCheck(M, S, Split::Binomial, ScheduleParams{4, 4, 10});
    EXPECT_EQ(Stats.Stages, 1u);
    EXPECT_EQ(Stats.RecomputedSteps, 1000u);
    EXPECT_EQ(Stats.PeakLiveSnapshots, 2u);
  }
}

//===----------------------------------------------------------------------===//
// MID and eq. (23).
//===----------------------------------------------------------------------===//

TEST(SchedulerTest, MidFollowsEquations12And16) {
  EXPECT_EQ(mid(Split::Bisection, 3, 3, 10, 20), 15u);
  EXPECT_EQ(mid(Split::Bisection, 3, 3, 10, 21), 16u);
  // ⌈(δσ + τφ)/(δ + τ)⌉ = ⌈(2·10 + 3·20)/5⌉ = 16.
  EXPECT_EQ(mid(Split::Binomial, 2, 3, 10, 20), 16u);
  EXPECT_EQ(mid(Split::Binomial, 3, 2, 10, 21), 15u);
  // Kept strictly inside: τ ≫ δ would give φ, τ = 0 would give σ.
  EXPECT_EQ(mid(Split::Binomial, 1, 100, 0, 5), 4u);
  EXPECT_EQ(mid(Split::Binomial, 5, 0, 0, 5), 1u);
  // δ + τ = 0 falls back to bisection.
  EXPECT_EQ(mid(Split::Binomial, 0, 0, 0, 9), 5u);
  // No overflow with huge counts and positions.
  EXPECT_EQ(mid(Split::Binomial, UINT64_MAX, UINT64_MAX, 0, UINT64_MAX),
            UINT64_MAX / 2 + 1);
  EXPECT_EQ(mid(Split::Bisection, 1, 1, UINT64_MAX - 4, UINT64_MAX),
            UINT64_MAX - 2);
}

// C(D + T, T) exactly, or UINT64_MAX when larger.
uint64_t referenceEta(uint64_t D, uint64_t T) {
  // Pascal's rule on a row, saturating: slow, independent of eta().
  std::vector<uint64_t> Row(T + 1, 1);
  for (uint64_t I = 1; I <= D; ++I)
    for (uint64_t J = 1; J <= T; ++J)
      Row[J] =
          Row[J] > UINT64_MAX - Row[J - 1] ? UINT64_MAX : Row[J] + Row[J - 1];
  return Row[T];
}

TEST(SchedulerTest, EtaIsTheBinomialCoefficient) {
  for (uint64_t D = 0; D <= 70; ++D)
    for (uint64_t T = 0; T <= 70; ++T)
      ASSERT_EQ(eta(D, T), referenceEta(D, T)) << "d=" << D << " t=" << T;
  EXPECT_EQ(eta(2, 2), 6u);
  EXPECT_EQ(eta(3, 5), 56u);
  EXPECT_EQ(eta(33, 33), 7219428434016265740u);
  EXPECT_EQ(eta(34, 34), UINT64_MAX);
  EXPECT_EQ(eta(1, UINT64_MAX - 2), UINT64_MAX - 1);
  EXPECT_EQ(eta(1, UINT64_MAX - 1), UINT64_MAX);
  EXPECT_EQ(eta(UINT64_MAX, 1), UINT64_MAX);
  EXPECT_EQ(eta(UINT64_MAX, UINT64_MAX), UINT64_MAX);
  EXPECT_EQ(eta(2, uint64_t(1) << 32),
            ((uint64_t(1) << 32) + 2) / 2 * ((uint64_t(1) << 32) + 1));
  EXPECT_EQ(eta(0, UINT64_MAX), 1u);
}

TEST(SchedulerTest, LeafCapacityOfBisectionIsAPowerOfTwo) {
  EXPECT_EQ(leafCapacity(Split::Bisection, 3, 5), 8u);
  EXPECT_EQ(leafCapacity(Split::Bisection, 5, 3), 8u);
  EXPECT_EQ(leafCapacity(Split::Bisection, 0, 9), 1u);
  EXPECT_EQ(leafCapacity(Split::Bisection, 63, 63), uint64_t(1) << 63);
  EXPECT_EQ(leafCapacity(Split::Bisection, 64, 100), UINT64_MAX);
  EXPECT_EQ(leafCapacity(Split::Binomial, 3, 5), 56u);
}

const uint64_t ResolveLengths[] = {
    0, 1, 2, 3, 10, 100, 1000, 12345, 1000000000, 1000000000000000, UINT64_MAX};

u128 covered(Split How, const ScheduleParams &P) {
  return u128(P.LeafSteps) * leafCapacity(How, P.Snapshots, P.Reps);
}

TEST(SchedulerTest, SpaceComputesTheLeastReps) {
  for (Split How : Splits)
    for (uint64_t N : ResolveLengths)
      for (uint64_t D : {1, 2, 3, 8, 20})
        for (uint64_t Alpha : {1, 7, 1 << 20}) {
          ScheduleParams P =
              resolveParams(Criterion::Space, How, N, D, 99, Alpha);
          std::string Where = "n=" + std::to_string(N) +
                              " d=" + std::to_string(D) +
                              " alpha=" + std::to_string(Alpha);
          EXPECT_EQ(P.Snapshots, D) << Where;
          EXPECT_GE(covered(How, P), N) << Where;
          if (u128(Alpha) * leafCapacity(How, D, UINT64_MAX) >= N) {
            // α = ⌈n/η(d, t)⌉ rounded the only way integers allow: t is the
            // least with ⌈n/η(d, t)⌉ ≤ α.
            EXPECT_EQ(P.LeafSteps, Alpha) << Where;
            if (P.Reps)
              EXPECT_LT(u128(Alpha) * leafCapacity(How, D, P.Reps - 1), N)
                  << Where;
          } else {
            // Bisection with 2^d·α < n: no t helps, so t = d and α grows.
            EXPECT_EQ(How, Split::Bisection) << Where;
            EXPECT_EQ(P.Reps, D) << Where;
            EXPECT_EQ(P.LeafSteps, (N - 1) / (uint64_t(1) << D) + 1) << Where;
          }
        }
}

TEST(SchedulerTest, TimeComputesTheLeastSnapshots) {
  for (Split How : Splits)
    for (uint64_t N : ResolveLengths)
      for (uint64_t T : {1, 2, 3, 8, 20})
        for (uint64_t Alpha : {1, 7, 1 << 20}) {
          ScheduleParams P =
              resolveParams(Criterion::Time, How, N, 99, T, Alpha);
          std::string Where = "n=" + std::to_string(N) +
                              " t=" + std::to_string(T) +
                              " alpha=" + std::to_string(Alpha);
          EXPECT_EQ(P.Reps, T) << Where;
          EXPECT_GE(covered(How, P), N) << Where;
          if (u128(Alpha) * leafCapacity(How, UINT64_MAX, T) >= N) {
            EXPECT_EQ(P.LeafSteps, Alpha) << Where;
            if (P.Snapshots)
              EXPECT_LT(u128(Alpha) * leafCapacity(How, P.Snapshots - 1, T), N)
                  << Where;
          } else {
            EXPECT_EQ(P.Snapshots, T) << Where;
            EXPECT_GT(P.LeafSteps, Alpha) << Where;
          }
        }
}

TEST(SchedulerTest, LogComputesEqualCounts) {
  for (Split How : Splits)
    for (uint64_t N : ResolveLengths)
      for (uint64_t Alpha : {1, 7, 1 << 20}) {
        ScheduleParams P = resolveParams(Criterion::Log, How, N, 5, 9, Alpha);
        std::string Where =
            "n=" + std::to_string(N) + " alpha=" + std::to_string(Alpha);
        EXPECT_EQ(P.Snapshots, P.Reps) << Where;
        EXPECT_EQ(P.LeafSteps, Alpha) << Where;
        EXPECT_GE(covered(How, P), N) << Where;
        if (P.Snapshots)
          EXPECT_LT(u128(Alpha) *
                        leafCapacity(How, P.Snapshots - 1, P.Snapshots - 1),
                    N)
              << Where;
      }
}

TEST(SchedulerTest, ResolveFillsInDefaults) {
  uint64_t N = uint64_t(1) << 30;
  ScheduleParams Log =
      resolveParams(Criterion::Log, Split::Binomial, N, 0, 0, 0);
  EXPECT_EQ(Log.LeafSteps, DefaultLeafSteps);
  // 2^30 / 2^20 = 1024 stages: C(12, 6) = 924 < 1024 ≤ C(14, 7) = 3432.
  EXPECT_EQ(Log.Snapshots, 7u);
  ScheduleParams Space =
      resolveParams(Criterion::Space, Split::Binomial, N, 0, 0, 0);
  EXPECT_EQ(Space.Snapshots, Log.Snapshots);
  ScheduleParams Time =
      resolveParams(Criterion::Time, Split::Binomial, N, 0, 0, 0);
  EXPECT_EQ(Time.Reps, Log.Reps);
  // Bisection needs 2^10 = 1024.
  EXPECT_EQ(
      resolveParams(Criterion::Log, Split::Bisection, N, 0, 0, 0).Snapshots,
      10u);
  // No longer than α: no checkpointing at all.
  ScheduleParams Short =
      resolveParams(Criterion::Log, Split::Bisection, 1000, 0, 0, 0);
  EXPECT_EQ(Short.Snapshots, 0u);
  EXPECT_EQ(Short.Reps, 0u);
}

TEST(SchedulerTest, ResolveSaturatesWithHugeComputations) {
  ScheduleParams Log =
      resolveParams(Criterion::Log, Split::Binomial, UINT64_MAX, 0, 0, 1);
  EXPECT_EQ(Log.Snapshots, 34u); // C(66, 33) < 2^64 - 1 ≤ C(68, 34)
  EXPECT_EQ(resolveParams(Criterion::Log, Split::Bisection, UINT64_MAX, 0, 0, 1)
                .Snapshots,
            64u);
  EXPECT_EQ(
      resolveParams(Criterion::Space, Split::Binomial, UINT64_MAX, 1, 0, 1)
          .Reps,
      UINT64_MAX - 1);
  EXPECT_EQ(resolveParams(Criterion::Time, Split::Binomial, UINT64_MAX, 0, 1, 1)
                .Snapshots,
            UINT64_MAX - 1);
}

//===----------------------------------------------------------------------===//
// The online schedule: no step count beforehand.
//===----------------------------------------------------------------------===//

struct OnlineCase {
  Split How;
  Criterion Crit;
  uint64_t D, T, Alpha;
};

std::string describe(const OnlineCase &C, uint64_t N) {
  return std::string("online-") +
         (C.How == Split::Bisection ? "bisection" : "binomial") +
         " criterion=" + std::to_string(int(C.Crit)) +
         " n=" + std::to_string(N) + " d=" + std::to_string(C.D) +
         " t=" + std::to_string(C.T) + " alpha=" + std::to_string(C.Alpha);
}

/// Runs the online schedule on a fresh mock and checks checkTiling and the
/// bounds docs/checkpointing.md states: one untaped run counts the steps;
/// the schedule then recomputes each step at most t(n) times, t(n) being
/// what the offline schedule would resolve for all n steps, so it runs no
/// more untaped than the offline schedule's bound including its counting
/// run; at most 2⌊log2(m + 1)⌋ + 2 + d(n) snapshots are alive, m being the
/// chunks the first run snapshotted after.
ScheduleStats runOnlineAndCheck(MockComputation &M, const OnlineCase &C) {
  uint64_t N = M.N;
  OnlineOutcome Out;
  ScheduleStats Stats = runOnlineSchedule(M, M.start(), C.How, C.Crit, C.D,
                                          C.T, C.Alpha, &Out);
  std::string Where = describe(C, N);
  checkTiling(M, Stats, Where, /*Online=*/true);
  EXPECT_EQ(Out.Steps, N) << Where;
  EXPECT_EQ(M.Advanced, N) << Where;
  ScheduleParams Offline = resolveParams(C.Crit, C.How, N, C.D, C.T, C.Alpha);
  EXPECT_LE(u128(Stats.RecomputedSteps), u128(Offline.Reps) * N) << Where;
  u128 Bound = 2 * u128(63 - __builtin_clzll(Out.Chunks + 1)) + 2 +
               Offline.Snapshots;
  EXPECT_LE(u128(Stats.PeakLiveSnapshots), Bound) << Where;
  return Stats;
}

std::vector<OnlineCase> onlineCases() {
  std::vector<OnlineCase> All;
  for (Split How : Splits)
    for (uint64_t Alpha : {0, 1, 4, 100}) {
      All.push_back({How, Criterion::Log, 0, 0, Alpha});
      for (uint64_t Count : {1, 2, 5}) {
        All.push_back({How, Criterion::Space, Count, 0, Alpha});
        All.push_back({How, Criterion::Time, 0, Count, Alpha});
      }
    }
  return All;
}

TEST(SchedulerTest, OnlineSchedulesTileAndKeepTheirBounds) {
  for (uint64_t N : Lengths)
    for (const OnlineCase &C : onlineCases()) {
      MockComputation M(N);
      runOnlineAndCheck(M, C);
      for (uint64_t Grain : {2, 3, 7, 64}) {
        MockComputation G(N, everyNth(Grain));
        runOnlineAndCheck(G, C);
      }
      MockComputation R(N, randomStops(N, unsigned(N)));
      runOnlineAndCheck(R, C);
    }
}

TEST(SchedulerTest, OnlineSpansAreTheChunksInBijectiveBaseTwo) {
  // α = 1 on 13 steps: 12 chunks end where the run can stop, the 13th at
  // the end. Bijective base 2 (digits 1 and 2) writes 12 as 2·4 + 1·2 +
  // 2·1, so the spans are [0, 4], [4, 8], [8, 10], [10, 11] and [11, 12],
  // and the last chunk [12, 13] after them.
  MockComputation M(13);
  OnlineOutcome Out;
  runOnlineSchedule(M, M.start(), Split::Binomial, Criterion::Log, 0, 0, 1,
                    &Out);
  EXPECT_EQ(Out.Chunks, 12u);
  EXPECT_EQ(M.LiveAtFirstStage, (std::vector<uint64_t>{0, 4, 8, 10, 11, 12}));
  // While the run goes, the two oldest of three equal spans merge: after
  // chunk 3 the snapshot at 1 goes ([0, 1], [1, 2], [2, 3] become [0, 2],
  // [2, 3]); after chunk 5, the one at 3, which makes [0, 2], [2, 4],
  // [4, 5]; after chunk 7, the ones at 5 and then at 2.
  auto Has = [&](std::vector<MockComputation::Event> Want) {
    return std::search(M.Events.begin(), M.Events.end(), Want.begin(),
                       Want.end()) != M.Events.end();
  };
  EXPECT_TRUE(Has({{'a', 2, 3}, {'c', 3, 0}, {'r', 1, 0}, {'a', 3, 4}}));
  EXPECT_TRUE(Has({{'a', 4, 5}, {'c', 5, 0}, {'r', 3, 0}, {'a', 5, 6}}));
  EXPECT_TRUE(Has({{'a', 6, 7}, {'c', 7, 0}, {'r', 5, 0}, {'r', 2, 0}}));
}

TEST(SchedulerTest, OnlineWithinOneChunkIsOneStage) {
  // A run shorter than α is never split: one untaped run, one stage.
  MockComputation M(500);
  OnlineOutcome Out;
  ScheduleStats Stats = runOnlineSchedule(M, M.start(), Split::Bisection,
                                          Criterion::Log, 0, 0, 1000, &Out);
  EXPECT_EQ(Out.Steps, 500u);
  EXPECT_EQ(Out.Chunks, 0u);
  EXPECT_EQ(Stats.Stages, 1u);
  EXPECT_EQ(Stats.RecomputedSteps, 0u);
  EXPECT_EQ(Stats.PeakLiveSnapshots, 1u);
}

TEST(SchedulerTest, OnlineSavesMostOfTheCountingRun) {
  // The offline schedule runs n untaped to count, then recomputes. The
  // online one's first run counts, and the snapshots it leaves are close to
  // the splits the binary schedule takes first (n/2, 3n/4, ...), whose
  // recomputation (about n steps) they save: in all it runs at least n/2
  // fewer steps untaped, at powers of two as elsewhere (1039 chunks is the
  // rotation benchmark's l = 3203).
  for (Split How : Splits)
    for (uint64_t Chunks : {1000, 1039, 4096, 12345, 16384, 24000, 32767}) {
      uint64_t N = 16 * Chunks;
      MockComputation Off(N);
      ScheduleParams P = resolveParams(Criterion::Log, How, N, 0, 0, 16);
      ScheduleStats OffStats =
          runSchedule(Off, Off.start(), N, Strategy::Binary, How, P);
      MockComputation On(N);
      OnlineOutcome Out;
      ScheduleStats OnStats = runOnlineSchedule(On, On.start(), How,
                                                Criterion::Log, 0, 0, 16, &Out);
      uint64_t OfflineUntaped = N + OffStats.RecomputedSteps;
      uint64_t OnlineUntaped = N + OnStats.RecomputedSteps;
      EXPECT_LE(OnlineUntaped + N / 2, OfflineUntaped)
          << (How == Split::Bisection ? "bisection" : "binomial")
          << " n=" << N << ": online " << OnlineUntaped << ", offline "
          << OfflineUntaped;
    }
}

} // namespace
