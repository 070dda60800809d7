//===- Differentiator.cpp - Derivatives of the functions of a module ------===//
#include "Differentiator.h"

#include "Activity.h"
#include "Diagnostics.h"
#include "GradientGenerator.h"
#include "Preprocess.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace capsule {

StructType *reverseResultType(FunctionType *FT, ArrayRef<ArgActivity> Args) {
  SmallVector<Type *, 4> Elements;
  for (unsigned I = 0; I < Args.size(); ++I)
    if (Args[I] == ArgActivity::Out)
      Elements.push_back(FT->getParamType(I));
  return StructType::get(FT->getContext(), Elements);
}

Type *forwardReturnType(Type *RetTy) {
  if (!carriesPointer(RetTy))
    return RetTy;
  return StructType::get(RetTy->getContext(), {RetTy, RetTy});
}

/// A readable suffix naming the signature: c/d/o per argument, then r when
/// the result is active.
static std::string signatureSuffix(const DiffSignature &Sig) {
  std::string S = ".";
  for (ArgActivity A : Sig.Args)
    S += A == ArgActivity::Dup ? 'd' : A == ArgActivity::Out ? 'o' : 'c';
  if (Sig.ActiveReturn)
    S += "r";
  if (!Sig.TopLevel && Sig.StableArgs)
    S += ".s" + utohexstr(Sig.StableArgs);
  return S;
}

/// f.capsule.fwd.<signature>. A function differentiated both for a marker
/// and as a callee (recursion) has two derivatives of the same signature;
/// the second one created says which it is.
std::string Differentiator::derivativeName(const DiffSignature &Sig,
                                           StringRef Sweep) const {
  std::string Name =
      (Sig.Fn->getName() + ".capsule." + Sweep + signatureSuffix(Sig)).str();
  if (M.getFunction(Name))
    Name += Sig.TopLevel ? ".top" : ".nested";
  return Name;
}

Differentiator::Differentiator(Module &M, FunctionAnalysisManager &FAM)
    : M(M), FAM(FAM), ABI(M) {}
Differentiator::~Differentiator() = default;

Function *Differentiator::declareForward(const DiffSignature &Sig) {
  FunctionType *FT = Sig.Fn->getFunctionType();
  SmallVector<Type *, 8> Params(FT->params());
  for (ArgActivity A : Sig.Args)
    if (A == ArgActivity::Dup)
      Params.push_back(PointerType::getUnqual(M.getContext()));
  auto *Ty =
      FunctionType::get(forwardReturnType(FT->getReturnType()), Params, false);
  return Function::Create(Ty, GlobalValue::InternalLinkage,
                          derivativeName(Sig, Sig.Untaped ? "untaped" : "fwd"),
                          M);
}

Function *Differentiator::declareReverse(const DiffSignature &Sig) {
  FunctionType *FT = Sig.Fn->getFunctionType();
  SmallVector<Type *, 1> Params;
  if (Sig.ActiveReturn)
    Params.push_back(FT->getReturnType());
  auto *Ty = FunctionType::get(reverseResultType(FT, Sig.Args), Params, false);
  Function *Rev = Function::Create(Ty, GlobalValue::InternalLinkage,
                                   derivativeName(Sig, "rev"), M);
  Rev->addFnAttr(Attribute::NoUnwind);
  // Reverse sweeps scatter small updates into neighbouring shadow elements
  // (a stencil's adjoint); vectorized, those become wide loads of memory
  // just written by narrow stores, which stalls store forwarding. No
  // vectorizer may touch them: measured A/B at -O2 (docs/design.md), rk4
  // 6.2 -> 3.2 and rotation 8.9 -> 7.9 gradient/primal, gmm and lstm
  // unchanged. noimplicitfloat is the attribute both vectorizers honour; it
  // does not affect the reverse sweep's own floating-point arithmetic.
  Rev->addFnAttr(Attribute::NoImplicitFloat);
  return Rev;
}

Derivative Differentiator::get(const DiffSignature &Sig) {
  auto It = Derivatives.find(Sig);
  if (It != Derivatives.end())
    return It->second;
  Derivative Dv{declareForward(Sig),
                Sig.Untaped ? nullptr : declareReverse(Sig)};
  Derivatives[Sig] = Dv;
  Pending.push_back(Sig);
  return Dv;
}

Function *Differentiator::prepared(Function &F) {
  Function *&P = Prepared[&F];
  if (!P)
    P = prepareForDifferentiation(F);
  return P;
}

