//===- ParallelRegions.h - OpenMP as clang lowers it -----------*- C++ -*-===//
//
// clang outlines the body of `#pragma omp parallel` into a microtask,
// void(ptr gtid, ptr btid, captures...), and forks a team with
// __kmpc_fork_call(loc, n, microtask, captures...). Worksharing loops ask
// libomp for their bounds (__kmpc_for_static_init_*, __kmpc_dispatch_*),
// reductions combine the threads' private copies under
// __kmpc_reduce(_nowait), and critical sections and barriers synchronise.
//
// In a function prepared for differentiation a fork becomes a direct call of
// the microtask marked as a parallel region: the pass derives the microtask
// like any callee (with the Parallel signature bit), and the sweeps fork
// teams running its derivatives (Reverse/ParallelCalls.cpp). Captures
// clang passes by value as pointer-sized integers (a firstprivate double)
// reach the microtask's derivative as the doubles they are.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_PARALLELREGIONS_H
#define CAPSULE_PARALLELREGIONS_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"

#include <optional>
#include <string>

namespace capsule {

/// Rewrites, in \p P (a function prepared for differentiation), every
/// reduction into a critical section (the branch of clang's code that
/// combines under a lock), so that a derivative's team follows one path
/// whatever libomp would have chosen; and every critical section's start
/// and end into the runtime's, which return its ticket (the order threads
/// went through it) for the reverse sweep.
void lowerSynchronisation(llvm::Function &P);

/// Rewrites, in \p P, every fork of a known microtask into a direct call
/// marked as a parallel region. After the stack slots are promoted, which
/// turns a double captured by value into a bitcast.
void lowerParallelForks(llvm::Function &P);

/// Whether \p Call is a parallel region lowerParallelRegions made.
bool isParallelRegionCall(const llvm::CallBase &Call);

/// Whether \p F is a microtask some fork in the module passes to
/// __kmpc_fork_call (an `if` clause that is false calls it directly).
bool isForkedMicrotask(const llvm::Function &F);

/// The source location (libomp's ident_t) of the fork \p Call replaced.
llvm::Value *parallelRegionLocation(const llvm::CallBase &Call);

/// The type a capture has on its way through __kmpc_fork_call, which
/// passes pointer-sized words: a double goes as its 64 bits, a float as its
/// 32 zero-extended, as clang passes them.
llvm::Type *forkedArgumentType(llvm::Type *T);
/// \p V as the word a fork passes, and back.
llvm::Value *toForked(llvm::IRBuilder<> &B, llvm::Value *V);
llvm::Value *fromForked(llvm::IRBuilder<> &B, llvm::Value *Word, llvm::Type *T);

/// A function a team runs (a microtask): void (ptr gtid, ptr btid,
/// \p Params...), its body made by \p Body; the one named \p Name if the
/// module has it already.
llvm::Function *
microtask(llvm::Module &M, const llvm::Twine &Name,
          llvm::ArrayRef<llvm::Type *> Params,
          llvm::function_ref<void(llvm::IRBuilder<> &, llvm::Function &)> Body);

/// The microtask that calls \p Fn (a derivative of a microtask: gtid and
/// btid first) with the arguments a fork passes it, \p Fn's own in their
/// forked types, then \p Extra ones; \p Around (Before, then after) may
/// bracket the call.
llvm::Function *forkedCallTask(
    llvm::Function &Fn, const llvm::Twine &Name,
    llvm::ArrayRef<llvm::Type *> Extra,
    llvm::function_ref<void(llvm::IRBuilder<> &, llvm::Function &, bool)>
        Around);

/// __kmpc_fork_call(\p Location, count, \p Task, \p Args in their forked
/// types...).
llvm::CallInst *emitFork(llvm::IRBuilder<> &B, llvm::Value *Location,
                         llvm::Function *Task,
                         llvm::ArrayRef<llvm::Value *> Args);

/// Synchronisation inside a parallel region, and what reverses it.
enum class ParallelSync {
  None,
  /// ticket (loc, gtid, lock): reversed by leaving it
  EnterCritical,
  /// ticket (loc, gtid, lock): reversed by entering it in ticket order
  ExitCritical,
  Barrier, ///< reversed by a barrier
  /// ticket (loc, gtid, lock): a blocking reduction's end, leaving its
  /// critical section and waiting for the team; reversed by a barrier, then
  /// entering
  ExitCriticalThenBarrier
};
ParallelSync parallelSyncOf(llvm::StringRef Name);

/// Moves, in \p F (a parallel region's code), loads that read the same
/// value in every iteration out of their loops: the bounds libomp gives a
/// thread's chunk of a worksharing loop (stack slots whose address only
/// libomp's calls get, which keep no pointer) where the loop neither stores
/// to them nor passes them to libomp, and shared variables holding
/// pointers (the arrays the loop works on) where the loop stores only
/// floating-point data. Otherwise any store in the loop might change them
/// as far as the analyses know: the trip count and the addresses are
/// unknown, and the loop's journal barriers cannot be saved for the whole
/// chunk before it.
void hoistLoopInvariantLoads(llvm::Function &F);

/// The blocks of \p F (prepared: critical sections and reductions lowered
/// by lowerSynchronisation) that start inside a critical section: which of
/// them run, and how often, can depend on the order in which the team's
/// threads went through it.
llvm::SmallPtrSet<const llvm::BasicBlock *, 8>
blocksInCriticalSections(const llvm::Function &F);

/// Why a call of libomp's \p Name cannot be in differentiated code: a
/// construct whose derivative Capsule does not make yet (tasks, ordered,
/// copyprivate, teams, ...), whatever data it gets. None for functions
/// Capsule handles and for functions other than libomp's.
std::optional<std::string> whyOpenMPUnsupported(llvm::StringRef Name);

/// libomp functions that move no floating-point data and need nothing in
/// the reverse sweep: thread numbers, loop bounds, the thread count of the
/// next fork, masters and singles.
bool isOpenMPWithoutDerivative(llvm::StringRef Name);

} // namespace capsule

#endif
