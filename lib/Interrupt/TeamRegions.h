//===- TeamRegions.h - Parallel regions in interruptible code ---*- C++ -*-===//
//
// A parallel region inside interruptible code runs as one step: its
// microtask, and everything it calls, is *team code* that never yields
// (StepModel.h), charged a fixed count per call. Its threads write memory
// capsules roll back, so each runs its share inside the runtime's team
// (runtime/JournalTeams.cpp), which journals their stores in the forking
// thread's journal:
//
//   team = __capsule_omp_team_begin()
//   region call of shell(gtid, btid, captures..., team), where the shell is
//     team_enter(team); microtask(gtid, btid, captures...); team_leave(team)
//   __capsule_omp_team_end(team)
//
// The team calls are runtime bookkeeping without derivatives: a checkpointed
// gradient's forward sweeps keep them, and fork the shell's derivative like
// any region (Reverse/ParallelCalls.cpp). Code that is not differentiated
// forks the shell itself once all code exists (forkParallelRegions).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_TEAMREGIONS_H
#define CAPSULE_TEAMREGIONS_H

#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

namespace capsule {

class RuntimeABI;

/// The shell of microtask \p Body (team code): its parameters and the
/// team's, joining the team around a call of \p Body.
llvm::Function *teamShell(llvm::Function &Body, RuntimeABI &ABI);

/// Replaces parallel region call \p Region by a region call of \p Shell
/// inside a team made before it and freed after it.
void callInTeam(llvm::CallBase &Region, llvm::Function &Shell, RuntimeABI &ABI);

/// Makes every parallel region call left in \p M (interruptible code that
/// is not differentiated, after the derivatives were made) a fork of the
/// team again.
void forkParallelRegions(llvm::Module &M);

} // namespace capsule

#endif
