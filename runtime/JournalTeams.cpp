//===- JournalTeams.cpp - Parallel regions of interruptible code ----------===//
//
// An OpenMP parallel region inside interruptible code (a checkpointed
// gradient's runs) executes as one step: no yield inside, so no thread ever
// stops in the middle of it. But the team's threads write memory a capsule
// must be able to roll back, and the journal, the region of runtime memory
// and the scratch shadows are each thread's own. So, while a thread runs its
// share of the region (between team_enter and team_leave):
//
//  - its stores are saved in the journal of the thread that forked the team
//    (one lock for all teams: only a miss of the thread's own filter takes
//    it, once per granule), and its filter caches what that journal saved;
//  - it sees the forking thread's region of runtime memory, so that the
//    shadows of frames and arena blocks are found at the same offsets;
//  - writes to the forking thread's machine stack below its run's driver
//    and to its scratch shadows are not journaled, as that thread's own
//    are not (Journal.cpp), nor are writes to the thread's own stack below
//    team_enter;
//  - it charges the blocks it runs to a budget of its own, which the team
//    sums and team_end takes from the forking thread's: a region's steps
//    are the work of all its iterations, whichever thread ran them, so the
//    same in every run with a team of the same size;
//  - in a green run (GreenRun.h), the scratch shadows its untaped sweep
//    allocated are dropped when it leaves.
//
// Teams nest: a thread of one team may fork another, whose threads save
// into the same journal and skip what the outer teams skip.
//===----------------------------------------------------------------------===//
#include "Config.h"
#include "GreenRun.h"
#include "Journal.h"
#include "ScratchShadows.h"
#include "Support.h"
#include "ThreadExit.h"

#include <cstdlib>
#include <cstring>

namespace capsule {

struct Team {
  Journal *Target; // null: no snapshot was live when the team formed
  uint32_t Depth;
  char *RegionBase;
  // The forking thread's memory that no write journals.
  const char *StackLow, *StackTop;
  ScratchRange Scratch;
  const void *Forker; // the forking thread's ForkerToken
  bool Green;
  int64_t Steps; // what the other threads' shares charged
  Team *Outer;   // the team the forking thread runs in
};

namespace {

/// What a thread had before it joined a team, given back when it leaves.
struct Membership {
  Team *Joined;
  int64_t Budget;
  uint32_t Depth;
  char *RegionBase;
  char *RunStackTop;
  char *ScratchMark;
};
constexpr int MaxNestedTeams = 8;
__thread Membership Memberships[MaxNestedTeams];
__thread int Joined;
__thread char ForkerToken;

pthread_mutex_t TeamJournalMutex = PTHREAD_MUTEX_INITIALIZER;

/// What this thread knows a team's journal has saved, valid while the
/// journal's generation stays (the snapshot does not change while teams
/// run, only between them): the granules of its single stores, and the
/// last few ranges it saved (a parallel loop saves its chunk of an array
/// before it runs, JournalBarriers.h). A time loop whose steps are parallel
/// regions writes the same memory in every step; after the first, its
/// threads find it here, without the lock. (The thread's filter would too,
/// but it is small and direct-mapped: a loop storing to two arrays can
/// evict each store's granule with the other's.)
struct SavedRange {
  uintptr_t First = 1, Last = 0; // empty
};
constexpr unsigned SavedRangeCount = 4;
struct KnownSaved {
  const Journal *In = nullptr;
  uint64_t Generation = 0;
  GranuleSet Granules;
  SavedRange Ranges[SavedRangeCount] = {};
  unsigned NextRange = 0;
};
__thread KnownSaved Known;
__thread bool KnownCleanupRegistered;

void freeKnown(void *) {
  freeGranules(Known.Granules);
  KnownCleanupRegistered = false;
}

/// This thread's knowledge of \p J, emptied if it was of another snapshot.
KnownSaved &knownIn(const Journal &J) {
  if (Known.In != &J || Known.Generation != J.generation()) {
    if (!KnownCleanupRegistered) {
      runAtThreadExit<freeKnown>(nullptr);
      KnownCleanupRegistered = true;
    }
    clearGranules(Known.Granules);
    for (SavedRange &R : Known.Ranges)
      R = SavedRange();
    Known.In = &J;
    Known.Generation = J.generation();
  }
  return Known;
}

/// Whether \p K knows [First, Last] saved; remembers it otherwise, since
/// the caller saves it next.
bool knownSaved(KnownSaved &K, uintptr_t First, uintptr_t Last) {
  if (First == Last)
    return !insertGranule(K.Granules, First);
  for (const SavedRange &R : K.Ranges)
    if (R.First <= First && Last <= R.Last)
      return true;
  K.Ranges[K.NextRange++ % SavedRangeCount] = {First, Last};
  return false;
}

void forgetFilter() {
  std::memset(__capsule_journal_filter, 0, sizeof(__capsule_journal_filter));
}

bool privateToForkers(const Team *T, const char *At) {
  for (; T; T = T->Outer)
    if ((At >= T->StackLow && At < T->StackTop) ||
        (At >= T->Scratch.Begin && At < T->Scratch.End))
      return true;
  return false;
}

} // namespace

__thread Team *CurrentTeam;

void teamJournalWrite(Team &T, void *Addr, uint64_t Bytes) {
  const char *At = static_cast<const char *>(Addr);
  if (!T.Target || !Bytes || privateToForkers(&T, At))
    return;
  uintptr_t First = reinterpret_cast<uintptr_t>(At) & ~(GranuleBytes - 1);
  uintptr_t Last =
      (reinterpret_cast<uintptr_t>(At) + Bytes - 1) & ~(GranuleBytes - 1);
  Journal &J = *T.Target;
  if (knownSaved(knownIn(J), First, Last))
    return;
  {
    MutexLock Guard(TeamJournalMutex);
    J.write(Addr, Bytes);
  }
  if (First == Last)
    __capsule_journal_filter[(First >> 3) &
                             (CAPSULE_JOURNAL_FILTER_SLOTS - 1)] = First;
}

} // namespace capsule

