//===- JournalBarriers.h - Journal barriers before stores -------*- C++ -*-===//
//
// Interruptible code saves memory for the journal before it overwrites it.
// While code is generated, each such barrier is one opaque call of the
// pseudo-function __capsule_journal_barrier(addr, bytes, align): no control
// flow, so the differentiator copies it into forward sweeps like any call
// without a derivative and records nothing for it on the tape. When all code
// is generated, expandJournalBarriers() replaces each call by the runtime's
// protocol (runtime/abi.h): skip when no snapshot is live or when the
// granule is in the journal's filter of granules already saved, else call
// __capsule_journal_write. A barrier in a loop that writes a range known
// before the loop becomes one barrier for the whole range, before the loop,
// which lets the loop vectorize; in optimized code, a loop whose barriers
// stay in it runs without them while no snapshot is live.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_JOURNALBARRIERS_H
#define CAPSULE_JOURNALBARRIERS_H

#include "llvm/IR/IRBuilder.h"

namespace capsule {

class RuntimeABI;

/// Emits, at \p B's insertion point, the journal barrier for a write of
/// \p Bytes bytes at \p Addr, an address known to be aligned to \p A.
/// Leaves \p B where it was (before the write).
void emitJournalBarrier(llvm::IRBuilder<> &B, RuntimeABI &ABI,
                        llvm::Value *Addr, llvm::Value *Bytes,
                        llvm::Align A = llvm::Align(1));

/// Replaces every journal barrier in \p M by its inline test and runtime
/// call. Each function reads the journal depth once, at its entry: the
/// depth changes only in the driver, between runs. With \p VersionLoops
/// (optimized code), loops that keep barriers get a copy without them for
/// runs without a live snapshot (Interrupt/JournalUnswitch.h).
void expandJournalBarriers(llvm::Module &M, RuntimeABI &ABI, bool VersionLoops);

} // namespace capsule

#endif
