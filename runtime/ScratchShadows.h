//===- ScratchShadows.h - Shadows of a leaf's stack slots -----------------===//
#ifndef CAPSULE_RUNTIME_SCRATCHSHADOWS_H
#define CAPSULE_RUNTIME_SCRATCHSHADOWS_H

namespace capsule {

/// Whether P lies in this thread's scratch shadows (the journal skips it).
bool inScratchShadows(const void *P);

/// The current top of this thread's scratch shadows, and dropping every
/// block allocated since: a green run's blocks never meet their reverse
/// sweep.
char *scratchShadowMark();
void releaseScratchShadowsAbove(char *Mark);

/// The address range of this thread's scratch shadows, reserving it first
/// if need be. Another thread writing there (a thread of a team this one
/// forked, JournalTeams.cpp) must not journal the write either.
struct ScratchRange {
  const char *Begin, *End;
};
ScratchRange scratchShadowRange();

} // namespace capsule

#endif // CAPSULE_RUNTIME_SCRATCHSHADOWS_H
