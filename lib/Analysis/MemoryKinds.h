//===- MemoryKinds.h - What kind of data a copy moves -----------*- C++ -*-===//
//
// memcpy/memmove/realloc are untyped, but their adjoints are not: float
// elements move adjoints back (dsrc += ddst), pointer elements copy shadow
// pointers forward, integers do neither. The kind is deduced from how the
// copied memory is typed where it is allocated and accessed.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_MEMORYKINDS_H
#define CAPSULE_MEMORYKINDS_H

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace llvm {
class Argument;
class CallBase;
class DataLayout;
class Function;
class Instruction;
class LLVMContext;
class LoadInst;
class StoreInst;
class Type;
class Value;
} // namespace llvm

namespace capsule {

enum class ElementKind { F64, F32, Pointer, Integer, Unknown };

/// A contiguous stretch of one kind of data inside a type's memory image.
struct MemoryRun {
  uint64_t Offset;
  uint64_t Bytes;
  ElementKind Kind;
  bool operator==(const MemoryRun &O) const {
    return Offset == O.Offset && Bytes == O.Bytes && Kind == O.Kind;
  }
};

/// The kind of the data \p Runs hold together, as copiedElementKind counts
/// it: integers beside one floating-point kind count as that kind; Unknown
/// where floating-point data meets pointers or doubles meet floats.
ElementKind kindOfRuns(llvm::ArrayRef<MemoryRun> Runs);

/// The kind of the elements copied by a memcpy/memmove, or carried over by
/// a realloc. Memory mixing integers with one floating-point kind counts as
/// that kind (see Evidence::kind). Unknown when the evidence is missing, or
/// mixes floating-point data with pointers or doubles with floats.
ElementKind copiedElementKind(const llvm::CallBase &Call);

/// Whether the memcpy/memmove \p Copy reads a constant global whose
/// initializer holds no pointers (a local array's initializer, a string
/// literal): whatever its bytes are, they carry no derivative and make no
/// pointer, so the destination's adjoints are cleared, whatever it held.
bool copiesPointerFreeConstant(const llvm::CallBase &Copy);

/// Records the kind of a copy, decided while what tells it can still be
/// seen: a realloc the copy replaces (the chain of blocks a pointer is
/// reallocated through), the stack slots and parameters a step function
/// moves into its record, or an integer copy of integers whose struct
/// types the step function's cleanup folds into byte offsets.
/// copiedElementKind returns it.
void recordCopiedKind(llvm::Instruction &Copy, ElementKind K);
/// The kind recorded on \p Copy (a memory copy, or an integer load or store
/// of a copy through an integer), if one was: a recorded Unknown stands, as
/// what the step function would show could be less than what was seen.
std::optional<ElementKind> recordedCopiedKind(const llvm::Instruction &Copy);
/// Records on \p Copy the kind of data \p Source (a realloc, or a runtime
/// call standing for one) copies, where that is known: an unknown kind is
/// left for copiedElementKind to find from \p Copy's own uses.
void recordCopiedKindOf(llvm::Instruction &Copy, const llvm::CallBase &Source);

/// Marks a load or store whose type is exactly the type of the data it
/// moves: an argument or result passed through a step function's record,
/// which the original code passed in a register of that type.
inline constexpr const char *ExactAccessTypeKind = "capsule.exact.type";
void markExactAccessType(llvm::Instruction &Access);

/// The kind of data a load or store accesses according to its metadata:
/// its TBAA tag, or its type when it is marked exact. Unknown without
/// either, or for `omnipotent char`.
ElementKind declaredAccessKind(const llvm::Instruction &I);

/// Whether \p Access, a 16-, 32- or 64-bit integer load or store in code
/// compiled at -O0 (which has no TBAA), is typed by the program's own
/// declarations: clang gives -O0 accesses the type of the lvalue, so an
/// integer one reads an integer, unless the program breaks the aliasing
/// rules or reads a union's member (a union on the way, or a pointer of
/// another origin, does not count).
bool integerBySourceType(const llvm::Instruction &Access);

/// Whether \p Access, a 32- or 64-bit integer load or store, may move
/// floating-point data: nothing types the bytes it accesses as integers or
/// pointers (its source type at -O0, a kind recorded on it, its TBAA tag,
/// the layout of the struct there, or how the memory is typed elsewhere).
bool mayMoveFloatingPoint(const llvm::Instruction &Access);

/// Whether the copy of bytes (8- or 16-bit integers) loaded by \p Load and
/// stored by \p Store moves parts of floating-point numbers: the layout
/// at one side puts floating-point data there, or both sides point into
/// memory of floating-point numbers by how it is typed.
bool copiesFloatingPointBytes(const llvm::LoadInst &Load,
                              const llvm::StoreInst &Store);

/// Records on the 32- and 64-bit integer copies of \p F (a load and a store
/// of it) that their memory types them as integers, where
/// mayMoveFloatingPoint sees so: splitting \p F into step functions folds the
/// struct types and -O0 parameter slots that tell it into byte offsets into
/// records, and the step functions' reverse sweep, which refuses copies that
/// may move floating-point data, would no longer see it.
void recordIntegerCopies(llvm::Function &F);

/// The kind of data \p Ptr points to, from how the memory is typed where it
/// is allocated and accessed (and, for a parameter, at the call sites).
ElementKind pointeeKind(const llvm::Value *Ptr);

/// What the \p Bytes bytes at \p Ptr hold according to the layout of the
/// struct the memory is an array of, when that struct can be found (from
/// the allocation or from neighbouring GEPs): Integer where the layout has
/// only integers and padding there.
ElementKind kindAtOffset(const llvm::Value *Ptr, uint64_t Bytes,
                         const llvm::DataLayout &DL);

/// The floating-point and pointer stretches of the \p Bytes bytes at \p Ptr
/// (offsets from \p Ptr; the bytes between hold integers or padding),
/// according to the layout of the struct the memory is an array of, when
/// that struct can be found and has no union there.
std::optional<llvm::SmallVector<MemoryRun, 4>>
runsUnder(const llvm::Value *Ptr, uint64_t Bytes, const llvm::DataLayout &DL);

/// What the \p Bytes bytes at \p Ptr hold according to the other loads and
/// stores of that size at the same address in the function (the same base
/// and constant offset, through phis that agree), or the type of a GEP or
/// stack slot that yields \p Ptr itself. Evidence about other parts of the
/// same object does not count: a struct's int field is not a double because
/// the struct's first field is.
ElementKind kindAtAddress(const llvm::Value *Ptr, uint64_t Bytes,
                          const llvm::DataLayout &DL);

/// Whether the layout of the struct at [Ptr, Ptr + Bytes), where it can be
/// found, puts a float or a double there.
bool layoutHasFloatingPoint(const llvm::Value *Ptr, uint64_t Bytes,
                            const llvm::DataLayout &DL);

/// Function attribute naming the user's function a prepared clone was made
/// from, so that evidence can be looked for at the original's call sites.
inline constexpr const char *OriginalFunctionAttr = "capsule-original";

/// What the callers of \p Param's function (the user's function, for a
/// prepared clone) pass for it.
llvm::SmallVector<const llvm::Value *, 4>
argumentsPassedTo(const llvm::Argument &Param);

/// The floating-point and pointer stretches of \p T's memory image (integer
/// and padding bytes are left out), adjacent stretches of a kind merged.
/// A union is a stretch of Unknown kind: its type does not say what it
/// holds.
llvm::SmallVector<MemoryRun, 4> layoutRuns(llvm::Type *T,
                                           const llvm::DataLayout &DL);

/// The kind of the data a value of type \p T holds (a struct of doubles and
/// integers: F64); Unknown where it mixes floating-point data with pointers
/// or holds a union.
ElementKind kindOfType(llvm::Type *T);

/// Whether \p T is a union or an array or struct with one inside: its type
/// tells only part of what the memory holds (`struct { int kind; union {
/// long n; double w; } u; }` would pass for integers), since clang lays a
/// union out as one of its members.
bool holdsUnion(const llvm::Type *T);

/// Whether \p I is an atomic update doing integer arithmetic on integer
/// memory, as a reference count's increment and decrement do (atomicrmw
/// add, sub, and, or, ... of an integer; a compare-exchange whose new value
/// is an integer sum or difference). It moves no floating-point data's bits,
/// so derivatives have nothing to do with it, as with an integer store;
/// exchanges may move a float's bits and are not such updates.
bool isIntegerAtomicUpdate(const llvm::Instruction &I);

/// double, float or ptr for those kinds; null for the others.
llvm::Type *scalarTypeOf(ElementKind Kind, llvm::LLVMContext &C);

} // namespace capsule

#endif