/// A computed goto jumps to addresses of the user's function's blocks,
/// which generated code does not have (the interruptible builder refuses it
/// for the same reason).
/// clang gathers every `goto *p` of a function in one indirectbr without a
/// source line; the address it jumps to, or a branch of one of the gotos to
/// it, has one.
static const Instruction *computedGoto(const Function &F) {
  auto HasLine = [](const Instruction *I) {
    return I && I->getDebugLoc() && I->getDebugLoc().getLine() != 0;
  };
  for (const BasicBlock &BB : F) {
    const Instruction *Goto = BB.getTerminator();
    if (!isa<IndirectBrInst, CallBrInst>(Goto))
      continue;
    SmallVector<const Instruction *, 4> Candidates{Goto};
    if (auto *IB = dyn_cast<IndirectBrInst>(Goto))
      Candidates.push_back(dyn_cast<Instruction>(IB->getAddress()));
    for (const BasicBlock *Pred : predecessors(&BB))
      Candidates.push_back(Pred->getTerminator());
    auto Located = find_if(Candidates, HasLine);
    return Located != Candidates.end() ? *Located : Goto;
  }
  return nullptr;
}

/// Bodies for the derivatives of a function that was refused: the
/// compilation fails, but the module must stay valid until it does.
static void giveUnreachableBodies(const Derivative &Dv) {
  for (Function *F : {Dv.Fwd, Dv.Rev})
    if (F)
      new UnreachableInst(F->getContext(),
                          BasicBlock::Create(F->getContext(), "refused", F));
}

void Differentiator::run() {
  while (!Pending.empty()) {
    DiffSignature Sig = Pending.front();
    Pending.pop_front();
    if (const Instruction *Goto = computedGoto(*Sig.Fn)) {
      reportUnsupported(*Goto, *Sig.Fn,
                        "computed goto (goto *p, indirectbr) and asm goto "
                        "are not supported");
      noteFailure();
      giveUnreachableBodies(Derivatives[Sig]);
      continue;
    }
    Function &P = *prepared(*Sig.Fn);
    GradientGenerator(*this, Sig, P, Derivatives[Sig], FAM).run();
  }
}

void Differentiator::finish() {
  // Analyses cached for the scratch clones must not outlive them.
  FAM.clear();
  for (auto &[F, P] : Prepared)
    P->dropAllReferences();
  for (auto &[F, P] : Prepared)
    P->eraseFromParent();
  Prepared.clear();
}

DiffSignature Differentiator::signatureAtCall(const CallBase &Call,
                                              Function *Callee,
                                              const ActivityInfo &AI) const {
  DiffSignature S;
  S.Fn = Callee;
  for (const Use &U : Call.args()) {
    Type *T = U->getType();
    if (T->isPointerTy())
      S.Args.push_back(AI.hasShadow(U) ? ArgActivity::Dup : ArgActivity::Const);
    else if (carriesFloat(T) && AI.isVaried(U))
      S.Args.push_back(ArgActivity::Out);
    else
      S.Args.push_back(ArgActivity::Const);
  }
  S.ActiveReturn = carriesFloat(Call.getType()) && AI.isActive(&Call);
  return S;
}

GlobalVariable *Differentiator::shadowGlobal(GlobalVariable *G) {
  GlobalVariable *&S = ShadowOf[G];
  if (!S) {
    S = new GlobalVariable(M, G->getValueType(), /*isConstant=*/false,
                           GlobalValue::InternalLinkage,
                           Constant::getNullValue(G->getValueType()),
                           G->getName() + ".capsule.shadow");
    S->setAlignment(G->getAlign());
    ShadowGlobals.push_back(S);
  }
  return S;
}

Constant *Differentiator::shadowOfConstant(Constant *C) {
  if (!C->getType()->isPointerTy() || !constantHasShadow(C))
    return nullptr;
  if (auto *G = dyn_cast<GlobalVariable>(C))
    return shadowGlobal(G);
  if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    SmallVector<Constant *, 4> Ops;
    for (const Use &U : CE->operands())
      Ops.push_back(cast<Constant>(U));
    Ops[0] = shadowOfConstant(Ops[0]);
    return Ops[0] ? CE->getWithOperands(Ops) : nullptr;
  }
  return nullptr;
}

void Differentiator::emitZeroShadowGlobals(IRBuilder<> &B) const {
  const DataLayout &DL = M.getDataLayout();
  for (GlobalVariable *Shadow : ShadowGlobals)
    B.CreateMemSet(Shadow, B.getInt8(0),
                   DL.getTypeAllocSize(Shadow->getValueType()),
                   Shadow->getAlign());
}

} // namespace capsule
