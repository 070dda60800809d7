//===- SplitGradient.h - Split mode: a gradient in two halves ---*- C++ -*-===//
//
// Enzyme's split mode: __enzyme_augmentfwd runs a function's forward sweep
// and hands the tape to the program, which runs code of its own and later
// gives it to __enzyme_reverse for the reverse sweep. Frameworks use it to
// fit a derivative into their own backward pass, and custom-rule authors
// to call Capsule's derivative of a helper inside their rules. The halves
// run the derivative of a signature that is not top level (the program may
// change memory between them, so the reverse sweep reloads nothing), each
// on a tape of its own that waits in a runtime object between them
// (runtime/abi.h, split mode).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_SPLITGRADIENT_H
#define CAPSULE_SPLITGRADIENT_H

namespace llvm {
class CallBase;
}

namespace capsule {

class Differentiator;
struct GradientRequest;

/// Replaces an __enzyme_augmentfwd call by the forward sweep, between the
/// runtime's split begin and forward_done; the tape (and f's result) comes
/// back as the call's declared type says, or goes to enzyme_tape's memory.
void lowerAugmentRequest(Differentiator &D, const GradientRequest &R);

/// Replaces an __enzyme_reverse call by the reverse sweep on the tape it
/// names, which the runtime checks and then frees.
void lowerReverseRequest(Differentiator &D, const GradientRequest &R);

/// Replaces an __enzyme_augmentsize call by the bytes of a tape in memory
/// (Capsule keeps a pointer to its runtime object there).
void lowerAugmentSize(llvm::CallBase &Call);

} // namespace capsule

#endif
