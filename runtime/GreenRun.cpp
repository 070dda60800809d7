//===- GreenRun.cpp - Untaped forward sweeps ------------------------------===//
//
// The flag that the tape's slow paths and the shadow allocator test; the
// tape's part of the run's edges is in Tape.cpp.
//===----------------------------------------------------------------------===//
#include "GreenRun.h"
#include "Config.h"
#include "ScratchShadows.h"

namespace capsule {
namespace {

__thread bool Active;
__thread char *ScratchMark;

} // namespace

void beginGreenRun() {
  if (Active)
    failInternal("a green run began inside another green run");
  tapeBeginGreenRun();
  ScratchMark = scratchShadowMark();
  Active = true;
}

void endGreenRun() {
  if (!Active)
    failInternal("a green run ended that had not begun");
  Active = false;
  tapeEndGreenRun();
  releaseScratchShadowsAbove(ScratchMark);
}

bool inGreenRun() { return Active; }

} // namespace capsule
