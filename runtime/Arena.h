//===- Arena.h - Deterministic allocator for interruptible code -----------===//
//
// Instrumented code allocates from the calling thread's arena (abi.h:
// __capsule_malloc and its relatives). An arena is one large reservation of
// address space (the part of the thread's runtime region after its frame
// stack, RuntimeRegion.h), committed on demand, and everything the allocator
// knows (the bump pointer, the free lists, the block headers) lives inside it
// and is journaled like any other store. Rolling the journal back to a snapshot
// therefore also rolls back the allocations and frees made since, and
// running the same code again from there hands out the same addresses.
//
// Blocks are powers of two in size (a 16-byte header included), recycled
// through one LIFO free list per size, and never returned to the system.
//
// Arenas are per thread, like the rest of interruptible execution: a block
// must be freed or reallocated on the thread that allocated it. An arena
// outlives its thread, since its blocks may still be in use.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_RUNTIME_ARENA_H
#define CAPSULE_RUNTIME_ARENA_H

#include "abi.h"
#include "capsule/capsule.h"

#include <cstdint>

namespace capsule {

/// The arena's reservation if the system grants it; halved until it does,
/// down to MinArenaBytes. The first thread decides for all (RuntimeRegion.h).
constexpr uint64_t PreferredArenaBytes = uint64_t(64) << 30;
constexpr uint64_t MinArenaBytes = uint64_t(256) << 20;
/// The largest alignment __capsule_aligned_alloc accepts.
constexpr uint64_t MaxArenaAlignment = uint64_t(1) << 30;

struct ArenaStats {
  uint64_t ReservedBytes;      // address space of this thread's arena
  uint64_t CommittedBytes;     // of which readable and writable
  uint64_t CarvedBytes;        // of which ever handed out as blocks (now)
  uint64_t ForeignFrees;       // blocks not from the arena passed to libc free
  uint64_t LeakedForeignFrees; // ... not freed because a capsule was live
};

/// This thread's arena (zeros before its first allocation).
ArenaStats arenaStats();

/// Whether P points into this thread's arena.
bool arenaContains(const void *P);

/// The bytes a live arena block can hold (at least what was asked for).
uint64_t arenaUsableSize(const void *P);

/// The bytes realloc may copy out of block P, which instrumented code passes
/// to realloc: 0 for null, the usable size of a live block of this thread's
/// arena or of a block of the C library (allocated before the computation).
/// Stops the program, as realloc would, for any other pointer.
uint64_t reallocUsableSize(const void *P);

} // namespace capsule

#endif // CAPSULE_RUNTIME_ARENA_H
