//===- GlobalShadows.cpp - Shadow globals tied to the user's shadows ------===//
//
// Mutable globals have shadow globals of their own, which the code reaches
// by name. Two things the code cannot see at compile time would leave them
// apart from the shadows the user hands in (abi.h):
//  - the same memory passed as a dup argument and also used by name: two
//    shadows of one primal memory, each getting part of the adjoints;
//  - a pointer the program stored in a global before the call (gp = x):
//    its shadow slot holds null, and the code's accesses through it crash.
// Both are tied at the start of each gradient call, from the addresses; a
// pointer to memory with no shadow Capsule knows of gets a place in the trap
// instead (GlobalShadows.h).
//===----------------------------------------------------------------------===//
#include "GlobalShadows.h"

#include "RuntimeRegion.h"
#include "StackGuard.h"
#include "Support.h"
#include "abi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

namespace {

const capsule_shadow_global *globalHolding(const capsule_shadow_global *G,
                                           uint64_t N, const void *P) {
  for (uint64_t I = 0; I < N; ++I) {
    const char *Begin = static_cast<const char *>(G[I].global);
    if (P >= Begin && P < Begin + G[I].bytes)
      return &G[I];
  }
  return nullptr;
}

[[noreturn]] void failInsideGlobal(const capsule_shadow_global &G, uint64_t Arg,
                                   uint64_t Offset) {
  std::fprintf(stderr,
               "capsule: dup argument %llu of the gradient points %llu bytes "
               "into the global '%s', which the differentiated code also "
               "uses by name: its shadow cannot stand for the whole global; "
               "pass the global itself (its first element) with a shadow as "
               "large as the global, or pass the global's data in memory of "
               "its own\n",
               static_cast<unsigned long long>(Arg + 1),
               static_cast<unsigned long long>(Offset), G.name);
  std::exit(3);
}

/// The trap: inaccessible, as large as the sink, reserved on first need.
char *TrapBase;
pthread_mutex_t TrapMutex = PTHREAD_MUTEX_INITIALIZER;
/// The globals whose pointers were given places in the trap, for the
/// message (the last few).
constexpr int TrappedNames = 4;
const char *Trapped[TrappedNames];
int TrappedCount;

void *trapOf(const void *P, const char *Holder) {
  capsule::MutexLock Lock(TrapMutex);
  if (!TrapBase) {
    void *Base = mmap(nullptr, capsule::SinkBytes, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (Base == MAP_FAILED)
      return nullptr; // no room: an access stays a plain crash
    TrapBase = static_cast<char *>(Base);
  }
  bool Known = false;
  for (int I = 0; I < TrappedNames && I < TrappedCount; ++I)
    Known |= std::strcmp(Trapped[I], Holder) == 0;
  if (!Known)
    Trapped[TrappedCount++ % TrappedNames] = Holder;
  // Its handler tells an access of the trap; forward mode's calls arm it
  // nowhere else.
  capsule::armStackOverflowGuard();
  return capsule::sinkPlace(TrapBase, P);
}

/// The shadow of what \p P, held by global \p Holder, points to: a dup
/// argument's bound shadow, or the place in a shadow global; its place in
/// the trap when Capsule cannot know it.
void *shadowOf(const void *P, const char *Holder,
               const capsule_shadow_global *G, uint64_t N, void *const *Args,
               void *const *Shadows, uint64_t Count) {
  for (uint64_t I = 0; I < Count; ++I)
    if (Args[I] == P)
      return Shadows[I];
  if (const capsule_shadow_global *Holding = globalHolding(G, N, P))
    return static_cast<char *>(Holding->shadow) +
           (static_cast<const char *>(P) -
            static_cast<const char *>(Holding->global));
  return trapOf(P, Holder);
}

} // namespace

extern "C" void __capsule_bind_shadow_globals(const capsule_shadow_global *G,
                                              uint64_t N, void *const *Args,
                                              void *const *UserShadows,
                                              void **Shadows, uint64_t Count) {
  for (uint64_t I = 0; I < Count; ++I) {
    Shadows[I] = UserShadows[I];
    const capsule_shadow_global *Holder = globalHolding(G, N, Args[I]);
    if (!Holder)
      continue;
    uint64_t Offset =
        static_cast<uint64_t>(static_cast<const char *>(Args[I]) -
                              static_cast<const char *>(Holder->global));
    if (Offset != 0)
      failInsideGlobal(*Holder, I, Offset);
    // The user's shadow seeds the global's final values.
    std::memcpy(Holder->shadow, UserShadows[I], Holder->bytes);
    Shadows[I] = Holder->shadow;
  }
  for (uint64_t K = 0; K < N; ++K)
    for (uint64_t J = 0; J < G[K].pointer_count; ++J) {
      uint64_t At = G[K].pointer_offsets[J];
      void *P;
      std::memcpy(&P, static_cast<char *>(G[K].global) + At, sizeof P);
      if (!P)
        continue;
      void *Shadow = shadowOf(P, G[K].name, G, N, Args, Shadows, Count);
      std::memcpy(static_cast<char *>(G[K].shadow) + At, &Shadow,
                  sizeof Shadow);
    }
}

extern "C" void __capsule_check_nested_dup_args(const capsule_shadow_global *G,
                                                uint64_t N, void *const *Args,
                                                uint64_t Count) {
  for (uint64_t I = 0; I < Count; ++I)
    if (const capsule_shadow_global *Holder = globalHolding(G, N, Args[I])) {
      std::fprintf(stderr,
                   "capsule: dup argument %llu of a derivative call inside "
                   "differentiated code (nested differentiation) points into "
                   "the global '%s', which the differentiated code also uses "
                   "by name: nested calls cannot tie its shadow to the "
                   "argument's; pass the global's data in memory of its own\n",
                   static_cast<unsigned long long>(I + 1), Holder->name);
      std::exit(3);
    }
}

extern "C" void __capsule_unbind_shadow_globals(const capsule_shadow_global *G,
                                                uint64_t N, void *const *Args,
                                                void *const *UserShadows,
                                                uint64_t Count) {
  for (uint64_t I = 0; I < Count; ++I)
    if (const capsule_shadow_global *Holder = globalHolding(G, N, Args[I]))
      std::memcpy(UserShadows[I], Holder->shadow, Holder->bytes);
}

bool capsule::reportUnshadowedPointerFault(uintptr_t Fault) {
  auto Base = reinterpret_cast<uintptr_t>(TrapBase);
  if (!Base || Fault < Base || Fault - Base >= capsule::SinkBytes)
    return false;
  capsule::writeToStderr(
      "capsule: the differentiated code went through a pointer that a "
      "global held when the gradient was called (");
  for (int I = 0; I < TrappedNames && I < TrappedCount; ++I) {
    capsule::writeToStderr(I ? ", '" : "'");
    capsule::writeToStderr(Trapped[I]);
    capsule::writeToStderr("'");
  }
  capsule::writeToStderr(
      ") to memory that has no shadow: it is neither a dup argument "
      "nor a global. Pass that memory to the gradient as a dup "
      "argument, or set the pointer inside the differentiated code\n");
  return true;
}
