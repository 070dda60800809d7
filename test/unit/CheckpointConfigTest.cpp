//===- CheckpointConfigTest.cpp - The checkpointing policy ----------------===//
#include "CheckpointConfig.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <string>

using namespace capsule;

namespace {

const char *const Variables[] = {"CAPSULE_STRATEGY",    "CAPSULE_SPLIT",
                                 "CAPSULE_CRITERION",   "CAPSULE_SNAPSHOTS",
                                 "CAPSULE_REPS",        "CAPSULE_LEAF_STEPS",
                                 "CAPSULE_MEMORY_LIMIT"};

/// Starts each test with no checkpoint variable set and nothing read or
/// called, whatever the caller's environment holds.
class CheckpointConfigTest : public testing::Test {
protected:
  void SetUp() override { clear(); }
  void TearDown() override { clear(); }

  static void clear() {
    for (const char *Name : Variables)
      unsetenv(Name);
    resetCheckpointConfigForTesting();
  }
};

TEST_F(CheckpointConfigTest, DefaultsAreOnlineBisectionLog) {
  CheckpointPolicy P = checkpointPolicy();
  EXPECT_EQ(P.Strat, Strategy::Online);
  EXPECT_EQ(P.How, Split::Bisection);
  EXPECT_EQ(P.Crit, Criterion::Log);
  EXPECT_EQ(P.Snapshots, 0u);
  EXPECT_EQ(P.Reps, 0u);
  EXPECT_EQ(P.LeafSteps, 0u);
  EXPECT_EQ(P.MemoryLimit, 0u);
}

TEST_F(CheckpointConfigTest, NamesParseInAnyCase) {
  EXPECT_EQ(parseStrategy("binary"), Strategy::Binary);
  EXPECT_EQ(parseStrategy("TreeVerse"), Strategy::Treeverse);
  EXPECT_EQ(parseStrategy("Online"), Strategy::Online);
  EXPECT_EQ(parseSplit("BISECTION"), Split::Bisection);
  EXPECT_EQ(parseSplit("binomial"), Split::Binomial);
  EXPECT_EQ(parseCriterion("space"), Criterion::Space);
  EXPECT_EQ(parseCriterion("Time"), Criterion::Time);
  EXPECT_EQ(parseCriterion("LOG"), Criterion::Log);
  for (const char *Bad : {"", "bin", "binary ", "tree-verse", "revolve"})
    EXPECT_FALSE(parseStrategy(Bad).has_value()) << Bad;
  EXPECT_FALSE(parseSplit("half").has_value());
  EXPECT_FALSE(parseCriterion("memory").has_value());
}

TEST_F(CheckpointConfigTest, EachVariableIsRead) {
  ScopedEnv Strategy("CAPSULE_STRATEGY", "treeverse");
  ScopedEnv Split("CAPSULE_SPLIT", "binomial");
  ScopedEnv Criterion("CAPSULE_CRITERION", "time");
  ScopedEnv Reps("CAPSULE_REPS", "3");
  ScopedEnv Limit("CAPSULE_MEMORY_LIMIT", "1.5G");
  CheckpointPolicy P = checkpointPolicy();
  EXPECT_EQ(P.Strat, capsule::Strategy::Treeverse);
  EXPECT_EQ(P.How, capsule::Split::Binomial);
  EXPECT_EQ(P.Crit, capsule::Criterion::Time);
  EXPECT_EQ(P.Reps, 3u);
  EXPECT_EQ(P.MemoryLimit, (uint64_t(3) << 30) / 2);
}

TEST_F(CheckpointConfigTest, CountsAndLeafStepsAreRead) {
  ScopedEnv Snapshots("CAPSULE_SNAPSHOTS", "12");
  ScopedEnv Leaf("CAPSULE_LEAF_STEPS", "18446744073709551615");
  CheckpointPolicy P = checkpointPolicy();
  EXPECT_EQ(P.Snapshots, 12u);
  EXPECT_EQ(P.LeafSteps, UINT64_MAX);
}

TEST_F(CheckpointConfigTest, UnlimitedMemoryIsNoLimit) {
  ScopedEnv Limit("CAPSULE_MEMORY_LIMIT", "unlimited");
  EXPECT_EQ(checkpointPolicy().MemoryLimit, 0u);
}

TEST_F(CheckpointConfigTest, CriterionIsInferredFromTheCountsGiven) {
  {
    ScopedEnv Snapshots("CAPSULE_SNAPSHOTS", "4");
    resetCheckpointConfigForTesting();
    EXPECT_EQ(checkpointPolicy().Crit, Criterion::Space);
  }
  {
    ScopedEnv Reps("CAPSULE_REPS", "2");
    resetCheckpointConfigForTesting();
    EXPECT_EQ(checkpointPolicy().Crit, Criterion::Time);
  }
  ScopedEnv Leaf("CAPSULE_LEAF_STEPS", "100");
  resetCheckpointConfigForTesting();
  EXPECT_EQ(checkpointPolicy().Crit, Criterion::Log);
}

TEST_F(CheckpointConfigTest, VariablesAreReadOnce) {
  ScopedEnv Strategy("CAPSULE_STRATEGY", "treeverse");
  EXPECT_EQ(checkpointPolicy().Strat, capsule::Strategy::Treeverse);
  setenv("CAPSULE_STRATEGY", "binary", 1);
  EXPECT_EQ(checkpointPolicy().Strat, capsule::Strategy::Treeverse);
}

struct InvalidCase {
  const char *Variable, *Value, *Expected;
};

TEST_F(CheckpointConfigTest, InvalidValuesStopTheProgram) {
  const InvalidCase Cases[] = {
      {"CAPSULE_STRATEGY", "revolve", "binary, treeverse or online"},
      {"CAPSULE_SPLIT", "half", "bisection or binomial"},
      {"CAPSULE_CRITERION", "memory", "space, time or log"},
      {"CAPSULE_SNAPSHOTS", "0", "a positive integer, the snapshots d"},
      {"CAPSULE_SNAPSHOTS", "-3", "a positive integer, the snapshots d"},
      {"CAPSULE_REPS", "2.5", "a positive integer, the repetitions t"},
      {"CAPSULE_REPS", " 2", "a positive integer, the repetitions t"},
      {"CAPSULE_LEAF_STEPS", "1M", "a positive integer, the steps α"},
      {"CAPSULE_LEAF_STEPS", "18446744073709551616",
       "a positive integer, the steps α"},
      {"CAPSULE_MEMORY_LIMIT", "lots",
       "a byte count such as 1048576, 512M, 2G or 'unlimited'"},
  };
  for (const InvalidCase &Case : Cases) {
    ScopedEnv Value(Case.Variable, Case.Value);
    EXPECT_EXIT(checkpointPolicy(), testing::ExitedWithCode(2),
                std::string("capsule: invalid ") + Case.Variable + " value '" +
                    Case.Value + "': expected " + Case.Expected)
        << Case.Variable << "=" << Case.Value;
  }
}

TEST_F(CheckpointConfigTest, CallsOverrideTheEnvironment) {
  ScopedEnv Strategy("CAPSULE_STRATEGY", "binary");
  ScopedEnv Split("CAPSULE_SPLIT", "bisection");
  ScopedEnv Criterion("CAPSULE_CRITERION", "time");
  ScopedEnv Reps("CAPSULE_REPS", "3");
  ScopedEnv Leaf("CAPSULE_LEAF_STEPS", "50");
  capsule_config_strategy("Treeverse");
  capsule_config_split("binomial");
  capsule_config_criterion("space");
  capsule_config_reps(0); // automatic again, as space requires
  capsule_config_snapshots(6);
  capsule_config_leaf_steps(0);
  CheckpointPolicy P = checkpointPolicy();
  EXPECT_EQ(P.Strat, capsule::Strategy::Treeverse);
  EXPECT_EQ(P.How, capsule::Split::Binomial);
  EXPECT_EQ(P.Crit, capsule::Criterion::Space);
  EXPECT_EQ(P.Snapshots, 6u);
  EXPECT_EQ(P.Reps, 0u);
  EXPECT_EQ(P.LeafSteps, 0u);
}

TEST_F(CheckpointConfigTest, MemoryLimitCallOverridesTheEnvironment) {
  ScopedEnv Limit("CAPSULE_MEMORY_LIMIT", "1G");
  capsule_config_memory_limit(1 << 20);
  EXPECT_EQ(checkpointPolicy().MemoryLimit, uint64_t(1) << 20);
  capsule_config_memory_limit(0);
  EXPECT_EQ(checkpointPolicy().MemoryLimit, 0u);
}

TEST_F(CheckpointConfigTest, LoopIterationsAreLeavesUnderTheBinomialSplit) {
  ScopedEnv Snapshots("CAPSULE_SNAPSHOTS", "3");
  ScopedEnv Strategy("CAPSULE_STRATEGY", "treeverse");
  CheckpointPolicy P = loopIterationPolicy(checkpointPolicy());
  EXPECT_EQ(P.LeafSteps, 1u);
  EXPECT_EQ(P.How, capsule::Split::Binomial);
  EXPECT_EQ(P.Strat, capsule::Strategy::Treeverse);
  EXPECT_EQ(P.Crit, capsule::Criterion::Space);
  EXPECT_EQ(P.Snapshots, 3u);
}

TEST_F(CheckpointConfigTest, LoopIterationsRefuseAlphaAndAMemoryLimit) {
  capsule_config_leaf_steps(10);
  EXPECT_EXIT(loopIterationPolicy(checkpointPolicy()),
              testing::ExitedWithCode(2),
              "capsule_config_leaf_steps\\(\\) is set, but "
              "capsule_checkpoint_iteration\\(\\) makes every loop "
              "iteration one leaf");
  capsule_config_reset();
  capsule_config_memory_limit(1 << 20);
  EXPECT_EXIT(loopIterationPolicy(checkpointPolicy()),
              testing::ExitedWithCode(2), "capsule_config_memory_limit");
}

TEST_F(CheckpointConfigTest, BoundedSnapshotsMakeTheDefaultStrategyBinary) {
  {
    ScopedEnv Limit("CAPSULE_MEMORY_LIMIT", "64M");
    EXPECT_EQ(checkpointPolicy().Strat, Strategy::Binary);
  }
  resetCheckpointConfigForTesting();
  capsule_config_snapshots(5);
  EXPECT_EQ(checkpointPolicy().Strat, Strategy::Binary);
  // Asked for, online takes d for each span's schedule.
  capsule_config_strategy("online");
  EXPECT_EQ(checkpointPolicy().Strat, Strategy::Online);
  EXPECT_EQ(checkpointPolicy().Snapshots, 5u);
  // t alone bounds time, not memory.
  capsule_config_reset();
  capsule_config_reps(3);
  EXPECT_EQ(checkpointPolicy().Strat, Strategy::Online);
}

TEST_F(CheckpointConfigTest, OnlineStrategyRefusesAMemoryLimit) {
  ScopedEnv Strategy("CAPSULE_STRATEGY", "ONLINE");
  EXPECT_EQ(checkpointPolicy().Strat, capsule::Strategy::Online);
  capsule_config_memory_limit(1 << 20);
  EXPECT_EXIT(checkpointPolicy(), testing::ExitedWithCode(2),
              "capsule_config_memory_limit\\(\\) fits d and α to the steps "
              "a first run counts, but CAPSULE_STRATEGY asks for the online "
              "schedule");
  // Another strategy from a call makes the variable irrelevant.
  capsule_config_strategy("binary");
  EXPECT_EQ(checkpointPolicy().MemoryLimit, uint64_t(1) << 20);
}

TEST_F(CheckpointConfigTest, ResetReturnsToTheEnvironment) {
  ScopedEnv Strategy("CAPSULE_STRATEGY", "treeverse");
  capsule_config_strategy("binary");
  capsule_config_snapshots(9);
  EXPECT_EQ(checkpointPolicy().Strat, capsule::Strategy::Binary);
  capsule_config_reset();
  CheckpointPolicy P = checkpointPolicy();
  EXPECT_EQ(P.Strat, capsule::Strategy::Treeverse);
  EXPECT_EQ(P.Snapshots, 0u);
}

TEST_F(CheckpointConfigTest, ACallMakesAnInvalidVariableIrrelevant) {
  ScopedEnv Strategy("CAPSULE_STRATEGY", "fastest");
  capsule_config_strategy("treeverse");
  EXPECT_EQ(checkpointPolicy().Strat, capsule::Strategy::Treeverse);
  // ...until the call is forgotten.
  capsule_config_reset();
  EXPECT_EXIT(checkpointPolicy(), testing::ExitedWithCode(2),
              "invalid CAPSULE_STRATEGY value 'fastest'");
}

TEST_F(CheckpointConfigTest, InvalidNamesInCallsStopTheProgram) {
  EXPECT_EXIT(capsule_config_strategy("revolve"), testing::ExitedWithCode(2),
              "capsule: invalid capsule_config_strategy\\(\\) value "
              "'revolve': expected binary, treeverse or online");
  EXPECT_EXIT(capsule_config_split("thirds"), testing::ExitedWithCode(2),
              "capsule: invalid capsule_config_split\\(\\) value 'thirds': "
              "expected bisection or binomial");
  EXPECT_EXIT(capsule_config_criterion(nullptr), testing::ExitedWithCode(2),
              "capsule: invalid capsule_config_criterion\\(\\) value "
              "'\\(null\\)': expected space, time or log");
}

struct ConflictCase {
  std::vector<std::pair<const char *, const char *>> Settings;
  const char *Message;
};

TEST_F(CheckpointConfigTest, ContradictionsStopTheProgram) {
  const ConflictCase Cases[] = {
      {{{"CAPSULE_CRITERION", "space"}, {"CAPSULE_REPS", "3"}},
       "CAPSULE_REPS gives t, but criterion space \\(CAPSULE_CRITERION\\) "
       "computes t from d and α; drop one of them, or use criterion time to "
       "fix t"},
      {{{"CAPSULE_CRITERION", "time"}, {"CAPSULE_SNAPSHOTS", "3"}},
       "CAPSULE_SNAPSHOTS gives d, but criterion time \\(CAPSULE_CRITERION\\) "
       "computes d from t and α; drop one of them, or use criterion space to "
       "fix d"},
      {{{"CAPSULE_CRITERION", "log"}, {"CAPSULE_SNAPSHOTS", "3"}},
       "CAPSULE_SNAPSHOTS gives d, but criterion log \\(CAPSULE_CRITERION\\) "
       "computes d = t from α"},
      {{{"CAPSULE_CRITERION", "log"}, {"CAPSULE_REPS", "3"}},
       "CAPSULE_REPS gives t, but criterion log \\(CAPSULE_CRITERION\\) "
       "computes d = t from α"},
      {{{"CAPSULE_SNAPSHOTS", "3"}, {"CAPSULE_REPS", "3"}},
       "CAPSULE_SNAPSHOTS gives d and CAPSULE_REPS gives t, but one of them "
       "is computed from the other and α; drop one \\(d alone means "
       "criterion space, t alone criterion time\\)"},
      {{{"CAPSULE_MEMORY_LIMIT", "1G"}, {"CAPSULE_SNAPSHOTS", "3"}},
       "CAPSULE_MEMORY_LIMIT picks d and α itself, but CAPSULE_SNAPSHOTS "
       "gives d; drop one of them"},
      {{{"CAPSULE_MEMORY_LIMIT", "1G"}, {"CAPSULE_LEAF_STEPS", "3"}},
       "CAPSULE_MEMORY_LIMIT picks d and α itself, but CAPSULE_LEAF_STEPS "
       "gives α; drop one of them"},
  };
  for (const ConflictCase &Case : Cases) {
    std::vector<std::unique_ptr<ScopedEnv>> Env;
    for (auto [Name, Value] : Case.Settings)
      Env.push_back(std::make_unique<ScopedEnv>(Name, Value));
    EXPECT_EXIT(checkpointPolicy(), testing::ExitedWithCode(2),
                std::string("capsule: conflicting checkpoint settings: ") +
                    Case.Message)
        << Case.Message;
  }
}

TEST_F(CheckpointConfigTest, ContradictionsNameTheCalls) {
  ScopedEnv Reps("CAPSULE_REPS", "3");
  capsule_config_criterion("space");
  EXPECT_EXIT(checkpointPolicy(), testing::ExitedWithCode(2),
              "CAPSULE_REPS gives t, but criterion space "
              "\\(capsule_config_criterion\\(\\)\\)");
  capsule_config_reps(4);
  EXPECT_EXIT(checkpointPolicy(), testing::ExitedWithCode(2),
              "capsule_config_reps\\(\\) gives t, but criterion space "
              "\\(capsule_config_criterion\\(\\)\\)");
  // A time criterion keeps t: no contradiction. Counts may be given in any
  // order; only the combination in force when it is used counts.
  capsule_config_criterion("time");
  EXPECT_EQ(checkpointPolicy().Reps, 4u);
}

TEST_F(CheckpointConfigTest, MemoryLimitGoesWithTimeAndReps) {
  ScopedEnv Reps("CAPSULE_REPS", "2");
  ScopedEnv Limit("CAPSULE_MEMORY_LIMIT", "64M");
  CheckpointPolicy P = checkpointPolicy();
  EXPECT_EQ(P.Crit, Criterion::Time);
  EXPECT_EQ(P.MemoryLimit, uint64_t(64) << 20);
}

TEST_F(CheckpointConfigTest, ResolvePolicyAppliesResolveParams) {
  capsule_config_split("binomial");
  capsule_config_snapshots(3);
  capsule_config_leaf_steps(10);
  CheckpointPolicy P = checkpointPolicy();
  ScheduleParams R = resolvePolicy(P, 1000);
  ScheduleParams Expected =
      resolveParams(Criterion::Space, Split::Binomial, 1000, 3, 0, 10);
  EXPECT_EQ(R.Snapshots, Expected.Snapshots);
  EXPECT_EQ(R.Reps, Expected.Reps);
  EXPECT_EQ(R.LeafSteps, Expected.LeafSteps);
  // C(3 + 5, 5) = 56 ≥ 100 stages? no; C(3 + 7, 7) = 120 is the first.
  EXPECT_EQ(R.Reps, 7u);
}

//===----------------------------------------------------------------------===//
// fitToMemory.
//===----------------------------------------------------------------------===//

using u128 = unsigned __int128;

struct FitCase {
  uint64_t N, Tape, Snapshot, Limit;
  Criterion Crit;
  Split How;
  uint64_t Reps;
};

std::string describe(const FitCase &C) {
  return "n=" + std::to_string(C.N) + " tape/step=" + std::to_string(C.Tape) +
         " snapshot=" + std::to_string(C.Snapshot) +
         " limit=" + std::to_string(C.Limit) +
         " criterion=" + std::to_string(int(C.Crit)) +
         " split=" + std::to_string(int(C.How)) +
         " reps=" + std::to_string(C.Reps);
}

u128 memory(const FitCase &C, uint64_t D, uint64_t Alpha) {
  return u128(Alpha) * C.Tape + u128(D + 1) * C.Snapshot;
}

/// fitToMemory's rule by exhaustion: every d up to 4096 with every t up to
/// N (which always suffices), the largest α that fits; least t, then least
/// d.
bool bruteForceFit(const FitCase &C, ScheduleParams *Out) {
  bool Found = false;
  for (uint64_t D = 0; D <= 4096; ++D) {
    if (memory(C, D, 1) > C.Limit)
      break;
    uint64_t Alpha =
        C.Tape ? (C.Limit - uint64_t(D + 1) * C.Snapshot) / C.Tape : C.N;
    Alpha = std::max<uint64_t>(1, std::min(Alpha, C.N));
    for (uint64_t T = 0; T <= std::max(C.N, C.Reps); ++T) {
      if (C.Crit == Criterion::Log && T != D)
        continue;
      if (C.Crit == Criterion::Time && C.Reps && T != C.Reps)
        continue;
      if (u128(Alpha) * leafCapacity(C.How, D, T) < C.N)
        continue;
      if (!Found || T < Out->Reps) {
        *Out = {D, T, Alpha};
        Found = true;
      }
      break;
    }
  }
  return Found;
}

TEST(CheckpointConfigMemoryTest, MatchesExhaustiveSearch) {
  for (uint64_t N : {1, 10, 100, 1000})
    for (uint64_t Tape : {0, 1, 8})
      for (uint64_t Snapshot : {16, 200})
        for (uint64_t Limit : {100, 1000, 10000})
          for (Criterion Crit :
               {Criterion::Space, Criterion::Time, Criterion::Log})
            for (Split How : {Split::Bisection, Split::Binomial})
              for (uint64_t Reps : {0, 2}) {
                FitCase C = {N, Tape, Snapshot, Limit, Crit, How, Reps};
                ScheduleParams Got = {7, 7, 7}, Want;
                bool Fits = fitToMemory(N, Tape, Snapshot, Limit, Crit, How,
                                        Reps, &Got);
                bool Expected = bruteForceFit(C, &Want);
                ASSERT_EQ(Fits, Expected) << describe(C);
                if (!Fits) {
                  // Out is left alone.
                  EXPECT_EQ(Got.Snapshots, 7u) << describe(C);
                  continue;
                }
                EXPECT_EQ(Got.Snapshots, Want.Snapshots) << describe(C);
                EXPECT_EQ(Got.Reps, Want.Reps) << describe(C);
                EXPECT_EQ(Got.LeafSteps, Want.LeafSteps) << describe(C);
                EXPECT_LE(memory(C, Got.Snapshots, Got.LeafSteps), Limit)
                    << describe(C);
                EXPECT_GE(u128(Got.LeafSteps) *
                              leafCapacity(How, Got.Snapshots, Got.Reps),
                          N)
                    << describe(C);
              }
}

TEST(CheckpointConfigMemoryTest, WholeTapeFittingMeansNoCheckpoints) {
  ScheduleParams P;
  ASSERT_TRUE(fitToMemory(1000, 8, 4096, 1 << 20, Criterion::Log,
                          Split::Bisection, 0, &P));
  EXPECT_EQ(P.Snapshots, 0u);
  EXPECT_EQ(P.Reps, 0u);
  EXPECT_EQ(P.LeafSteps, 1000u);
}

TEST(CheckpointConfigMemoryTest, TightLimitsTradeTapeForSnapshots) {
  // 10^9 steps at 8 bytes each, 1 MiB snapshots, 256 MiB in all.
  uint64_t N = 1000000000, Limit = uint64_t(256) << 20;
  ScheduleParams Log, Space;
  ASSERT_TRUE(fitToMemory(N, 8, 1 << 20, Limit, Criterion::Log, Split::Binomial,
                          0, &Log));
  ASSERT_TRUE(fitToMemory(N, 8, 1 << 20, Limit, Criterion::Space,
                          Split::Binomial, 0, &Space));
  EXPECT_EQ(Log.Snapshots, Log.Reps);
  // The space criterion spends the memory on the fewest repetitions.
  EXPECT_LE(Space.Reps, Log.Reps);
  for (const ScheduleParams &P : {Log, Space}) {
    EXPECT_LE(P.LeafSteps * 8 + (P.Snapshots + 1) * (uint64_t(1) << 20), Limit);
    EXPECT_GE(u128(P.LeafSteps) * eta(P.Snapshots, P.Reps), N);
  }
}

TEST(CheckpointConfigMemoryTest, TimeKeepsTheRepsGiven) {
  ScheduleParams P;
  ASSERT_TRUE(fitToMemory(100000, 8, 1000, 1 << 20, Criterion::Time,
                          Split::Binomial, 1, &P));
  EXPECT_EQ(P.Reps, 1u);
  // One repetition needs (d + 1)·α ≥ n.
  EXPECT_GE(u128(P.Snapshots + 1) * P.LeafSteps, 100000u);
}

TEST(CheckpointConfigMemoryTest, ImpossibleLimitsFail) {
  ScheduleParams P = {1, 2, 3};
  // Not even the initial snapshot and one step of tape.
  EXPECT_FALSE(fitToMemory(1000, 8, 1000, 1007, Criterion::Space,
                           Split::Binomial, 0, &P));
  // Room for the initial snapshot and tape, but not for a second snapshot,
  // and the whole tape does not fit.
  EXPECT_FALSE(
      fitToMemory(1000, 8, 1000, 1999, Criterion::Log, Split::Binomial, 0, &P));
  EXPECT_EQ(P.Snapshots, 1u);
  // Bisection cannot cover 1000 steps with the snapshots 20 KB allow at
  // α = 1... but one snapshot and a 1000-step tape fit in 10 KB.
  EXPECT_TRUE(fitToMemory(1000, 8, 1000, 10000, Criterion::Log,
                          Split::Bisection, 0, &P));
  EXPECT_EQ(P.Snapshots, 0u);
}

TEST(CheckpointConfigMemoryTest, NoLimitIsOneStage) {
  ScheduleParams P;
  ASSERT_TRUE(fitToMemory(123456, 8, 1000, 0, Criterion::Space, Split::Binomial,
                          0, &P));
  EXPECT_EQ(P.Snapshots, 0u);
  EXPECT_EQ(P.LeafSteps, 123456u);
}

} // namespace
