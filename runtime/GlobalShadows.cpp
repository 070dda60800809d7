//===- GlobalShadows.cpp - Shadow globals tied to the user's shadows ------===//
//
// Mutable globals have shadow globals of their own, which the code reaches
// by name. Two things the code cannot see at compile time would leave them
// apart from the shadows the user hands in (abi.h):
//  - the same memory passed as a dup argument and also used by name: two
//    shadows of one primal memory, each getting part of the adjoints;
//  - a pointer the program stored in a global before the call (gp = x):
//    its shadow slot holds null, and the code's accesses through it crash.
// Both are tied at the start of each gradient call, from the addresses.
//===----------------------------------------------------------------------===//
#include "abi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

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

/// The shadow of what \p P points to: a dup argument's bound shadow, or
/// the place in a shadow global; null when Capsule cannot know it.
void *shadowOf(const void *P, const capsule_shadow_global *G, uint64_t N,
               void *const *Args, void *const *Shadows, uint64_t Count) {
  for (uint64_t I = 0; I < Count; ++I)
    if (Args[I] == P)
      return Shadows[I];
  if (const capsule_shadow_global *Holder = globalHolding(G, N, P))
    return static_cast<char *>(Holder->shadow) +
           (static_cast<const char *>(P) -
            static_cast<const char *>(Holder->global));
  return nullptr;
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
      void *Shadow = shadowOf(P, G, N, Args, Shadows, Count);
      std::memcpy(static_cast<char *>(G[K].shadow) + At, &Shadow,
                  sizeof Shadow);
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
