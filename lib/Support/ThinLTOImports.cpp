//===- ThinLTOImports.cpp - What ThinLTO must import for derivatives ------===//
#include "Support/ThinLTOImports.h"

#include "Support/CustomRules.h"
#include "Support/GeneratedCode.h"
#include "Support/LinkTime.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <map>

using namespace llvm;

namespace capsule {

namespace {

/// On the terminator of each block the compile added.
const char *const ImportsMD = "capsule.lto.imports";
/// On a function that was noinline (and optnone, when its operand is 1).
const char *const NoInlineMD = "capsule.lto.noinline";
const char *const RulesPrefix = "__capsule_rules.";
const char *const FunctionsPrefix = "__capsule_funcs.";
/// Once the compile made its requests (the backends see it too).
const char *const Requested = "capsule.lto.imports.requested";

bool isImportBlock(const BasicBlock &BB) {
  const Instruction *T = BB.getTerminator();
  return T && T->getMetadata(ImportsMD) && pred_empty(&BB);
}

/// The block of \p F that no branch reaches, made on first use.
BasicBlock &importBlock(Function &F) {
  for (BasicBlock &BB : F)
    if (isImportBlock(BB))
      return BB;
  LLVMContext &Ctx = F.getContext();
  auto *BB = BasicBlock::Create(Ctx, "", &F);
  new UnreachableInst(Ctx, BB);
  BB->getTerminator()->setMetadata(ImportsMD, MDNode::get(Ctx, {}));
  return *BB;
}

/// The linkage of what this file publishes about \p X: internal for a
/// local X; for one defined in several files alike (C++'s inline
/// definitions), one copy of the same in each; else one, whose name two
/// files cannot both give.
GlobalValue::LinkageTypes publishedLinkage(const GlobalValue &X, bool Unique) {
  if (X.hasLocalLinkage())
    return GlobalValue::InternalLinkage;
  return Unique ? GlobalValue::ExternalLinkage
                : GlobalValue::LinkOnceODRLinkage;
}

/// `__capsule_rules.X` for each X that \p M registers rules for: a
/// constant that ThinLTO imports with what refers to X, holding each
/// registration's name and contents (not the registration itself, which
/// would then count as written and stay behind). The functions the
/// registrations name leave the used lists (ThinLTO imports nothing that
/// refers to a local function kept so); the registrations keep them.
void publishRules(Module &M) {
  LLVMContext &Ctx = M.getContext();
  MapVector<GlobalValue *, SmallVector<Constant *, 2>> Published;
  SmallPtrSet<Constant *, 8> Named;
  SmallPtrSet<GlobalValue *, 8> Unique;
  for (GlobalVariable &G : M.globals())
    if (isRuleRegistration(G) && G.hasInitializer())
      if (GlobalValue *X = registeredSymbol(G)) {
        if (G.hasExternalLinkage() || G.hasLocalLinkage())
          Unique.insert(X);
        Constant *Init = G.getInitializer();
        Published[X].push_back(ConstantStruct::getAnon(
            {ConstantDataArray::getString(Ctx, G.getName(), /*AddNull=*/false),
             Init}));
        for (Value *Op : Init->operands())
          Named.insert(cast<Constant>(Op->stripPointerCasts()));
      }
  for (auto &[X, Regs] : Published) {
    Constant *Init = ConstantStruct::getAnon(Ctx, Regs);
    new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                       publishedLinkage(*X, Unique.contains(X)), Init,
                       RulesPrefix + X->getName());
  }
  removeFromUsedLists(M, [&](Constant *C) { return Named.contains(C); });
}

/// At the link: the registrations \p Rules (a `__capsule_rules.X`)
/// published, where the link imported it into another file.
void unpublishRules(Module &M, GlobalVariable &Rules) {
  if (!Rules.hasInitializer())
    return;
  for (Value *Op : Rules.getInitializer()->operands()) {
    auto *Reg = cast<ConstantStruct>(Op);
    StringRef Name = cast<ConstantDataArray>(Reg->getOperand(0))->getAsString();
    auto *Init = cast<Constant>(Reg->getOperand(1));
    if (GlobalVariable *Here = M.getNamedGlobal(Name);
        Here && Here->hasInitializer())
      continue; // the file that registers them
    new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                       GlobalValue::PrivateLinkage, Init, Name);
  }
}

/// `__capsule_rules.X`, where rules for X may be: here, or for an X with
/// external linkage, in any file.
GlobalVariable *rulesOf(Module &M, GlobalValue &X) {
  std::string Name = RulesPrefix + X.getName().str();
  if (GlobalVariable *R = M.getNamedGlobal(Name))
    return R;
  if (X.hasLocalLinkage())
    return nullptr;
  return new GlobalVariable(M, Type::getInt8Ty(M.getContext()),
                            /*isConstant=*/true,
                            GlobalValue::ExternalWeakLinkage, nullptr, Name);
}

