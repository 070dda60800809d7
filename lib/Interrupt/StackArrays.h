//===- StackArrays.h - Stack arrays of variable size ------------*- C++ -*-===//
//
// A resumable function's stack slots move into its frame record, which has
// a fixed size (ResumableSplitter.h), and a stack pointer saved before a
// yield means nothing after a resume on another stack. Its stack arrays of
// variable size (C99 VLAs, alloca(n), Eigen's stack buffers) and slots
// allocated outside the entry block therefore become heap blocks, which
// interruptible code takes from the arena like any malloc: each array's
// block is kept in a slot of the frame, freed where the stack would have
// given the array back (llvm.stackrestore, at a scope's end or a loop
// iteration's) and at every return; llvm.stacksave and llvm.stackrestore
// go.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_STACKARRAYS_H
#define CAPSULE_STACKARRAYS_H

namespace llvm {
class Function;
} // namespace llvm

namespace capsule {

/// Moves the stack arrays of \p F that a frame record cannot hold to the
/// heap; returns whether it changed \p F.
bool moveStackArraysToHeap(llvm::Function &F);

} // namespace capsule

#endif
