//===- GreenRun.cpp - Untaped forward sweeps ------------------------------===//
//
// The flag that the tape's slow paths and the shadow allocator test; the
// tape's part of the run's edges is in Tape.cpp.
//===----------------------------------------------------------------------===//
#include "GreenRun.h"
#include "Config.h"
#include "ScratchShadows.h"

namespace capsule {

__thread bool GreenRunActive;

namespace {

__thread char *ScratchMark;

} // namespace

void beginGreenRun() {
  if (GreenRunActive)
    failInternal("a green run began inside another green run");
  tapeBeginGreenRun();
  ScratchMark = scratchShadowMark();
  GreenRunActive = true;
}

void endGreenRun() {
  if (!GreenRunActive)
    failInternal("a green run ended that had not begun");
  GreenRunActive = false;
  tapeEndGreenRun();
  releaseScratchShadowsAbove(ScratchMark);
}

} // namespace capsule