using namespace capsule;

extern "C" uint64_t __capsule_omp_team_begin(void) {
  // Outside a run there is nothing to do.
  if (!CurrentTeam && !RunStackTop)
    return 0;
  auto *T = static_cast<Team *>(std::calloc(1, sizeof(Team)));
  if (!T)
    failInternal("out of memory for a parallel region's team");
  Team *Outer = CurrentTeam;
  if (Outer) {
    T->Target = Outer->Target;
    T->Depth = Outer->Depth;
  } else if (__capsule_journal_depth) {
    T->Target = &threadJournal();
    T->Depth = __capsule_journal_depth;
  }
  T->RegionBase = __capsule_region_base;
  T->StackLow = static_cast<char *>(__builtin_frame_address(0));
  T->StackTop = RunStackTop ? RunStackTop : T->StackLow;
  T->Scratch = scratchShadowRange();
  T->Forker = &ForkerToken;
  T->Green = inGreenRun() || (Outer && Outer->Green);
  T->Outer = Outer;
  return reinterpret_cast<uintptr_t>(T);
}

extern "C" void __capsule_omp_team_enter(uint64_t Handle) {
  auto *T = reinterpret_cast<Team *>(Handle);
  if (!T)
    return;
  if (Joined == MaxNestedTeams)
    failInternal("parallel regions nested more than %d deep in "
                 "interruptible code",
                 MaxNestedTeams);
  Memberships[Joined++] = {
      CurrentTeam,           __capsule_budget, __capsule_journal_depth,
      __capsule_region_base, RunStackTop,      scratchShadowMark()};
  CurrentTeam = T;
  if (T->Forker == &ForkerToken)
    return;
  __capsule_region_base = T->RegionBase;
  __capsule_journal_depth = T->Depth;
  __capsule_budget = 0;
  forgetFilter();
  // This thread's share of the region runs below here.
  RunStackTop = static_cast<char *>(__builtin_frame_address(0));
}

extern "C" void __capsule_omp_team_leave(uint64_t Handle) {
  auto *T = reinterpret_cast<Team *>(Handle);
  if (!T)
    return;
  Membership M = Memberships[--Joined];
  CurrentTeam = M.Joined;
  if (T->Forker == &ForkerToken)
    return;
  if (T->Green)
    releaseScratchShadowsAbove(M.ScratchMark);
  __atomic_fetch_add(&T->Steps, -__capsule_budget, __ATOMIC_RELAXED);
  __capsule_budget = M.Budget;
  __capsule_region_base = M.RegionBase;
  __capsule_journal_depth = M.Depth;
  RunStackTop = M.RunStackTop;
  // What the filter holds now belongs to the team's journal.
  forgetFilter();
}

extern "C" void __capsule_omp_team_end(uint64_t Handle) {
  auto *T = reinterpret_cast<Team *>(Handle);
  if (!T)
    return;
  // The fork's join ordered the other threads' additions before this.
  __capsule_budget -= T->Steps;
  std::free(T);
}
