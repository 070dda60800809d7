//===- GreenRun.cpp - Untaped forward sweeps ------------------------------===//
//
// The flag that the tape's slow push and the shadow allocator test; the work
// at the run's edges is theirs (Tape.cpp, Shadow.cpp).
//===----------------------------------------------------------------------===//
#include "GreenRun.h"
#include "Config.h"
#include "ScratchShadows.h"

#include <cstdio>
#include <cstdlib>

namespace capsule {
namespace {

__thread bool Active;
__thread char *ScratchMark;

} // namespace

void beginGreenRun() {
  if (Active)
    failInternal("a green run began inside another green run");
  // Checks that the tape is empty before any push can land in the run.
  tapeBeginGreenRun();
  ScratchMark = scratchShadowMark();
  Active = true;
}

void endGreenRun() {
  if (!Active)
    failInternal("a green run ended that had not begun");
  Active = false;
  tapeEndGreenRun();
  freeGreenShadows();
  releaseScratchShadowsAbove(ScratchMark);
}

bool inGreenRun() { return Active; }

} // namespace capsule
