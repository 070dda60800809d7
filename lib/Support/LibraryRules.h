//===- LibraryRules.h - Built-in rules of library routines -----*- C++ -*-===//
//
// A program's calls of library routines whose rules the runtime defines get
// those gradient and tangent rules, unless the program registered rules of
// its own: the BLAS routines ddot, daxpy, dscal, dnrm2, dcopy, dgemv, dger,
// dtrsv, dsymv, dgemm, dtrsm and dsyrk, through CBLAS (cblas_dgemm) or the Fortran
// interface (dgemm_), whose rules call BLAS for the adjoints
// (runtime/blas); and the C library's qsort, whose rules move the shadows
// as the sort moves the elements (runtime/libc). Only declarations with the
// ABI the runtime's definitions assume get them: 32-bit integers and
// enumerations for BLAS (OpenBLAS's and the reference BLAS's default).
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LIBRARYRULES_H
#define CAPSULE_LIBRARYRULES_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace capsule {

/// Attaches the runtime's rules to the library routines \p M declares.
void attachLibraryRules(llvm::Module &M);

/// The routine \p Rule is a built-in rule of, if it is one. The rules are
/// compiled into the runtime, so nested derivatives cannot look into them.
std::optional<llvm::StringRef> libraryRoutineOfRule(const llvm::Function &Rule);

} // namespace capsule

#endif
