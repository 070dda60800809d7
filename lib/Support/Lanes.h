//===- Lanes.h - Several derivatives per value (vector mode) ----*- C++ -*-===//
//
// In Enzyme's vector mode (enzyme_width N) every value carries N tangents
// (forward mode) or N adjoints (reverse mode). A derivative of width N
// keeps them in the lanes of LLVM vectors: the twin of a double is a
// <N x double>, of a pointer the <N x ptr> of its N shadows, of a struct
// the struct of its fields' twins. Arithmetic then applies to all lanes at
// once (the primal operand splatted), a GEP on the shadows' vector gives
// the vector of the shadows' fields, and loads and stores of shadow memory
// are gathers and scatters. Width 1 is a plain value: these helpers leave
// it alone, so one generator serves both.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LANES_H
#define CAPSULE_LANES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PassManager.h"

namespace capsule {

/// The most tangents per value: the runtime has a tangent sink for each
/// lane (CAPSULE_MAX_LANES in runtime/abi.h).
constexpr unsigned MaxLanes = 64;

/// The type of the twin of a value of type \p T with \p Width lanes; null
/// for an LLVM vector type (SIMD code), which has no lane type yet.
llvm::Type *laneType(llvm::Type *T, unsigned Width);

/// \p V in every lane (as it is for width 1).
llvm::Value *splatLanes(llvm::IRBuilder<> &B, llvm::Value *V, unsigned Width);

/// Lane \p K of \p Lanes (\p Lanes itself for width 1).
llvm::Value *laneOf(llvm::IRBuilder<> &B, llvm::Value *Lanes, unsigned K,
                    unsigned Width);

/// The lanes \p Each(0), ..., \p Each(Width - 1) of scalars.
llvm::Value *makeLanes(llvm::IRBuilder<> &B, unsigned Width,
                       llvm::function_ref<llvm::Value *(unsigned)> Each);

/// Runs \p Each on every lane of \p Lanes.
void forEachLane(llvm::IRBuilder<> &B, llvm::Value *Lanes, unsigned Width,
                 llvm::function_ref<void(llvm::Value *)> Each);

/// Called with each load or store of lane K that loadLanes and storeLanes
/// emit.
using LaneAccessTag = llvm::function_ref<void(llvm::Instruction &, unsigned)>;

/// Loads a value of type \p Ty from each lane's pointer in \p Pointers.
llvm::Value *loadLanes(llvm::IRBuilder<> &B, llvm::Type *Ty,
                       llvm::Value *Pointers, llvm::Align Alignment,
                       unsigned Width, LaneAccessTag Tag);

/// Stores each lane of \p V (of laneType(Ty)) to its lane's pointer.
void storeLanes(llvm::IRBuilder<> &B, llvm::Type *Ty, llvm::Value *V,
                llvm::Value *Pointers, llvm::Align Alignment, unsigned Width,
                LaneAccessTag Tag);

/// The twin \p V of a value of type \p Ty as the array [Width x Ty] of its
/// lanes, the form a marker call returns them in (lane k's value first).
llvm::Value *lanesAsArray(llvm::IRBuilder<> &B, llvm::Type *Ty, llvm::Value *V,
                          unsigned Width);

/// Splits the lanes of \p F's vectors into scalars, once generated: the
/// lanes' shadows are then pointers of their own, whose loops the optimizer
/// vectorizes as the primal's, where vectors of pointers would be gathers.
void scalarizeLanes(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

} // namespace capsule

#endif
