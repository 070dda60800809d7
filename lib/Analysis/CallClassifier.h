//===- CallClassifier.h - What a call means to differentiation --*- C++ -*-===//
#ifndef CAPSULE_CALLCLASSIFIER_H
#define CAPSULE_CALLCLASSIFIER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class CallBase;
class Value;
class Function;
class FunctionType;
class Module;
} // namespace llvm

namespace capsule {

/// The elementary functions with derivative rules (DerivativeRules.cpp).
enum class MathOp {
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Atan2,
  Sinh,
  Cosh,
  Tanh,
  Exp,
  Exp2,
  Expm1,
  Log,
  Log2,
  Log10,
  Log1p,
  Sqrt,
  Cbrt,
  Pow,
  Powi,
  Hypot,
  Fabs,
  Fmin,
  Fmax,
  Copysign,
  Fmod,
  Fma,
  FMulAdd,
  Identity, ///< derivative 1 in argument 0 (nextafter, modf: only there)
  Piecewise,
  Erf,
  Ldexp,
  Asinh,
  Acosh,
  Atanh,
  Erfc,
  Exp10,
  Tgamma,
  Lgamma,
  Polygamma, ///< __capsule_polygamma(n, x): n-th derivative of digamma
  Fdim,
  Remainder, ///< remainder and remquo: x - n y, n the nearest integer to x/y
  Frexp,     ///< the mantissa x 2^-e
  BesselJ0,
  BesselJ1,
  BesselY0,
  BesselY1,
  BesselJn, ///< jn(n, x)
  BesselYn, ///< yn(n, x)
  // Complex functions (Reverse/ComplexRules.h): complex arguments and
  // results in the x86-64 ABI's form, a double complex as two doubles or a
  // {double, double}, a float complex as a <2 x float>.
  CMul, ///< __muldc3, __mulsc3: the multiplication C's operator calls
  CDiv, ///< __divdc3, __divsc3
  CExp,
  CLog,
  CSqrt,
  CPow,
  CSin,
  CCos,
  CTan,
  CSinh,
  CCosh,
  CTanh,
  CAsin,
  CAcos,
  CAtan,
  CAsinh,
  CAcosh,
  CAtanh,
  CProj,
  Conj,
  CAbs,  ///< real result
  CArg,  ///< real result
  CReal, ///< real result
  CImag  ///< real result
};

/// The libm function named \p Name (double or float: sinf is sin).
std::optional<MathOp> mathFunctionNamed(llvm::StringRef Name);

/// Whether \p Op is one of the complex functions.
bool isComplexOp(MathOp Op);

enum class CalleeKind {
  Math,         ///< elementary function with a derivative rule
  MemTransfer,  ///< memcpy / memmove
  MemSet,       ///< memset
  Alloc,        ///< malloc, new, new[]; size in argument 0
  Calloc,       ///< calloc(n, size)
  AlignedAlloc, ///< aligned_alloc(alignment, size)
  Realloc,      ///< realloc(p, size)
  Free,         ///< free, delete, delete[]
  PointerCast,  ///< returns its pointer argument (launder.invariant.group)
  PointerMove,  ///< returns its pointer argument 0 moved by an offset it
                ///< finds, or null (__dynamic_cast)
  NoDerivative, ///< no derivative flows through it (I/O, hints, random
                ///< numbers, clocks; Support/LibraryOutputs.h)
  Module,       ///< defined in this module: differentiated recursively; or
                ///< with a rule of the user's (Support/CustomRules.h)
  Indirect,     ///< through a function pointer
  /// an OpenMP critical section's start or end, or a barrier, which the
  /// reverse sweep mirrors (Support/ParallelRegions.h)
  ParallelSync,
  External ///< declared only, unknown effect
};

struct CalleeInfo {
  CalleeKind Kind;
  MathOp Math = MathOp::Identity; ///< for CalleeKind::Math
  llvm::Function *Fn = nullptr;   ///< the callee when known
};

CalleeInfo classifyCall(const llvm::CallBase &Call);

/// A call of the one-argument elementary function \p Op on the same argument
/// as \p Call, in the same block (before \p Call when \p OnlyBefore), whose
/// result a derivative rule can use instead of computing it again: the
/// derivative of sin(x) is the cos(x) that rotation code computes beside it.
/// Null if there is none.
llvm::CallBase *siblingMathCall(llvm::CallBase &Call, MathOp Op,
                                bool OnlyBefore);

/// Whether \p Call is to a library function whose pointer result points to
/// data that is never floating point (a std::string's characters, an output
/// stream).
bool returnsMemoryWithoutDerivatives(const llvm::CallBase &Call);

/// Whether \p Name is a member of libstdc++'s char strings or their
/// character traits, whose copies move characters only. Declared only, a
/// call of one carries no derivative; defined, it is differentiated, and
/// its untyped copies are of integers (MemoryKinds.h).
bool isCharacterStringMember(llvm::StringRef Name);

/// Whether a call of the library function \p Name, run again when a capsule
/// is resumed, changes nothing the program sees: it only reads memory
/// (which clang does not declare at -O0: strlen, memcmp, std::hash of a
/// string's bytes) or touches only an object nothing keeps.
bool repeatsWithoutEffect(llvm::StringRef Name);

/// What a direct call of \p F means.
CalleeInfo classifyFunction(llvm::Function &F);

/// C++17's operators new and delete for over-aligned types (`new T[n]` of
/// an `alignas(32)` T, a std::vector of one): AlignedAlloc for new, which
/// takes the alignment after the size (the C allocator takes it first),
/// Free for delete. classifyFunction counts their new as Alloc: shadow
/// accesses assume no more than a double's alignment (shadowAlign,
/// RuntimeABI.h).
std::optional<CalleeKind> alignedNewOrDelete(llvm::StringRef Name);

/// The runtime entry points that an inner derivative call, lowered first
/// (Support/NestingOrder.h), leaves in the code an outer derivative
/// differentiates. Each has a rule of its own in the generators that accept
/// it; they are not allocation functions to the rest of Capsule (the
/// interruptible builder must not take a tangent block for a heap block).
enum class NestedRuntime {
  TangentBegin,   ///< starts a forward-mode call
  TangentAlloc,   ///< a zeroed tangent block (bytes)
  TangentRealloc, ///< (tangent block, bytes)
  TangentFree,    ///< (tangent block)
  SinkOf,         ///< a place in the tangent sink
  SinkFill,       ///< (shadow, src, bytes): places for src's pointers
  NestedSinkOf,   ///< a place in a nested level's tangent sink
  NestedSinkFill, ///< (shadow, src, bytes) in a nested level's sink
  /// (slot, p): p's place in the tangent sink slot is in, or null
  LoadedSinkOf,
  GradientCall,   ///< begins a reverse-mode gradient call
  TapeSlowPath,   ///< a push or pop that moves the tape to another chunk
  ShadowAlloc,    ///< a zeroed shadow block (bytes)
  ShadowRealloc,  ///< (old shadow, bytes): a new shadow with its contents
  ShadowUpdate,   ///< (shadow): bookkeeping of shadow blocks
  ReallocAdjoint, ///< (dold, dnew): dold += dnew over the copied prefix
  CopyAdjoint,    ///< (dsrc, ddst, bytes): dsrc += ddst, ddst = 0
  DeferFree,      ///< (block): free postponed to the gradient's end
  PlaceOf,        ///< a place in the gradient's sink
  PlaceFill,      ///< (shadow, src, bytes): places for src's pointers
  OverGradient,   ///< left by forward mode over a gradient
  OuterGradient,  ///< left by reverse mode over a gradient (its own tape)
  /// (table, n, args, shadows, bound, count): pointers held by shadow
  /// globals get the shadows of what they point to
  BindGlobals,
  /// stands for the checkpointed gradient of a tangent function (forward
  /// mode over a checkpointed gradient)
  CheckpointedTangent
};
std::optional<NestedRuntime> nestedRuntimeCall(const llvm::CallBase &Call);

/// Whether \p V is the gradient tape's header (runtime/abi.h): forward mode
/// over a gradient gives it a twin, the tangent tape.
bool isTapeHeader(const llvm::Value *V);

/// A stack slot or heap block allocated by the function being
/// differentiated (an alloca, or a malloc-like call): no memory that existed
/// when the function was called is in it, and its shadow is a fresh block
/// of the runtime's.
bool isAllocatedInside(const llvm::Value *Object);

/// Functions of this module that an indirect call of type \p FT may reach:
/// the defined functions whose address is taken, and with
/// \p IncludeDeclarations the declared ones too (libm or free passed as a
/// function pointer).
llvm::SmallVector<llvm::Function *, 4>
indirectCallTargets(llvm::Module &M, llvm::FunctionType *FT,
                    bool IncludeDeclarations = false);

} // namespace capsule

#endif
