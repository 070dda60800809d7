//===- BlasRules.h - Built-in rules of the CBLAS routines --------*- C++
//-*-===//
//
// A program's calls of cblas_ddot, daxpy, dscal, dnrm2, dcopy, dgemv and
// dgemm get gradient and tangent rules that the runtime defines
// (runtime/BlasRules.c) and that call BLAS for the adjoints, unless the
// program registered rules of its own. Only declarations with 32-bit
// integers and enumerations (OpenBLAS's and the reference CBLAS's default)
// get them: the runtime's definitions assume that ABI.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_BLASRULES_H
#define CAPSULE_BLASRULES_H

namespace llvm {
class Module;
} // namespace llvm

namespace capsule {

/// Attaches the runtime's rules to the CBLAS routines \p M declares.
void attachBlasRules(llvm::Module &M);

} // namespace capsule

#endif
