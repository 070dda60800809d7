//===- PointerVectorLanes.h - Pointer vectors lane by lane ------*- C++ -*-===//
//
// SLP vectorization pairs moves of pointers (a swap of two std::vectors'
// members becomes a load and a store of <2 x ptr>) in code an -flto
// compile optimized before the link, where Capsule differentiates it. A
// pointer's shadow follows scalar pointers; moved as a vector, the shadows
// stayed where they were and the gradient through the moved pointers was
// lost without a word. Loads and stores of pointer vectors become one per
// lane, and the lanes taken out of them are the pointers loaded.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_POINTERVECTORLANES_H
#define CAPSULE_POINTERVECTORLANES_H

namespace llvm {
class Function;
} // namespace llvm

namespace capsule {

/// Splits \p F's loads and stores of vectors of pointers into loads and
/// stores of each lane.
void movePointerVectorsByLane(llvm::Function &F);

} // namespace capsule

#endif
