//===- CheckpointConfig.h - The checkpointing policy ----------------------===//
//
// How checkpointed gradients schedule their stages (DESIGN §1, paper §5):
// strategy, split, termination criterion, the counts d, t and α, and a
// memory limit. Each comes from the C API below if it was called, else from
// its environment variable, else from the default:
//
//   CAPSULE_STRATEGY    binary | treeverse | online
//                                                 capsule_config_strategy()
//   CAPSULE_SPLIT       bisection | binomial      capsule_config_split()
//   CAPSULE_CRITERION   space | time | log        capsule_config_criterion()
//   CAPSULE_SNAPSHOTS   d, a positive integer     capsule_config_snapshots()
//   CAPSULE_REPS        t, a positive integer     capsule_config_reps()
//   CAPSULE_LEAF_STEPS  α, a positive integer     capsule_config_leaf_steps()
//   CAPSULE_MEMORY_LIMIT bytes (as CAPSULE_TAPE_LIMIT)
//                                                 capsule_config_memory_limit()
//
// The C API (to be declared in capsule/capsule.h; declared here until then):
//
//   void capsule_config_strategy(const char *name);
//   void capsule_config_split(const char *name);
//   void capsule_config_criterion(const char *name);
//   void capsule_config_snapshots(uint64_t d);       /* 0: automatic */
//   void capsule_config_reps(uint64_t t);            /* 0: automatic */
//   void capsule_config_leaf_steps(uint64_t alpha);  /* 0: automatic */
//   void capsule_config_memory_limit(uint64_t bytes); /* 0: no limit */
//   void capsule_config_reset(void); /* forget the calls above */
//
// Names are parsed as the variables are, in any case; an invalid one stops
// the program (exit status 2) naming the function or variable and the
// accepted values. Each variable is read once, the first time
// checkpointPolicy() needs it; a call overrides its variable from then on,
// whatever the variable holds (a count of 0 overrides it with "automatic"),
// until capsule_config_reset().
//
// The defaults: online (no counting run), but binary, the paper's §3.5
// checkpointing, when d or a memory limit bounds the snapshots (the online
// schedule's first run keeps capsules beside each span's d, and a limit is
// fitted to the count); bisection; criterion log (d = t, both logarithmic
// in n/α); α = DefaultLeafSteps (see Scheduler.h for why). With no criterion
// given, one is inferred from the counts: d alone means space, t alone means
// time, neither means log.
//
// The criterion says which counts are computed, and giving a computed count
// is a contradiction that stops the program, rather than silently ignoring
// one of the two: t under space, d under time, either under log, and d with
// t when the criterion is inferred (one of them is always computed; α from d
// and t could make a stage's tape as long as the whole computation). A
// memory limit picks d and α itself (fitToMemory), so it excludes them too,
// and the online strategy, which does not count the steps it would fit them
// to.
// checkpointPolicy() checks the combination in force when it is called, so
// the calls may come in any order.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_CHECKPOINTCONFIG_H
#define CAPSULE_RUNTIME_CHECKPOINTCONFIG_H

#include "Scheduler.h"
#include "capsule/capsule.h"

#include <cstdint>
#include <optional>

namespace capsule {

/// The effective policy; a count of 0 is automatic, a memory limit of 0 none.
struct CheckpointPolicy {
  Strategy Strat;
  Split How;
  Criterion Crit;
  uint64_t Snapshots;   ///< d
  uint64_t Reps;        ///< t
  uint64_t LeafSteps;   ///< α
  uint64_t MemoryLimit; ///< bytes
};

/// Parse the names the variables and the C API accept, in any case.
std::optional<Strategy> parseStrategy(const char *Text);
std::optional<Split> parseSplit(const char *Text);
std::optional<Criterion> parseCriterion(const char *Text);

/// The policy in force, with the criterion inferred when none was given.
/// Stops the program (exit status 2) on an invalid value or a
/// contradiction.
CheckpointPolicy checkpointPolicy();

/// The counts for a computation of N steps under Policy (resolveParams).
/// The memory limit is not applied here: it needs the tape's bytes per step
/// and a snapshot's bytes, which the driver measures (fitToMemory).
ScheduleParams resolvePolicy(const CheckpointPolicy &Policy, uint64_t N);

/// The policy for loop-iteration checkpointing: every iteration one leaf
/// (α = 1), the binomial split, d and the criterion as configured. Stops
/// the program (exit status 2) if α or a memory limit is configured: the
/// iterations fix them.
CheckpointPolicy loopIterationPolicy(CheckpointPolicy Policy);

/// Picks d, t and α for a computation of N steps so that a stage's tape and
/// the live snapshots fit in Limit bytes:
///   α·TapeBytesPerStep + (d + 1)·SnapshotBytes ≤ Limit,
/// d + 1 because the caller's initial snapshot is alive throughout. Among
/// the d that fit (0 to 4096; d = 0 when the whole tape fits), each with
/// the largest α that fits (at most N), it takes the least t, then the least
/// d: the fewest recomputations, then the fewest snapshots. Under Log t = d;
/// under Time a given Reps is kept (0: as Space); under Space t is free.
/// Returns false, leaving *Out alone, when nothing fits, not even α = 1
/// with the fewest snapshots that can reverse N steps. A Limit of 0 means
/// no limit: one stage of N steps.
bool fitToMemory(uint64_t N, uint64_t TapeBytesPerStep, uint64_t SnapshotBytes,
                 uint64_t Limit, Criterion Crit, Split How, uint64_t Reps,
                 ScheduleParams *Out);

/// Forgets the environment read and every capsule_config_*() call, so that
/// unit tests can read changed variables within one process.
void resetCheckpointConfigForTesting();

} // namespace capsule

#endif // CAPSULE_RUNTIME_CHECKPOINTCONFIG_H
