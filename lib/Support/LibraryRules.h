//===- LibraryRules.h - Built-in rules of library routines -----*- C++ -*-===//
//
// A program's calls of library routines whose rules the runtime defines get
// those gradient and tangent rules, unless the program registered rules of
// its own: the BLAS routines ddot, daxpy, dscal, dnrm2, dcopy, dswap, dasum,
// drot, dgemv, dger, dtrsv, dtrmv, dtpsv, dtpmv, dsymv, dspmv, dsyr, dspr,
// dgemm, dtrsm, dtrmm, dsymm, dsyrk and dsyr2k (idamax, which returns an index,
// is inactive), through CBLAS (cblas_dgemm) or the Fortran interface (dgemm_),
// whose rules call BLAS for the adjoints (runtime/blas); and the C library's
// qsort, whose rules move the shadows as the sort moves the elements
// (runtime/libc), or, for elements whose layout is known, the runtime's qsort
// with that layout (SortCalls.h). Only declarations with the ABI the runtime's
// definitions assume get them: 32-bit integers and enumerations for BLAS
// (OpenBLAS's and the reference BLAS's default). A Fortran routine may be
// declared with or without the hidden lengths gfortran's convention appends for
// its character arguments (size_t, or int as f2c's); the rules ignore them, as
// BLAS reads one character of each option. The runtime also knows what each
// routine writes and costs, for interruptible code.
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

/// Attaches the runtime's rules to \p F, declared later, if it is one of
/// those routines.
void attachLibraryRules(llvm::Function &F);

/// The runtime's qsort that knows where its elements keep pointers
/// (SortCalls.h).
inline constexpr const char *QsortWithLayout = "__capsule_libc_qsort_layout";

/// Whether \p F is one of those routines, with the ABI the runtime
/// assumes.
bool isLibraryRoutine(const llvm::Function &F);

/// The runtime's step function of the library routine \p Routine, for
/// interruptible code: called just before it, with its arguments, it saves
/// for the journal what the routine is about to write and returns the steps
/// the call costs (runtime/blas/Steps.c). Null if \p Routine is no such
/// routine.
llvm::Function *libraryStepFunction(llvm::Function &Routine);

/// Whether \p Name is the name of such a step function.
bool isLibraryStepFunction(llvm::StringRef Name);

/// The routine the program called where the pass calls the function named
/// \p Name instead (qsort, for the runtime's qsort with layout), if it is
/// such a function.
std::optional<llvm::StringRef> routineStoodFor(llvm::StringRef Name);

/// The routine \p Rule is a built-in rule of, if it is one, as the program
/// names it. The rules are
/// compiled into the runtime, so nested derivatives cannot look into them.
std::optional<llvm::StringRef> libraryRoutineOfRule(const llvm::Function &Rule);
/// The routine whose rule is called \p Name (a rule's name, whether
/// declared or defined), or nothing.
std::optional<llvm::StringRef> routineOfRuleName(llvm::StringRef Name);
/// Whether \p Rule (declared, or a shim of hidden lengths) is one of the
/// runtime's BLAS rules, whose tapes __capsule_blas_keep_tapes keeps.
bool isBlasRule(const llvm::Function &Rule);

} // namespace capsule

#endif
