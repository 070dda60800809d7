//===- MixedCopies.h - Struct copies split by kind --------------*- C++ -*-===//
//
// A struct holding both floating-point data and pointers (a valarray
// expression's closure: a scalar by value beside references; a lambda
// capturing a double and a reference) is copied by one memcpy. Its
// derivative differs by field: floating-point fields move adjoints back,
// pointer fields copy shadow pointers forward, integers do neither; one
// memcpy can do only one of those.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_MIXEDCOPIES_H
#define CAPSULE_MIXEDCOPIES_H

namespace llvm {
class Module;
}

namespace capsule {

/// Splits every memcpy of constant length in \p M whose range, by the layout
/// of the struct found there (MemoryKinds.h, runsUnder), holds
/// floating-point data beside pointers, or doubles beside floats, into one
/// memcpy per stretch of one kind, each recording its kind. The program
/// computes the same; every sweep then handles each piece by its kind.
void splitMixedCopies(llvm::Module &M);

} // namespace capsule

#endif
