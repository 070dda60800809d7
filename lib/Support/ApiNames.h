//===- ApiNames.h - API names Capsule does not implement --------*- C++ -*-===//
//
// Code written for Enzyme (or for a later Capsule) may name API that this
// Capsule does not implement: markers such as __enzyme_fwddiff, activity
// markers such as enzyme_width, custom-derivative registrations
// (__enzyme_register_gradient_f), enzyme_* annotations. Left alone, each
// would be ignored (a silent wrong gradient) or fail only at link time, so
// the pass refuses every one at compile time, naming it.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_APINAMES_H
#define CAPSULE_APINAMES_H

namespace llvm {
class Module;
} // namespace llvm

namespace capsule {

/// Reports every reference to an API name Capsule does not implement as a
/// compile-time error. Checks a module once: later calls do nothing, so both
/// the pipeline-start pass and the autodiff pass may call it.
void refuseUnimplementedApi(llvm::Module &M);

} // namespace capsule

#endif