bool isOwnSymbol(const GlobalValue &X) {
  StringRef Name = X.getName();
  return Name.starts_with(RulesPrefix) || Name.starts_with(FunctionsPrefix) ||
         Name.starts_with("llvm.") ||
         (isa<Function>(X) && cast<Function>(X).isIntrinsic());
}

/// The functions and variables \p C refers to, through constant
/// expressions and aggregates.
void collectSymbols(Constant *C, SetVector<GlobalValue *> &Out) {
  if (auto *X = dyn_cast<GlobalValue>(C)) {
    if (!isa<GlobalAlias>(X) && !isOwnSymbol(*X))
      Out.insert(X);
    return;
  }
  if (isa<ConstantExpr>(C) || isa<ConstantAggregate>(C))
    for (Value *Op : C->operands())
      collectSymbols(cast<Constant>(Op), Out);
}

/// The functions whose addresses \p V holds, directly or through the
/// variables it points to, as far as this file initializes them.
SetVector<Function *> functionsHeldBy(GlobalVariable &V) {
  SetVector<Function *> Fns;
  SetVector<GlobalValue *> Seen;
  Seen.insert(&V);
  for (unsigned I = 0; I < Seen.size(); ++I) {
    auto *G = dyn_cast<GlobalVariable>(Seen[I]);
    if (!G || !G->hasInitializer())
      continue;
    SetVector<GlobalValue *> Inner;
    collectSymbols(G->getInitializer(), Inner);
    for (GlobalValue *X : Inner)
      if (auto *Fn = dyn_cast<Function>(X))
        Fns.insert(Fn);
      else
        Seen.insert(X);
  }
  return Fns;
}

/// functionsHeldBy, once per variable.
class HeldFunctions {
  std::map<GlobalVariable *, SetVector<Function *>> Cache;

public:
  const SetVector<Function *> &of(GlobalVariable &V) {
    auto [It, New] = Cache.try_emplace(&V);
    if (New)
      It->second = functionsHeldBy(V);
    return It->second;
  }
};

/// Calls of \p Fns in \p F's block no branch reaches.
void callFromImportBlock(Function &F, ArrayRef<Function *> Fns) {
  if (Fns.empty())
    return;
  IRBuilder<> B(importBlock(F).getTerminator());
  for (Function *Fn : Fns) {
    SmallVector<Value *, 4> Args;
    for (Type *T : Fn->getFunctionType()->params())
      Args.push_back(PoisonValue::get(T));
    CallInst *Call = B.CreateCall(Fn, Args);
    Call->setCallingConv(Fn->getCallingConv());
    // A call in a function with debug information needs a location.
    if (DISubprogram *SP = F.getSubprogram())
      Call->setDebugLoc(DILocation::get(F.getContext(), SP->getLine(), 0, SP));
  }
}

/// An external function that calls \p Fns (from its block no branch
/// reaches).
Function *caller(Module &M, GlobalValue::LinkageTypes Linkage,
                 const Twine &Name, ArrayRef<Function *> Fns) {
  LLVMContext &Ctx = M.getContext();
  Function *F = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                 Linkage, Name, M);
  ReturnInst::Create(Ctx, BasicBlock::Create(Ctx, "", F));
  callFromImportBlock(*F, Fns);
  return F;
}

/// `__capsule_funcs.V` for each variable V of \p M that other files may
/// read and that holds function addresses (a table of callbacks, a
/// vtable): what reads V elsewhere calls it, so that the link imports the
/// functions an indirect call through V may reach.
void publishFunctionTables(Module &M, HeldFunctions &Held) {
  SmallVector<GlobalVariable *, 8> Tables;
  for (GlobalVariable &V : M.globals())
    if (V.hasInitializer() && !V.hasLocalLinkage() && !isOwnSymbol(V) &&
        !isRuleRegistration(V))
      Tables.push_back(&V);
  for (GlobalVariable *V : Tables)
    if (const SetVector<Function *> &Fns = Held.of(*V); !Fns.empty())
      caller(M, publishedLinkage(*V, V->hasExternalLinkage()),
             FunctionsPrefix + V->getName(), Fns.getArrayRef());
}

/// `__capsule_funcs.X` for a variable X another file defines: a weak
/// declaration, defined where X is if X holds function addresses.
Function *functionsOf(Module &M, GlobalValue &X) {
  std::string Name = FunctionsPrefix + X.getName().str();
  if (Function *F = M.getFunction(Name))
    return F;
  return Function::Create(
      FunctionType::get(Type::getVoidTy(M.getContext()), false),
      GlobalValue::ExternalWeakLinkage, Name, M);
}

