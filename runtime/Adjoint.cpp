//===- Adjoint.cpp - Runtime helpers called from reverse sweeps -----------===//
#include "abi.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

namespace {

// Disjoint ranges: the common case, kept as one loop the compiler vectorizes.
template <typename T>
void moveAdjointDisjoint(T *__restrict DSrc, T *__restrict DDst, uint64_t N) {
  for (uint64_t I = 0; I != N; ++I) {
    DSrc[I] += DDst[I];
    DDst[I] = 0;
  }
}

// The adjoint of memmove(dst, src, N): t = ddst; ddst = 0; dsrc += t. In
// place, by walking in the direction memmove would copy: each element of
// ddst is read and zeroed before dsrc's walk reaches it, and an element of
// ddst that is also in dsrc has been zeroed before its sum is added.
template <typename T> void moveAdjoint(void *Src, void *Dst, uint64_t Bytes) {
  T *DSrc = static_cast<T *>(Src);
  T *DDst = static_cast<T *>(Dst);
  uint64_t N = Bytes / sizeof(T);
  if (DSrc == DDst)
    return; // the copy changed nothing, so its adjoint does nothing either
  auto S = reinterpret_cast<uintptr_t>(DSrc);
  auto D = reinterpret_cast<uintptr_t>(DDst);
  uint64_t Span = N * sizeof(T);
  if (S + Span <= D || D + Span <= S) {
    moveAdjointDisjoint(DSrc, DDst, N);
  } else if (S < D) {
    for (uint64_t I = 0; I != N; ++I) {
      T Adjoint = DDst[I];
      DDst[I] = 0;
      DSrc[I] += Adjoint;
    }
  } else {
    for (uint64_t I = N; I-- != 0;) {
      T Adjoint = DDst[I];
      DDst[I] = 0;
      DSrc[I] += Adjoint;
    }
  }
}

/// *P += V atomically: the copy's source may be read by other threads of a
/// parallel region, whose reverse sweeps add to its adjoints too.
template <typename T, typename Bits> void addAtomically(T *P, T V) {
  static_assert(sizeof(T) == sizeof(Bits), "an adjoint is one word");
  auto *Word = reinterpret_cast<Bits *>(P);
  Bits Old = __atomic_load_n(Word, __ATOMIC_RELAXED), New;
  do {
    T Sum;
    std::memcpy(&Sum, &Old, sizeof Sum);
    Sum += V;
    std::memcpy(&New, &Sum, sizeof New);
  } while (!__atomic_compare_exchange_n(Word, &Old, New, /*weak=*/true,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

/// The destination is this thread's to write (in race-free code no other
/// thread touches what it wrote in the region), the source may be read by
/// other threads too. Overlapping ranges (memmove) are walked in the order
/// that reads each destination adjoint before it is cleared, as moveAdjoint.
template <typename T, typename Bits>
void moveAdjointToShared(void *Src, void *Dst, uint64_t Bytes) {
  T *DSrc = static_cast<T *>(Src);
  T *DDst = static_cast<T *>(Dst);
  uint64_t N = Bytes / sizeof(T);
  if (DSrc == DDst)
    return;
  auto Move = [&](uint64_t I) {
    T Adjoint = DDst[I];
    DDst[I] = 0;
    addAtomically<T, Bits>(&DSrc[I], Adjoint);
  };
  if (DSrc < DDst)
    for (uint64_t I = 0; I != N; ++I)
      Move(I);
  else
    for (uint64_t I = N; I-- != 0;)
      Move(I);
}

} // namespace

extern "C" void __capsule_copy_adjoint_shared_f64(void *DSrc, void *DDst,
                                                  uint64_t Bytes) {
  moveAdjointToShared<double, uint64_t>(DSrc, DDst, Bytes);
}

extern "C" void __capsule_copy_adjoint_shared_f32(void *DSrc, void *DDst,
                                                  uint64_t Bytes) {
  moveAdjointToShared<float, uint32_t>(DSrc, DDst, Bytes);
}

extern "C" void __capsule_copy_adjoint_f64(void *DSrc, void *DDst,
                                           uint64_t Bytes) {
  moveAdjoint<double>(DSrc, DDst, Bytes);
}

extern "C" void __capsule_copy_adjoint_f32(void *DSrc, void *DDst,
                                           uint64_t Bytes) {
  moveAdjoint<float>(DSrc, DDst, Bytes);
}

extern "C" void __capsule_unknown_call_target(const void *Target,
                                              const char *Site) {
  Dl_info Info;
  const char *Name = nullptr;
  if (dladdr(Target, &Info) && Info.dli_sname && Info.dli_saddr == Target)
    Name = Info.dli_sname;
  std::fprintf(stderr,
               "capsule: an indirect call at %s reached %p%s%s%s which has no "
               "derivative (it is not a function defined in the "
               "differentiated module with a matching type)\n",
               Site ? Site : "an unknown location", Target, Name ? " (" : "",
               Name ? Name : "", Name ? ")" : "");
  std::exit(3);
}
