//===- GradientGenerator.cpp - Generates one derivative -------------------===//
#include "Reverse/GradientGenerator.h"
#include "Support/GeneratedCode.h"
#include "Support/RuntimeStateInRegisters.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace capsule {

GradientGenerator::GradientGenerator(Differentiator &D,
                                     const DiffSignature &Sig,
                                     Function &Prepared, Derivative Target,
                                     FunctionAnalysisManager &FAM)
    : D(D), Sig(Sig), Checkpointed(isCheckpointedCode(*Sig.Fn)), P(Prepared),
      Target(Target), AI(Prepared, this->Sig), DL(Prepared.getDataLayout()),
      Checks(AI, DL), Loops(FAM.getResult<LoopAnalysis>(Prepared)),
      SE(FAM.getResult<ScalarEvolutionAnalysis>(Prepared)),
      AA(FAM.getResult<AAManager>(Prepared)), RB(Prepared.getContext()) {}

void GradientGenerator::run() {
  for (BasicBlock &BB : P)
    if (isa<ReturnInst>(BB.getTerminator()))
      Exit = &BB;
  // Only blocks on a path to the return are ever reversed; the others end
  // the program (abort, exit, unreachable) before any reverse sweep runs.
  if (Exit) {
    SmallVector<BasicBlock *, 16> Work{Exit};
    ReachesExit.insert(Exit);
    while (!Work.empty())
      for (BasicBlock *Pred : predecessors(Work.pop_back_val()))
        if (ReachesExit.insert(Pred).second)
          Work.push_back(Pred);
  }
  for (BasicBlock &BB : P) {
    auto &Ps = Preds[&BB];
    for (BasicBlock *Pred : predecessors(&BB))
      if (!is_contained(Ps, Pred))
        Ps.push_back(Pred);
  }
  if (Sig.Untaped) {
    buildForward();
    return;
  }
  findInductionVariables();
  findWriters();
  findReloadableLoads();
  buildReverse();
  buildForward();

  // Adjoint slots and loop-invariant caches become registers.
  DominatorTree RevDT(*Target.Rev);
  SmallVector<AllocaInst *, 32> Slots;
  for (auto &[V, Slot] : AdjointSlots)
    Slots.push_back(Slot);
  for (auto &[Key, Slot] : CacheSlots)
    Slots.push_back(Slot);
  if (!Slots.empty())
    PromoteMemToReg(Slots, RevDT);
  keepTapeInRegisters(*Target.Fwd, D.abi());
  keepTapeInRegisters(*Target.Rev, D.abi());
}

} // namespace capsule
