//===- Parallel.cpp - Gradients of OpenMP parallel regions ----------------===//
//
// The forward sweep of a parallel region runs in a team like the primal:
// each thread records its share of the work on a tape of its own, set aside
// in the region's slot for that thread number when the thread leaves. The
// reverse sweep forks a team of the same size; thread k takes slot k's
// tape, so it reverses exactly the iterations it ran, whatever the schedule
// (static, dynamic, guided) handed it. Only this file needs libomp: the
// archive pulls it in for programs whose gradients fork teams, which link
// libomp anyway (-fopenmp).
//
// Reductions and critical sections are reversed under the same lock
// (Support/ParallelRegions.h): the reverse of a critical section reads and
// clears adjoints another thread's reverse of it reads and clears too.
//===----------------------------------------------------------------------===//
#include "Support.h"
#include "Tape.h"
#include "abi.h"

#include <cstdio>
#include <cstdlib>
#include <sched.h>

namespace {

/// libomp's source location (ident_t); the runtime reads only its flags.
struct Ident {
  int32_t Reserved1;
  int32_t Flags;
  int32_t Reserved2;
  int32_t Reserved3;
  const char *Source;
};
constexpr int32_t IdentKmpc = 0x02;
Ident Here = {0, IdentKmpc, 0, 0, ";capsule;gradient;0;0;;"};

/// A thread's part of one region: the records it left, and the tape it set
/// aside while recording or reversing them.
struct ThreadSlot {
  capsule_tape_state Records;
  capsule_tape_state Saved;
  struct Region *SavedRegion;
};

/// The critical sections of one name in a region: tickets taken in the
/// forward sweep in the order threads entered, and how many the reverse
/// sweep has finished, from the last ticket down.
struct CriticalName {
  void *Lock;
  int64_t Taken;
  int64_t Reversed;
};
constexpr int MaxCriticalNames = 16;

struct Region {
  int Threads;
  ThreadSlot *Slots; // Threads of them, made by the first thread to arrive
  /// Where the bytes of the records the team's threads set aside count:
  /// the gradient call's that the region (or the region around it) runs in.
  uint64_t *TeamBytes;
  int Names;
  CriticalName Critical[MaxCriticalNames];
};

/// The region this thread's sweep runs in, if any.
__thread Region *Current;

/// The tickets of the critical sections this thread is in, innermost last
/// (sections of different names nest).
constexpr int MaxNestedCritical = 8;
__thread int64_t Tickets[MaxNestedCritical];
__thread int NestedCritical;

[[noreturn]] void fail(const char *Why) {
  std::fprintf(stderr, "capsule: gradient of an OpenMP parallel region: %s\n",
               Why);
  std::exit(3);
}

/// The slot of this thread, the team's slots made by whichever thread
/// comes first.
ThreadSlot &slotOf(Region &R, int Thread, int Threads) {
  ThreadSlot *Slots = __atomic_load_n(&R.Slots, __ATOMIC_ACQUIRE);
  if (!Slots) {
    auto *Mine =
        static_cast<ThreadSlot *>(std::calloc(Threads, sizeof(ThreadSlot)));
    if (!Mine)
      fail("out of memory for the team's tapes");
    ThreadSlot *Expected = nullptr;
    if (__atomic_compare_exchange_n(&R.Slots, &Expected, Mine, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      R.Threads = Threads;
      Slots = Mine;
    } else {
      std::free(Mine);
      Slots = Expected;
    }
  }
  return Slots[Thread];
}

pthread_mutex_t NamesMutex = PTHREAD_MUTEX_INITIALIZER;

/// The region's record of the critical sections named \p Lock.
CriticalName &criticalName(Region &R, void *Lock) {
  capsule::MutexLock Guard(NamesMutex);
  for (int K = 0; K < R.Names; ++K)
    if (R.Critical[K].Lock == Lock)
      return R.Critical[K];
  if (R.Names == MaxCriticalNames)
    fail("more than 16 names of critical sections in one region");
  R.Critical[R.Names] = {Lock, 0, 0};
  return R.Critical[R.Names++];
}

} // namespace

extern "C" {
// libomp's entry points (not in omp.h).
int32_t __kmpc_global_thread_num(Ident *);
void __kmpc_critical(Ident *, int32_t, void *);
void __kmpc_end_critical(Ident *, int32_t, void *);
void __kmpc_barrier(Ident *, int32_t);
void __kmpc_push_num_threads(Ident *, int32_t, int32_t);
int omp_get_thread_num(void);
int omp_get_num_threads(void);

void *__capsule_omp_region_begin(void) {
  auto *R = static_cast<Region *>(std::calloc(1, sizeof(Region)));
  if (!R)
    fail("out of memory");
  R->TeamBytes =
      Current ? Current->TeamBytes : &capsule::gradientTeamTapeBytes();
  return R;
}

void __capsule_omp_forward_enter(void *R) {
  ThreadSlot &S = slotOf(*static_cast<Region *>(R), omp_get_thread_num(),
                         omp_get_num_threads());
  S.Saved = capsule::tapeDetach();
  S.SavedRegion = Current;
  Current = static_cast<Region *>(R);
}

void __capsule_omp_forward_leave(void *R) {
  auto &Team = *static_cast<Region *>(R);
  ThreadSlot &S = Team.Slots[omp_get_thread_num()];
  S.Records = capsule::tapeDetach();
  __atomic_fetch_add(Team.TeamBytes, capsule::tapeBytesOf(S.Records),
                     __ATOMIC_RELAXED);
  capsule::tapeAttach(S.Saved);
  Current = S.SavedRegion;
}

void __capsule_omp_reverse_begin(void *R) {
  // A region whose forward sweep no thread entered (the team was never
  // formed) has nothing to reverse; its team is one thread.
  int Threads = static_cast<Region *>(R)->Threads;
  __kmpc_push_num_threads(&Here, __kmpc_global_thread_num(&Here),
                          Threads ? Threads : 1);
}

void __capsule_omp_reverse_enter(void *Handle) {
  auto &R = *static_cast<Region *>(Handle);
  if (omp_get_num_threads() != (R.Threads ? R.Threads : 1))
    fail("the reverse sweep got a team of a different size than the "
         "forward sweep (OMP_DYNAMIC or a thread limit); run it with "
         "OMP_DYNAMIC=false");
  if (!R.Slots)
    return;
  ThreadSlot &S = R.Slots[omp_get_thread_num()];
  S.Saved = capsule::tapeDetach();
  capsule::tapeAttach(S.Records);
  S.SavedRegion = Current;
  Current = &R;
}

void __capsule_omp_reverse_leave(void *Handle) {
  auto &R = *static_cast<Region *>(Handle);
  if (!R.Slots)
    return;
  ThreadSlot &S = R.Slots[omp_get_thread_num()];
  capsule::tapeAttach(S.Saved);
  Current = S.SavedRegion;
}

void __capsule_omp_region_end(void *Handle) {
  auto *R = static_cast<Region *>(Handle);
  std::free(R->Slots);
  std::free(R);
}

// Critical sections, and a reduction's combination, which always takes one
// (the differentiated code keeps only that branch of clang's switch). Each
// returns the ticket of the section, its place in the order threads went
// through sections of its name in the region: the reverse sweep goes
// through them in the opposite order, as the adjoint of `m = max(m, p)`
// needs (the last thread's update decides).
int64_t __capsule_omp_critical(void *Loc, int32_t Gtid, void *Lock) {
  __kmpc_critical(static_cast<Ident *>(Loc), Gtid, Lock);
  int64_t Ticket = Current ? criticalName(*Current, Lock).Taken++ : 0;
  if (NestedCritical == MaxNestedCritical)
    fail("critical sections nested more than 8 deep");
  Tickets[NestedCritical++] = Ticket;
  return Ticket;
}

int64_t __capsule_omp_end_critical(void *Loc, int32_t Gtid, void *Lock) {
  int64_t Ticket = Tickets[--NestedCritical];
  __kmpc_end_critical(static_cast<Ident *>(Loc), Gtid, Lock);
  return Ticket;
}

int64_t __capsule_omp_end_reduce(void *Loc, int32_t Gtid, void *Lock) {
  int64_t Ticket = __capsule_omp_end_critical(Loc, Gtid, Lock);
  __kmpc_barrier(static_cast<Ident *>(Loc), Gtid);
  return Ticket;
}

void __capsule_omp_reverse_enter_critical(void *Lock, int64_t Ticket) {
  if (!Current)
    return __kmpc_critical(&Here, __kmpc_global_thread_num(&Here), Lock);
  CriticalName &Name = criticalName(*Current, Lock);
  while (Name.Taken - 1 - Ticket !=
         __atomic_load_n(&Name.Reversed, __ATOMIC_ACQUIRE))
    sched_yield();
}

void __capsule_omp_reverse_exit_critical(void *Lock, int64_t) {
  if (!Current)
    return __kmpc_end_critical(&Here, __kmpc_global_thread_num(&Here), Lock);
  __atomic_fetch_add(&criticalName(*Current, Lock).Reversed, 1,
                     __ATOMIC_RELEASE);
}

void __capsule_omp_reverse_barrier(void) {
  __kmpc_barrier(&Here, __kmpc_global_thread_num(&Here));
}
} // extern "C"
