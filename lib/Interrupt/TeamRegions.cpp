//===- TeamRegions.cpp - OpenMP parallel regions in interruptible code ----===//
#include "Interrupt/TeamRegions.h"

#include "Support/ParallelRegions.h"
#include "Support/RuntimeABI.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

Function *teamShell(Function &Body, RuntimeABI &ABI) {
  LLVMContext &C = Body.getContext();
  SmallVector<Type *, 8> Params(Body.getFunctionType()->params());
  Params.push_back(Type::getInt64Ty(C));
  Function *Shell = Function::Create(
      FunctionType::get(Type::getVoidTy(C), Params, /*isVarArg=*/false),
      GlobalValue::InternalLinkage, Body.getName() + ".shell",
      Body.getParent());
  // Code generation must see the same target as for the body.
  for (StringRef Attr : {"target-cpu", "target-features", "tune-cpu"})
    if (Body.hasFnAttribute(Attr))
      Shell->addFnAttr(Body.getFnAttribute(Attr));
  Shell->addFnAttr(Attribute::NoUnwind);
  // The body reads the journal depth where it starts, which must stay after
  // team_enter while code is generated (clang makes microtasks
  // always_inline, which the preparation for differentiation honours).
  Body.removeFnAttr(Attribute::AlwaysInline);
  Body.addFnAttr(Attribute::NoInline);
  IRBuilder<> B(BasicBlock::Create(C, "entry", Shell));
  Value *Team = Shell->getArg(Shell->arg_size() - 1);
  B.CreateCall(ABI.ompTeamStep("team_enter"), {Team});
  SmallVector<Value *, 8> Args;
  for (unsigned K = 0; K + 1 < Shell->arg_size(); ++K)
    Args.push_back(Shell->getArg(K));
  B.CreateCall(&Body, Args);
  B.CreateCall(ABI.ompTeamStep("team_leave"), {Team});
  B.CreateRetVoid();
  return Shell;
}

void callInTeam(CallBase &Region, Function &Shell, RuntimeABI &ABI) {
  IRBuilder<> B(&Region);
  Value *Team = B.CreateCall(ABI.ompTeamBegin(), {}, "omp.team");
  SmallVector<Value *, 8> Args(Region.args());
  Args.push_back(Team);
  CallInst *InTeam = B.CreateCall(&Shell, Args);
  InTeam->copyMetadata(Region);
  B.SetInsertPoint(Region.getNextNode());
  B.CreateCall(ABI.ompTeamStep("team_end"), {Team});
  Region.eraseFromParent();
}

void forkParallelRegions(Module &M) {
  SmallVector<CallBase *, 8> Regions;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (isParallelRegionCall(*Call))
          Regions.push_back(Call);
  for (CallBase *Region : Regions) {
    Function &Task = *Region->getCalledFunction();
    IRBuilder<> B(Region);
    SmallVector<Value *, 8> Captures(drop_begin(Region->args(), 2));
    emitFork(B, parallelRegionLocation(*Region),
             forkedCallTask(Task, Task.getName() + ".fork", {}, nullptr),
             Captures);
    Region->eraseFromParent();
  }
}

} // namespace capsule
