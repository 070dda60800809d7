//===- BlasRules.h - Built-in rules of the BLAS routines --------*- C++ -*-===//
//
// A program's calls of the BLAS routines ddot, daxpy, dscal, dnrm2, dcopy,
// dgemv, dger, dtrsv, dgemm and dtrsm, through CBLAS (cblas_dgemm) or the
// Fortran interface (dgemm_), get gradient and tangent rules that the
// runtime defines (runtime/blas) and that call BLAS for the adjoints, unless
// the program registered rules of its own. Only declarations with 32-bit
// integers and enumerations (OpenBLAS's and the reference BLAS's default)
// get them: the runtime's definitions assume that ABI.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_BLASRULES_H
#define CAPSULE_BLASRULES_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace capsule {

/// Attaches the runtime's rules to the CBLAS routines \p M declares.
void attachBlasRules(llvm::Module &M);

/// The routine \p Rule is a built-in rule of, if it is one. The rules are
/// compiled into the runtime, so nested derivatives cannot look into them.
std::optional<llvm::StringRef> blasRoutineOfRule(const llvm::Function &Rule);

} // namespace capsule

#endif
