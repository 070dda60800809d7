//===- ParallelCalls.cpp - Derivatives of OpenMP parallel regions ---------===//
//
// A parallel region (Support/ParallelRegions.h) is a call of its microtask
// that a team runs. The forward sweep forks a team running the microtask's
// forward sweep, each thread recording on a tape of its own that the
// runtime keeps in a region object (runtime/omp/Parallel.cpp); the region
// object goes in this function's record. The reverse sweep forks a team of
// the same size running the microtask's reverse sweep, each thread on the
// tape it recorded, and sums the threads' adjoints of the captures passed
// by value. The microtask's derivatives (and its callees') have the
// Parallel signature bit: their reverse sweeps add adjoints to memory the
// team shares atomically (addToShadowMemory), and they reverse the team's
// synchronisation (reverseParallelSync).
//===----------------------------------------------------------------------===//
#include "Reverse/GradientGenerator.h"
#include "Support/GeneratedCode.h"
#include "Support/ParallelRegions.h"
#include "Support/RuntimeABI.h"

#include "llvm/Analysis/ValueTracking.h"

using namespace llvm;

namespace capsule {

/// void (gtid, btid, captures as forked..., shadows..., region): one
/// thread's share of the forward sweep, on a tape of its own.
static Function *forwardTask(Differentiator &D, Function &Fwd) {
  return forkedCallTask(
      Fwd, Fwd.getName() + ".task", {PointerType::getUnqual(Fwd.getContext())},
      [&](IRBuilder<> &B, Function &Task, bool Before) {
        B.CreateCall(
            D.abi().ompRegionStep(Before ? "forward_enter" : "forward_leave"),
            {Task.getArg(Task.arg_size() - 1)});
      });
}

/// void (gtid, btid, region, adjoints): one thread's share of the reverse
/// sweep, on the tape it recorded; it adds its adjoints of the captures
/// passed by value to the team's sum.
static Function *reverseTask(Differentiator &D, Function &Rev) {
  LLVMContext &C = Rev.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  const DataLayout &DL = Rev.getDataLayout();
  return microtask(
      *Rev.getParent(), Rev.getName() + ".task", {Ptr, Ptr},
      [&](IRBuilder<> &B, Function &Task) {
        Value *Region = Task.getArg(2);
        B.CreateCall(D.abi().ompRegionStep("reverse_enter"), {Region});
        Value *Adjoints = B.CreateCall(&Rev, {});
        if (carriesFloat(Adjoints->getType()))
          addAtomically(B, DL, Task.getArg(3), Adjoints);
        B.CreateCall(D.abi().ompRegionStep("reverse_leave"), {Region});
      });
}

void GradientGenerator::forwardParallelCall(CallBase &Call, CallBase *FwdCall,
                                            const DiffSignature &S) {
  Function *Fwd = D.get(S).Fwd;
  IRBuilder<> B(FwdCall);
  SmallVector<Value *, 8> Args;
  for (unsigned K = 2; K < Call.arg_size(); ++K)
    Args.push_back(fwdValue(Call.getArgOperand(K)));
  for (unsigned K = 2; K < S.Args.size(); ++K)
    if (S.Args[K] == ArgActivity::Dup)
      Args.push_back(fwdShadow(Call.getArgOperand(K)));
  CallInst *Fork;
  if (Sig.Untaped) {
    // A green run's team records nothing (checkpointed code).
    Fork = emitFork(B, parallelRegionLocation(Call),
                    forkedCallTask(*Fwd, Fwd->getName() + ".task", {}, nullptr),
                    Args);
  } else {
    Value *Region = B.CreateCall(D.abi().ompRegionBegin(), {}, "omp.region");
    Args.push_back(Region);
    Fork =
        emitFork(B, parallelRegionLocation(Call), forwardTask(D, *Fwd), Args);
    FwdCallFields[{&Call, RegionField}] = Region;
  }
  FwdCall->eraseFromParent();
  FwdMap[&Call] = Fork;
}

void GradientGenerator::reverseParallelCall(CallBase &Call,
                                            const DiffSignature &S) {
  Function *Rev = D.get(S).Rev;
  Value *Region = recordField(Current, &Call, RegionField, RB.getPtrTy());
  Type *AdjointsTy = Rev->getReturnType();
  Value *Adjoints = ConstantPointerNull::get(RB.getPtrTy());
  if (carriesFloat(AdjointsTy)) {
    IRBuilder<> EB(RevEntry, RevEntry->begin());
    Adjoints = EB.CreateAlloca(AdjointsTy, nullptr, "omp.adjoints");
    RB.CreateStore(zeroAdjoint(AdjointsTy), Adjoints);
  }
  RB.CreateCall(D.abi().ompRegionStep("reverse_begin"), {Region});
  emitFork(RB, parallelRegionLocation(Call), reverseTask(D, *Rev),
           {Region, Adjoints});
  RB.CreateCall(D.abi().ompRegionStep("region_end"), {Region});
  if (!carriesFloat(AdjointsTy))
    return;
  Value *Sum = RB.CreateLoad(AdjointsTy, Adjoints);
  unsigned Index = 0;
  for (unsigned K = 0; K < S.Args.size(); ++K)
    if (S.Args[K] == ArgActivity::Out)
      addAdjoint(Call.getArgOperand(K), RB.CreateExtractValue(Sum, Index++));
}

void GradientGenerator::reverseParallelSync(CallBase &Call) {
  auto Critical = [&](bool Enter) {
    RB.CreateCall(D.abi().ompReverseCritical(Enter),
                  {primal(Call.getArgOperand(2)), primal(&Call)});
  };
  switch (parallelSyncOf(Call.getCalledFunction()->getName())) {
  case ParallelSync::EnterCritical:
    return Critical(/*Enter=*/false);
  case ParallelSync::ExitCritical:
    return Critical(/*Enter=*/true);
  case ParallelSync::ExitCriticalThenBarrier:
    RB.CreateCall(D.abi().ompReverseBarrier());
    return Critical(/*Enter=*/true);
  case ParallelSync::Barrier:
    RB.CreateCall(D.abi().ompReverseBarrier());
    return;
  case ParallelSync::None:
    return;
  }
}

bool GradientGenerator::threadPrivate(Value *PrimalPtr) const {
  return isa<AllocaInst>(getUnderlyingObject(PrimalPtr));
}

} // namespace capsule
