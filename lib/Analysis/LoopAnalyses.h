//===- LoopAnalyses.h - Scalar evolution of generated code ------*- C++ -*-===//
//
// Passes that rewrite loops of code Capsule generates (atomic loops, journal
// barriers) need scalar evolution over functions no analysis manager has
// seen yet, and build it fresh, once per function, from these analyses.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_LOOPANALYSES_H
#define CAPSULE_LOOPANALYSES_H

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

namespace capsule {

/// Dominators, loops and scalar evolution of one function, valid until its
/// control flow changes. Scalar evolution refers to the others, so the
/// bundle stays where it is built.
struct LoopAnalyses {
  explicit LoopAnalyses(llvm::Function &F)
      : DT(F), LI(DT), TLII(llvm::Triple(F.getParent()->getTargetTriple())),
        TLI(TLII, &F), AC(F), SE(F, TLI, AC, DT, LI) {}
  LoopAnalyses(const LoopAnalyses &) = delete;
  LoopAnalyses &operator=(const LoopAnalyses &) = delete;

  llvm::DominatorTree DT;
  llvm::LoopInfo LI;
  llvm::TargetLibraryInfoImpl TLII;
  llvm::TargetLibraryInfo TLI;
  llvm::AssumptionCache AC;
  llvm::ScalarEvolution SE;
};

} // namespace capsule

#endif
