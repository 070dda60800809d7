//===- Replay.h - Results of non-deterministic calls, replayed ------------===//
//
// Resuming a capsule runs part of a computation again. A call whose result
// is not a function of the program's memory (rand, a clock, input) would
// return something else the second time, so interruptible code asks the
// runtime first (abi.h): the first execution of each such call appends its
// result and the bytes it wrote to this thread's replay log, and every later
// execution of the same call takes them from the log instead of calling.
//
// "The same call" is the same position in the sequence of replayed calls.
// The log's cursor is memory the journal sees, so rolling back to a capsule
// brings the cursor back to where the capsule was taken; the log itself is
// only ever appended to while capsules that may need it are live.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_REPLAY_H
#define CAPSULE_RUNTIME_REPLAY_H

#include <cstdint>

namespace capsule {

/// A computation starts (its root frame is set up): with no live capsule
/// nothing can need the log any more, so it is emptied; either way the new
/// computation's calls are new.
void replayStartComputation(bool CapsulesLive);

} // namespace capsule

#endif