/// What \p F uses: \p Called as a callee only, \p Referenced otherwise.
void usedSymbols(Function &F, SetVector<GlobalValue *> &Called,
                 SetVector<GlobalValue *> &Referenced) {
  for (Instruction &I : instructions(F))
    for (Use &U : I.operands()) {
      auto *C = dyn_cast<Constant>(U.get());
      if (!C)
        continue;
      auto *Call = dyn_cast<CallBase>(&I);
      if (Call && Call->isCallee(&U))
        collectSymbols(C, Called);
      else
        collectSymbols(C, Referenced);
    }
}

/// What \p F's callees and references must bring along: the functions it
/// takes the address of (the marker calls' functions among them) or finds
/// in the variables it reads, and every rule for what it uses.
void requestImportsOf(Function &F, HeldFunctions &Held) {
  Module &M = *F.getParent();
  SetVector<GlobalValue *> Called, Referenced;
  usedSymbols(F, Called, Referenced);
  SetVector<Function *> Reached;
  for (GlobalValue *X : Referenced)
    if (auto *Fn = dyn_cast<Function>(X))
      Reached.insert(Fn);
    else if (auto *V = dyn_cast<GlobalVariable>(X); V && V->hasInitializer())
      Reached.set_union(Held.of(*V));
    else if (!X->hasLocalLinkage())
      Reached.insert(functionsOf(M, *X));
  SmallVector<GlobalVariable *, 8> Rules;
  Called.set_union(Referenced);
  for (GlobalValue *X : Called)
    if (GlobalVariable *R = rulesOf(M, *X))
      Rules.push_back(R);
  if (!Rules.empty()) {
    IRBuilder<> B(importBlock(F).getTerminator());
    for (GlobalVariable *R : Rules)
      B.CreateLoad(B.getInt8Ty(), R);
  }
  callFromImportBlock(F, Reached.getArrayRef());
}

/// noinline keeps ThinLTO from importing a function; clang -O0 marks every
/// function so (with optnone, which needs it).
void liftNoInline(Function &F) {
  if (F.isDeclaration() || !F.hasFnAttribute(Attribute::NoInline) ||
      F.hasFnAttribute(Attribute::AlwaysInline))
    return;
  LLVMContext &Ctx = F.getContext();
  bool OptNone = F.hasFnAttribute(Attribute::OptimizeNone);
  F.setMetadata(NoInlineMD,
                MDNode::get(Ctx, ConstantAsMetadata::get(ConstantInt::get(
                                     Type::getInt1Ty(Ctx), OptNone))));
  F.removeFnAttr(Attribute::OptimizeNone);
  F.removeFnAttr(Attribute::NoInline);
}

void restoreNoInline(Function &F) {
  MDNode *MD = F.getMetadata(NoInlineMD);
  if (!MD)
    return;
  F.addFnAttr(Attribute::NoInline);
  if (mdconst::extract<ConstantInt>(MD->getOperand(0))->isOne())
    F.addFnAttr(Attribute::OptimizeNone);
  F.setMetadata(NoInlineMD, nullptr);
}

} // namespace

bool requestThinLTOImports(Module &M) {
  if (!awaitsThinLTOLink(M) || M.getNamedMetadata(Requested))
    return false;
  M.getOrInsertNamedMetadata(Requested);
  publishRules(M);
  HeldFunctions Held;
  publishFunctionTables(M, Held);
  SmallVector<Function *, 32> Defined;
  for (Function &F : M)
    if (!F.isDeclaration())
      Defined.push_back(&F);
  for (Function *F : Defined) {
    requestImportsOf(*F, Held);
    liftNoInline(*F);
  }
  return true;
}

void withdrawThinLTOImportRequests(Module &M) {
  SmallVector<BasicBlock *, 8> Blocks;
  for (Function &F : M) {
    restoreNoInline(F);
    for (BasicBlock &BB : F)
      if (isImportBlock(BB))
        Blocks.push_back(&BB);
  }
  for (BasicBlock *BB : Blocks)
    DeleteDeadBlock(BB);
  SmallVector<GlobalVariable *, 8> Rules;
  for (GlobalVariable &G : M.globals())
    if (G.getName().starts_with(RulesPrefix))
      Rules.push_back(&G);
  for (GlobalVariable *R : Rules)
    unpublishRules(M, *R);
  eraseUnusedGlobals(M, Rules);
  SmallVector<Function *, 8> Callers;
  for (Function &F : M)
    if (F.getName().starts_with(FunctionsPrefix))
      Callers.push_back(&F);
  for (Function *F : Callers)
    if (F->use_empty())
      F->eraseFromParent();
}

} // namespace capsule
