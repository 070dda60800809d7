//===- StepModel.h - What a step is; which functions yield ------*- C++ -*-===//
//
// Interruptible execution counts steps (docs/interrupt.md): each block costs
// its instruction count, a call to a bounded leaf function costs the leaf's
// bound (it runs atomically), and an external call is one instruction (a
// library routine whose work the runtime knows is charged that work besides,
// StepInstrumentation.cpp). A function is a bounded leaf when its control flow
// is acyclic, it is not recursive and it calls only bounded leaves and external
// functions; every other function reachable from a root, and the root itself,
// is resumable: it gets a step variant that can yield. The code of an OpenMP
// parallel region is neither: its team never stops inside it, loops or not, so
// it runs atomically, each thread charging the iterations of its loops.
//===----------------------------------------------------------------------===//
#ifndef CAPSULE_STEPMODEL_H
#define CAPSULE_STEPMODEL_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstdint>

namespace llvm {
class BasicBlock;
class CallBase;
class Instruction;
class Function;
} // namespace llvm

namespace capsule {

class StepModel {
public:
  /// Classifies \p Functions, which must be closed under calls (every
  /// defined function they call directly is among them); \p Roots are
  /// resumable whatever they contain, \p TeamCode (among \p Functions)
  /// runs atomically whatever it contains: the code of OpenMP parallel
  /// regions, charged its bound where it is called when it has neither
  /// loops nor recursion, else charging its loops itself (chargesItself).
  /// \p RuleCode (among \p Functions) is the code of functions with
  /// gradient rules of the user's in a checkpointed gradient, with the
  /// rules' own code: it runs atomically and is charged nothing, since a
  /// green run's function and a taped run's augmented rule must cost the
  /// same (the call itself is one step). With \p OnlyCounted,
  /// a step is one call of that function (loop-iteration checkpointing):
  /// its entry block costs one step, and all other code nothing.
  StepModel(llvm::ArrayRef<llvm::Function *> Functions,
            llvm::ArrayRef<llvm::Function *> Roots,
            llvm::ArrayRef<llvm::Function *> TeamCode,
            llvm::ArrayRef<llvm::Function *> RuleCode,
            const llvm::Function *OnlyCounted = nullptr);

  bool isResumable(const llvm::Function &F) const {
    return !LeafBounds.count(&F);
  }
  /// Whether \p F is the code of a parallel region.
  bool isTeamCode(const llvm::Function &F) const { return TeamCode.count(&F); }
  /// Whether \p F is rule code (charged nothing).
  bool isRuleCode(const llvm::Function &F) const { return RuleCode.count(&F); }
  /// Whether \p F is team code that charges the blocks of its loops itself
  /// (each thread its own budget, summed over the team by the runtime),
  /// its calls being charged nothing.
  bool chargesItself(const llvm::Function &F) const;
  /// The steps a call of leaf \p F is charged.
  uint64_t leafBound(const llvm::Function &F) const {
    return LeafBounds.lookup(&F);
  }
  /// The steps executing \p BB is charged: its instructions (phis and
  /// debug or lifetime markers excluded) plus the bounds of the leaves it
  /// calls.
  uint64_t blockCost(const llvm::BasicBlock &BB) const;
  /// Whether the work \p BB does is charged (its instructions, and the work
  /// of the library routines it calls): not in loop-iteration
  /// checkpointing, which counts calls of one function only, nor in blocks
  /// whose charge could differ between runs (replay arms, critical
  /// sections).
  bool chargesWork(const llvm::BasicBlock &BB) const;

private:
  bool isAcyclic(const llvm::Function &F) const;
  uint64_t longestPath(const llvm::Function &F) const;
  void boundInPostOrder(const llvm::SetVector<llvm::Function *> &Fns);
  void boundTeamCode(llvm::ArrayRef<llvm::Function *> Team);

  llvm::DenseMap<const llvm::Function *, uint64_t> LeafBounds;
  llvm::SmallPtrSet<const llvm::Function *, 8> TeamCode;
  llvm::SmallPtrSet<const llvm::Function *, 8> RuleCode;
  /// Blocks of team code inside critical sections, charged nothing: the
  /// order threads pass a section, and so which of its blocks run (`if (v
  /// > m) m = v;`), changes from run to run, while the steps may not.
  llvm::SmallPtrSet<const llvm::BasicBlock *, 8> InCritical;
  const llvm::Function *OnlyCounted;
};

/// The function a call calls directly when it is defined in the module.
llvm::Function *definedCallee(const llvm::CallBase &Call);

/// Whether \p I is free in the step model: phis, debug and lifetime
/// markers, and other hints that generate no code.
bool isFreeInstruction(const llvm::Instruction &I);

} // namespace capsule

#endif
