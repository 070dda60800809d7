//===- Tape.h - Internal C++ API of the tape ------------------------------===//
//
// The tape behind abi.h, as seen from the rest of the runtime and from its
// unit tests. Each thread has its own tape: a LIFO stack of chunks growing
// from FirstChunkBytes (64 KiB) to DefaultChunkBytes (4 MiB), larger when a
// single record needs more, smaller when the tape limit leaves less room. A
// chunk's header remembers the chunk below it and where that chunk's top was,
// so popping can step back across boundaries.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_TAPE_H
#define CAPSULE_RUNTIME_TAPE_H

#include "abi.h"

#include <cstdint>

namespace capsule {

/// Capacity of a chunk when no record forces a larger one. Large enough that
/// the slow paths are rare, small enough that the chunk a thread keeps
/// between gradient calls stays cheap.
constexpr uint64_t DefaultChunkBytes = uint64_t(4) << 20;
/// Capacity of a tape's first chunk; each next one is as large as the tape
/// already is, up to the chunk size.
constexpr uint64_t FirstChunkBytes = uint64_t(64) << 10;

/// Which of a thread's two tapes. Gradients use the inner one
/// (__capsule_tape), except the derivatives that differentiate a gradient
/// in reverse mode (reverse over reverse), which push their records on the
/// outer one (__capsule_outer_tape): the inner gradient, run inside them,
/// empties and fills its own tape in between.
enum class TapeLevel { Inner, Outer };

/// Pushes N bytes exactly as generated code does (abi.h): inline unless the
/// current chunk is too full.
inline void *tapePush(uint64_t N) {
  capsule_tape_state &T = __capsule_tape;
  if (uint64_t(T.chunk_end - T.top) < N)
    return __capsule_tape_push_slow(N);
  void *Record = T.top;
  T.top += N;
  return Record;
}

/// Pops the N-byte record pushed last, exactly as generated code does.
inline void *tapePop(uint64_t N) {
  capsule_tape_state &T = __capsule_tape;
  if (T.top == T.chunk_begin)
    return __capsule_tape_pop_slow(N);
  T.top -= N;
  return T.top;
}

/// Bytes pushed and not yet popped on this thread's tape.
uint64_t tapeBytesInUse(TapeLevel L = TapeLevel::Inner);
/// The same of tape records set aside (tapeDetach).
uint64_t tapeBytesOf(const capsule_tape_state &Records);

/// The bytes of the records the threads of OpenMP teams set aside during
/// this thread's gradient call (omp/Parallel.cpp): they live beside its
/// tape until the reverse sweep, and count in the call's peak (Gradient.cpp).
/// The team's threads add to it with atomic operations.
uint64_t &gradientTeamTapeBytes();

/// Empties this thread's tape (whatever an abandoned call left behind) and
/// restarts its peak at zero. Emptied chunks are kept for reuse, as many as
/// the previous peak needed and at least one; the rest are freed.
void tapeReset(TapeLevel L = TapeLevel::Inner);

/// Empties this thread's inner tape in place when that is all tapeReset()
/// would do, as after a gradient call that ended: its only chunk stays, so
/// the next call's first push takes the inline path, which matters to
/// programs that take 10^5 tiny gradients. The chunk's end is capped anew at
/// the limit in force. False, with nothing done, when the tape holds an
/// abandoned call's chunks, kept chunks wait to be trimmed, or a green run
/// is active (its tape must refuse every push: tapeBeginGreenRun).
bool tapeRestartInPlace();

/// Caps the current chunk of this thread's inner tape at the limit in force
/// (capsule_set_tape_limit): the inline push must not pass a limit lowered
/// after the chunk was started.
void tapeLimitChanged();

/// Takes this thread's inner tape away, leaving it empty: its records wait
/// in the returned header (split mode) while other gradients use the tape.
capsule_tape_state tapeDetach();

/// Makes \p Records this thread's inner tape, after releasing the chunks of
/// the tape there now for reuse.
void tapeAttach(const capsule_tape_state &Records);

/// Empties this thread's tape and frees all of its memory.
void tapeFree(TapeLevel L = TapeLevel::Inner);

/// Raises this thread's peak to the bytes in use now.
void tapeRecordPeak(TapeLevel L = TapeLevel::Inner);

/// The largest tape this thread held since tapeReset() at a recorded point:
/// every slow push and every tapeRecordPeak().
uint64_t tapePeakBytes(TapeLevel L = TapeLevel::Inner);

/// Bracket a gradient call on the outer tape: in between, the inner tape's
/// chunks and their adjoint twins (__capsule_adjoint_tape_mirror) are kept.
void outerTapeCallBegins();
void outerTapeCallEnds();

/// How this thread's inner tape used malloc: for tests of the chunk reuse.
struct TapeChunkCounts {
  uint64_t Allocated; // chunks allocated since the thread started
  uint64_t Held;      // chunks allocated and not yet freed
};
TapeChunkCounts tapeChunkCounts();

/// Sets the capacity of chunks allocated from now on, process-wide. Lets the
/// unit tests cross many chunk boundaries with little memory.
void setTapeChunkBytes(uint64_t Bytes);

} // namespace capsule

#endif // CAPSULE_RUNTIME_TAPE_H
