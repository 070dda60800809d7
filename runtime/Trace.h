//===- Trace.h - A trace of what the checkpointing driver did -------------===//
//
// With CAPSULE_TRACE=FILE, each checkpointed gradient call appends to FILE a
// plain-text trace of its schedule, which tools/draw-schedule.py draws as
// the paper's Fig. 2 (docs/schedule-trace.md). FILE is created, or emptied,
// when the process's first checkpointed gradient starts; an empty value or a
// file that cannot be opened stops the program then (exit status 2).
//
// One record a line, fields separated by single spaces, positions in steps
// from 0 (the root's start) to n (its end). A call's trace is
//
//   gradient n=N unit=U strategy=S split=P d=D t=T alpha=A root=NAME
//   snapshot 0 0       the start capsule
//   primal 0 N         PRIMOPS, the green run that counts the steps
//   probe 0 K          under CAPSULE_MEMORY_LIMIT only: the first K steps
//                      taped to measure the tape, not reversed
//   ...                the schedule (below)
//   primal 0 N         the run that leaves memory as the computation leaves it
//   release 0          the start capsule goes
//   end
//
// where the schedule's records, in execution order, are
//
//   primal FROM TO     a green (untaped) run from the capsule at FROM to TO
//   snapshot ID STEP   capsule ID captured at STEP, where the run before
//                      stopped
//   forward FROM TO    a stage's taped forward sweep
//   reverse FROM TO    its reverse sweep, which turns the adjoints at TO into
//                      those at FROM
//   release ID         capsule ID released
//
// The online schedule has no PRIMOPS: after its start capsule come the
// green runs of its first run, one chunk each, with the capsules it takes
// and releases on the way; the schedule's reverse sweep follows.
//
// NAME is the root's name as messages spell it and takes the rest of the
// line (a C++ name may hold spaces). U is `steps`, or `iterations` when the
// root marks loop iterations (capsule_checkpoint_iteration: each step is an
// iteration boundary, positions count iterations). S is binary, treeverse
// or online, P bisection or binomial; D, T and A are the schedule's d, t
// and α (online: those resolved for n, which bound each span's). Capsule
// IDs count from 0 within a call; capsules are released newest first, but
// for those the online schedule's first run releases below the newest. A
// call without its end line was cut short (the program stopped inside it).
//
// A traced call holds the trace from its start to its end, so the calls of
// several threads write whole traces, one after another. The records before
// the header wait in memory until n is known; those of a call are flushed
// at its end.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_TRACE_H
#define CAPSULE_RUNTIME_TRACE_H

#include "Scheduler.h"

#include <cstdint>

namespace capsule {

/// Starts a call's trace, when CAPSULE_TRACE asks for one: opens the file the
/// first time (or stops the program) and waits for other threads' traced
/// calls to end. Every other trace function does nothing without a trace.
void beginTrace();

/// The header, once N is known, followed by the records held until then.
void traceSchedule(const char *Root, uint64_t N, bool LoopIterations,
                   const char *Strategy, const char *Split,
                   const ScheduleParams &Params);

void tracePrimal(uint64_t From, uint64_t To);
/// The memory probe of CAPSULE_MEMORY_LIMIT: the first \p Steps steps,
/// taped and not reversed, right after PRIMOPS.
void traceProbe(uint64_t Steps);
void traceForward(uint64_t From, uint64_t To);
void traceReverse(uint64_t From, uint64_t To);

/// A capsule captured at Step, numbered after the call's last one.
void traceSnapshot(uint64_t Step);

/// The release of the live capsule with \p Newer newer ones above it (0:
/// the newest).
void traceRelease(uint64_t Newer);

/// Ends the call's trace: writes its end line and flushes the file.
void endTrace();

} // namespace capsule

#endif // CAPSULE_RUNTIME_TRACE_H
