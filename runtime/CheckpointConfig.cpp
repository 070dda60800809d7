//===- CheckpointConfig.cpp - The checkpointing policy --------------------===//
#include "CheckpointConfig.h"
#include "Config.h"
#include "Support.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <strings.h>

namespace capsule {
namespace {

// The settings, by index, so that reading, overriding and naming them is one
// piece of code. Every value is kept as a uint64_t; enums by their value.
enum Field : unsigned {
  StrategyField,
  SplitField,
  CriterionField,
  SnapshotsField,
  RepsField,
  LeafStepsField,
  MemoryLimitField,
  FieldCount
};

std::optional<uint64_t> parseStrategyValue(const char *Text) {
  std::optional<Strategy> S = parseStrategy(Text);
  return S ? std::optional<uint64_t>(uint64_t(*S)) : std::nullopt;
}

std::optional<uint64_t> parseSplitValue(const char *Text) {
  std::optional<Split> S = parseSplit(Text);
  return S ? std::optional<uint64_t>(uint64_t(*S)) : std::nullopt;
}

std::optional<uint64_t> parseCriterionValue(const char *Text) {
  std::optional<Criterion> C = parseCriterion(Text);
  return C ? std::optional<uint64_t>(uint64_t(*C)) : std::nullopt;
}

// A positive decimal integer that fits in 64 bits; no sign, no spaces.
std::optional<uint64_t> parseCount(const char *Text) {
  uint64_t Value = 0;
  const char *P = Text;
  for (; *P >= '0' && *P <= '9'; ++P) {
    unsigned Digit = *P - '0';
    if (Value > (UINT64_MAX - Digit) / 10)
      return std::nullopt;
    Value = Value * 10 + Digit;
  }
  if (P == Text || *P || Value == 0)
    return std::nullopt;
  return Value;
}

struct FieldInfo {
  const char *Variable;
  const char *Function;
  const char *Expected;
  std::optional<uint64_t> (*Parse)(const char *);
};

const FieldInfo Fields[FieldCount] = {
    {"CAPSULE_STRATEGY", "capsule_config_strategy()",
     "binary, treeverse or online", parseStrategyValue},
    {"CAPSULE_SPLIT", "capsule_config_split()", "bisection or binomial",
     parseSplitValue},
    {"CAPSULE_CRITERION", "capsule_config_criterion()", "space, time or log",
     parseCriterionValue},
    {"CAPSULE_SNAPSHOTS", "capsule_config_snapshots()",
     "a positive integer, the snapshots d, such as 8", parseCount},
    {"CAPSULE_REPS", "capsule_config_reps()",
     "a positive integer, the repetitions t, such as 3", parseCount},
    {"CAPSULE_LEAF_STEPS", "capsule_config_leaf_steps()",
     "a positive integer, the steps α of a stage, such as 1048576", parseCount},
    {"CAPSULE_MEMORY_LIMIT", "capsule_config_memory_limit()",
     "a byte count such as 1048576, 512M, 2G or 'unlimited'", parseByteCount},
};

// A value a source gave, if it gave one.
struct Slot {
  bool Set;
  uint64_t Value;
};

pthread_mutex_t ConfigMutex = PTHREAD_MUTEX_INITIALIZER;
// Each variable is read the first time its value is needed, which is never
// while a call overrides it: as with CAPSULE_TAPE_LIMIT, a call makes the
// variable irrelevant, valid or not.
bool EnvironmentRead[FieldCount];
Slot FromEnvironment[FieldCount];
Slot FromApi[FieldCount];

// The value in force for F, and whether any source gave one. Needs the lock.
Slot effective(Field F) {
  if (FromApi[F].Set)
    return FromApi[F];
  if (!EnvironmentRead[F]) {
    if (const char *Text = setting(Fields[F].Variable)) {
      std::optional<uint64_t> Value = Fields[F].Parse(Text);
      if (!Value)
        failSetting(Fields[F].Variable, Text, Fields[F].Expected);
      FromEnvironment[F] = {true, *Value};
    }
    EnvironmentRead[F] = true;
  }
  return FromEnvironment[F];
}

// Where F's value came from, for messages.
const char *sourceOf(Field F) {
  return FromApi[F].Set ? Fields[F].Function : Fields[F].Variable;
}

void setFromApi(Field F, uint64_t Value) {
  MutexLock Lock(ConfigMutex);
  FromApi[F] = {true, Value};
}

void setNameFromApi(Field F, const char *Name) {
  std::optional<uint64_t> Value = Name ? Fields[F].Parse(Name) : std::nullopt;
  if (!Value)
    failSetting(Fields[F].Function, Name ? Name : "(null)", Fields[F].Expected);
  setFromApi(F, *Value);
}

[[noreturn]] void failConflict(const char *Format, ...) {
  std::fputs("capsule: conflicting checkpoint settings: ", stderr);
  va_list Args;
  va_start(Args, Format);
  std::vfprintf(stderr, Format, Args);
  va_end(Args);
  std::fputs("\n", stderr);
  std::exit(2);
}

const char *criterionName(Criterion C) {
  return C == Criterion::Space  ? "space"
         : C == Criterion::Time ? "time"
                                : "log";
}

// Stops the program when the criterion given computes a count also given.
void checkCriterion(Criterion C, bool HasD, bool HasT) {
  const char *From = sourceOf(CriterionField);
  const char *Computes = C == Criterion::Log     ? "d = t from α"
                         : C == Criterion::Space ? "t from d and α"
                                                 : "d from t and α";
  if (HasT && C != Criterion::Time)
    failConflict("%s gives t, but criterion %s (%s) computes %s; drop one of "
                 "them, or use criterion time to fix t",
                 sourceOf(RepsField), criterionName(C), From, Computes);
  if (HasD && C != Criterion::Space)
    failConflict("%s gives d, but criterion %s (%s) computes %s; drop one of "
                 "them, or use criterion space to fix d",
                 sourceOf(SnapshotsField), criterionName(C), From, Computes);
}

// The criterion the counts given imply when none is given.
Criterion inferCriterion(bool HasD, bool HasT) {
  if (HasD && HasT)
    failConflict("%s gives d and %s gives t, but one of them is computed from "
                 "the other and α; drop one (d alone means criterion space, "
                 "t alone criterion time)",
                 sourceOf(SnapshotsField), sourceOf(RepsField));
  return HasD ? Criterion::Space : HasT ? Criterion::Time : Criterion::Log;
}

void checkMemoryLimit(bool Online, bool HasD, bool HasAlpha) {
  if (Online)
    failConflict("%s fits d and α to the steps a first run counts, but %s "
                 "asks for the online schedule, which has no counting run; "
                 "drop one of them",
                 sourceOf(MemoryLimitField), sourceOf(StrategyField));
  if (HasD || HasAlpha)
    failConflict("%s picks d and α itself, but %s gives %s; drop one of them",
                 sourceOf(MemoryLimitField),
                 sourceOf(HasD ? SnapshotsField : LeafStepsField),
                 HasD ? "d" : "α");
}

template <typename Enum> Enum enumValue(Field F, Enum Default) {
  Slot S = effective(F);
  return S.Set ? Enum(S.Value) : Default;
}

// Which of the Count names Text is, in any case, or Count when none.
unsigned nameIndex(const char *Text, const char *const *Names, unsigned Count) {
  unsigned I = 0;
  while (I != Count && strcasecmp(Text, Names[I]))
    ++I;
  return I;
}

template <typename Enum, unsigned Count>
std::optional<Enum> parseName(const char *Text,
                              const char *const (&Names)[Count]) {
  unsigned I = nameIndex(Text, Names, Count);
  return I == Count ? std::nullopt : std::optional<Enum>(Enum(I));
}

// The largest α that fits in Limit beside D snapshots and the initial one,
// at most N; 0 when not even one step fits.
uint64_t leafStepsThatFit(uint64_t N, uint64_t TapeBytesPerStep,
                          uint64_t SnapshotBytes, uint64_t Limit, uint64_t D) {
  unsigned __int128 Snapshots = (unsigned __int128)(D + 1) * SnapshotBytes;
  if (Snapshots > Limit)
    return 0;
  uint64_t Room = Limit - uint64_t(Snapshots);
  uint64_t Steps = TapeBytesPerStep ? Room / TapeBytesPerStep : UINT64_MAX;
  uint64_t Most = N ? N : 1;
  return Steps < Most ? Steps : Most;
}

// Snapshots fitToMemory considers at most: more would mean snapshots so
// small next to a step's tape that the estimate is suspect, and the search
// stays cheap enough to run for every gradient.
constexpr uint64_t MaxFitSnapshots = 4096;

} // namespace

std::optional<Strategy> parseStrategy(const char *Text) {
  static const char *const Names[] = {"binary", "treeverse", "online"};
  return parseName<Strategy>(Text, Names);
}

std::optional<Split> parseSplit(const char *Text) {
  static const char *const Names[] = {"bisection", "binomial"};
  return parseName<Split>(Text, Names);
}

std::optional<Criterion> parseCriterion(const char *Text) {
  static const char *const Names[] = {"space", "time", "log"};
  return parseName<Criterion>(Text, Names);
}

CheckpointPolicy checkpointPolicy() {
  MutexLock Lock(ConfigMutex);
  CheckpointPolicy P;
  Slot Strat = effective(StrategyField);
  P.How = enumValue(SplitField, Split::Bisection);
  P.Snapshots = effective(SnapshotsField).Value;
  P.Reps = effective(RepsField).Value;
  P.LeafSteps = effective(LeafStepsField).Value;
  P.MemoryLimit = effective(MemoryLimitField).Value;
  Slot Crit = effective(CriterionField);
  if (Crit.Set) {
    P.Crit = Criterion(Crit.Value);
    checkCriterion(P.Crit, P.Snapshots != 0, P.Reps != 0);
  } else {
    P.Crit = inferCriterion(P.Snapshots != 0, P.Reps != 0);
  }
  // Online unless memory is bounded: a limit is fitted to the steps
  // PRIMOPS counts, and the online schedule's first run keeps capsules
  // beside the d each span's schedule takes.
  P.Strat = Strat.Set                           ? Strategy(Strat.Value)
            : P.MemoryLimit || P.Snapshots != 0 ? Strategy::Binary
                                                : Strategy::Online;
  if (P.MemoryLimit)
    checkMemoryLimit(P.Strat == Strategy::Online, P.Snapshots != 0,
                     P.LeafSteps != 0);
  return P;
}

CheckpointPolicy loopIterationPolicy(CheckpointPolicy Policy) {
  if (Policy.LeafSteps || Policy.MemoryLimit) {
    Field Given = Policy.LeafSteps ? LeafStepsField : MemoryLimitField;
    MutexLock Lock(ConfigMutex);
    failConflict("%s is set, but capsule_checkpoint_iteration() makes every "
                 "loop iteration one leaf of the schedule; drop it (set "
                 "CAPSULE_SNAPSHOTS to bound memory)",
                 sourceOf(Given));
  }
  Policy.LeafSteps = 1;
  Policy.How = Split::Binomial;
  return Policy;
}

ScheduleParams resolvePolicy(const CheckpointPolicy &Policy, uint64_t N) {
  return resolveParams(Policy.Crit, Policy.How, N, Policy.Snapshots,
                       Policy.Reps, Policy.LeafSteps);
}

bool fitToMemory(uint64_t N, uint64_t TapeBytesPerStep, uint64_t SnapshotBytes,
                 uint64_t Limit, Criterion Crit, Split How, uint64_t Reps,
                 ScheduleParams *Out) {
  if (Limit == 0)
    Limit = UINT64_MAX;
  bool FreeT = Crit == Criterion::Space || (Crit == Criterion::Time && !Reps);
  bool Found = false;
  ScheduleParams Best = {};
  for (uint64_t D = 0; D <= MaxFitSnapshots; ++D) {
    uint64_t Alpha =
        leafStepsThatFit(N, TapeBytesPerStep, SnapshotBytes, Limit, D);
    // More snapshots only leave less room.
    if (Alpha == 0)
      break;
    uint64_t Need = N / Alpha + (N % Alpha != 0);
    if (!FreeT) {
      uint64_t T = Crit == Criterion::Log ? D : Reps;
      if (leafCapacity(How, D, T) < Need)
        continue;
      *Out = {D, T, Alpha};
      return true;
    }
    // Only a smaller t beats the best so far (ties keep the smaller d).
    if (Found && Best.Reps == 0)
      break;
    if (Found && leafCapacity(How, D, Best.Reps - 1) < Need)
      continue;
    uint64_t T;
    if (leastReps(How, D, Need, &T)) {
      Best = {D, T, Alpha};
      Found = true;
    }
  }
  if (Found)
    *Out = Best;
  return Found;
}

void resetCheckpointConfigForTesting() {
  MutexLock Lock(ConfigMutex);
  for (unsigned F = 0; F != FieldCount; ++F) {
    EnvironmentRead[F] = false;
    FromEnvironment[F] = {};
    FromApi[F] = {};
  }
}

} // namespace capsule

using namespace capsule;

extern "C" void capsule_config_strategy(const char *name) {
  setNameFromApi(StrategyField, name);
}

extern "C" void capsule_config_split(const char *name) {
  setNameFromApi(SplitField, name);
}

extern "C" void capsule_config_criterion(const char *name) {
  setNameFromApi(CriterionField, name);
}

extern "C" void capsule_config_snapshots(uint64_t d) {
  setFromApi(SnapshotsField, d);
}

extern "C" void capsule_config_reps(uint64_t t) { setFromApi(RepsField, t); }

extern "C" void capsule_config_leaf_steps(uint64_t alpha) {
  setFromApi(LeafStepsField, alpha);
}

extern "C" void capsule_config_memory_limit(uint64_t bytes) {
  setFromApi(MemoryLimitField, bytes);
}

extern "C" void capsule_config_reset(void) {
  MutexLock Lock(ConfigMutex);
  for (Slot &S : FromApi)
    S = {};
}
