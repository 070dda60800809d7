//===- TangentGenerator.cpp - Generates one forward-mode derivative -------===//
//
// Values, memory and arithmetic; calls are in TangentCalls.cpp. Each primal
// instruction gets its twin right after its clone, in reverse post-order,
// so every operand's twin exists when it is needed; phis get theirs once
// all blocks are done.
//===----------------------------------------------------------------------===//
#include "Forward/TangentGenerator.h"

#include "Analysis/MemoisationCheck.h"
#include "Analysis/MemoryKinds.h"
#include "Support/Cloning.h"
#include "Support/Diagnostics.h"
#include "Support/GeneratedCode.h"
#include "Support/Lanes.h"

#include "Support/RuntimeABI.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace capsule {

TangentGenerator::TangentGenerator(Differentiator &D, const DiffSignature &Sig,
                                   Function &Prepared, Function &Target)
    : D(D), Sig(Sig), W(Sig.Width), P(Prepared), T(Target),
      AI(Prepared, this->Sig), DL(Prepared.getDataLayout()), Checks(AI, DL) {}

void TangentGenerator::unsupported(const Instruction &I, const Twine &Why) {
  reportUnsupported(I, *Sig.Fn, Why);
  D.noteFailure();
}

Value *TangentGenerator::primal(Value *V) {
  if (isa<Constant>(V))
    return V;
  Value *Mapped = Map.lookup(V);
  assert(Mapped && "primal value has no clone");
  return Mapped;
}

Value *TangentGenerator::twin(Value *V) {
  if (auto *C = dyn_cast<Constant>(V)) {
    if (isTapeHeader(C))
      return W == 1 ? D.abi().tangentTape(0)
                    : ConstantVector::get(
                          to_vector(map_range(seq(W), [&](unsigned K) {
                            return D.abi().tangentTape(K);
                          })));
    if (W == 1)
      return D.shadowOfConstant(C, /*Lane=*/0, Sig.Level);
    // A global's lanes: one shadow global each.
    SmallVector<Constant *, 8> Lanes;
    for (unsigned K = 0; K < W; ++K)
      Lanes.push_back(D.shadowOfConstant(C, K, Sig.Level));
    return Lanes[0] ? ConstantVector::get(Lanes) : nullptr;
  }
  return Twins.lookup(V);
}

Value *TangentGenerator::twinOrZero(Value *V) {
  Value *Twin = twin(V);
  return Twin ? Twin : Constant::getNullValue(laneType(V->getType(), W));
}

Value *TangentGenerator::twinOrSink(IRBuilder<> &B, Value *V) {
  if (Value *Twin = twin(V))
    return Twin;
  if (!V->getType()->isPointerTy() ||
      isa<ConstantPointerNull, UndefValue, Function>(V))
    return Constant::getNullValue(laneType(V->getType(), W));
  if (W == 1)
    return B.CreateCall(D.abi().tangentSinkOf(), {primal(V)});
  // Each lane's tangents live apart: a sink of its own.
  return makeLanes(B, W, [&](unsigned K) -> Value * {
    return B.CreateCall(D.abi().tangentLaneSinkOf(),
                        {primal(V), B.getInt64(K)});
  });
}

Value *TangentGenerator::aggregateTwinOrSink(IRBuilder<> &B, Value *Agg) {
  auto *IV = dyn_cast<InsertValueInst>(Agg);
  if (!IV || twin(Agg))
    return twinOrZero(Agg);
  Value *Inserted = IV->getInsertedValueOperand();
  return B.CreateInsertValue(aggregateTwinOrSink(B, IV->getAggregateOperand()),
                             Inserted->getType()->isPointerTy()
                                 ? twinOrSink(B, Inserted)
                                 : twinOrZero(Inserted),
                             IV->getIndices());
}

Value *TangentGenerator::shadowOf(Value *Ptr) {
  return AI.hasShadow(Ptr) ? twin(Ptr) : nullptr;
}

void TangentGenerator::setTwin(Value *V, Value *Twin) {
  if (!Twin)
    return;
  if (!isa<Constant>(Twin))
    Twin->setName(V->getName() + "'");
  Twins[V] = Twin;
}

IRBuilder<> TangentGenerator::after(Instruction &I) {
  return IRBuilder<>(cast<Instruction>(Map[&I])->getNextNode());
}

void TangentGenerator::run() {
  cloneBody();
  if (W > 1)
    createLaneScopes();
  ReversePostOrderTraversal<Function *> RPOT(&P);
  for (BasicBlock *BB : RPOT)
    for (Instruction &I : make_early_inc_range(*BB))
      if (checkSupported(I))
        tangentInstruction(I);
  completePhis();
  if (W > 1)
    tagPrimalAccesses();
}

/// The lanes' shadows are memory of their own (the user's shadows of
/// different lanes are distinct, like shadows and primal memory; tangent
/// blocks and sinks are the lane's): saying so lets the optimizer vectorize
/// each lane's loops without checking, at run time, that no lane's stores
/// reach another lane's loads.
void TangentGenerator::createLaneScopes() {
  MDBuilder MDB(T.getContext());
  MDNode *Domain = MDB.createAnonymousAliasScopeDomain("capsule.lanes");
  PrimalScope = MDB.createAnonymousAliasScope(Domain, "primal");
  for (unsigned K = 0; K < W; ++K)
    LaneScopes.push_back(MDB.createAnonymousAliasScope(Domain, "lane"));
}

void TangentGenerator::tagLaneAccess(Instruction &I, unsigned Lane) {
  if (W == 1)
    return;
  SmallVector<Metadata *, 8> Others{PrimalScope};
  for (auto [K, Scope] : enumerate(LaneScopes))
    if (K != Lane)
      Others.push_back(Scope);
  LLVMContext &C = T.getContext();
  I.setMetadata(LLVMContext::MD_alias_scope,
                MDNode::get(C, {LaneScopes[Lane]}));
  I.setMetadata(LLVMContext::MD_noalias, MDNode::get(C, Others));
}

/// The primal's loads and stores, cloned, touch no lane's shadows.
void TangentGenerator::tagPrimalAccesses() {
  LLVMContext &C = T.getContext();
  SmallVector<Metadata *, 8> Lanes(LaneScopes.begin(), LaneScopes.end());
  MDNode *Scope = MDNode::get(C, {PrimalScope});
  MDNode *NoAlias = MDNode::get(C, Lanes);
  for (Instruction &I : instructions(P)) {
    if (!isa<LoadInst, StoreInst>(I))
      continue;
    if (auto *Clone = dyn_cast_or_null<Instruction>(Map.lookup(&I))) {
      Clone->setMetadata(LLVMContext::MD_alias_scope, Scope);
      Clone->setMetadata(LLVMContext::MD_noalias, NoAlias);
    }
  }
}

void TangentGenerator::cloneBody() {
  unsigned Next = 0;
  for (Argument &A : P.args())
    Map[&A] = T.getArg(Next++);
  for (Argument &A : P.args())
    if (Sig.Args[A.getArgNo()] != ArgActivity::Const)
      setTwin(&A, T.getArg(Next++));
  SmallVector<ReturnInst *, 1> Returns;
  AttributeList Declared = T.getAttributes();
  cloneFunctionInto(T, P, Map, Returns);
  // Cloning replaced the attributes with the primal's; the byval copies of
  // the twins (declareTangent) must stay.
  for (unsigned K = P.arg_size(); K < T.arg_size(); ++K)
    T.addParamAttrs(K, AttrBuilder(T.getContext(), Declared.getParamAttrs(K)));
  dropPrimalOnlyAttributes(T, T.getReturnType() != P.getReturnType());
  T.setLinkage(GlobalValue::InternalLinkage);
  T.setCallingConv(CallingConv::C);
  if (W > 1)
    copyByValShadows();
}

/// Vector mode: the shadows of a byval argument come as pointers to the
/// caller's objects, which the callee must not write; its own copies (the
/// byval attribute does this for width 1) are made here.
void TangentGenerator::copyByValShadows() {
  IRBuilder<> B(&*T.getEntryBlock().getFirstInsertionPt());
  for (Argument &A : P.args()) {
    Type *ByVal = A.getParamByValType();
    Value *Shadows = twin(&A);
    if (!ByVal || !Shadows)
      continue;
    AllocaInst *Copies = B.CreateAlloca(ByVal, B.getInt64(W));
    Copies->setAlignment(DL.getPrefTypeAlign(ByVal));
    setTwin(&A, makeLanes(B, W, [&](unsigned K) {
      Value *Copy = B.CreateConstGEP1_64(ByVal, Copies, K);
      B.CreateMemCpy(Copy, Copies->getAlign(), laneOf(B, Shadows, K, W),
                     MaybeAlign(), DL.getTypeAllocSize(ByVal));
      return Copy;
    }));
  }
}

/// The constructs reverse mode refuses are refused here too, for the same
/// reasons: a derivative would be lost without a word.
bool TangentGenerator::checkSupported(Instruction &I) {
  auto Refuse = [&](const Twine &Why) {
    unsupported(I, Why);
    return false;
  };
  if (W > 1)
    if (std::optional<std::string> Why = whyNotInVectorMode(I))
      return Refuse(*Why);
  if (isa<LoadInst, StoreInst>(I))
    if (std::optional<std::string> Why = Checks.untrackedAccess(I))
      return Refuse(*Why);
  if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I) &&
      AI.hasShadow(I.getOperand(0)) && !isAtomicAccumulation(I) &&
      !isIntegerAtomicUpdate(I))
    return Refuse("atomic update of memory that has derivatives other than "
                  "an addition or subtraction whose old value goes unused");
  if (I.getType()->isFPOrFPVectorTy() && !carriesFloat(I.getType()) &&
      any_of(I.operands(), [&](const Use &U) { return AI.isVaried(U); }))
    return Refuse("active value converted to long double (x86_fp80 or "
                  "fp128), which is not differentiated; use double");
  if (auto *LI = dyn_cast<LoadInst>(&I);
      LI && Checks.readsFloatBitsAsNumber(*LI))
    return Refuse("floating-point data read as integer bits (type punning "
                  "through a union or a cast pointer); its derivative would "
                  "be lost");
  if (std::optional<std::string> Why = Checks.floatToBits(I))
    return Refuse(*Why);
  if (std::optional<std::string> Why = Checks.floatBitsStored(I))
    return Refuse(*Why);
  if (std::optional<std::string> Why = Checks.floatFromBits(I))
    return Refuse(*Why);
  if (std::optional<std::string> Why = Checks.mergedPointer(I)) {
    unsupported(Checks.mergeSite(I), *Why);
    return false;
  }
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Value *V = SI->getValueOperand();
    if (V->getType()->isPointerTy() && AI.hasShadow(SI->getPointerOperand()) &&
        Checks.untrackedPointer(V))
      return Refuse("pointer of unknown origin (made from an integer, or "
                    "returned by a function without a body) stored into "
                    "memory that has derivatives");
  }
  if (auto *RI = dyn_cast<ReturnInst>(&I); RI && RI->getReturnValue()) {
    for (auto Why : {Checks.handedPointer(RI->getReturnValue()),
                     Checks.handedInteger(RI->getReturnValue())})
      if (Why)
        return Refuse(*Why);
  }
  return true;
}

/// What vector mode (several tangents per value) does not handle yet: SIMD
/// values, whose lanes would need lanes of their own.
std::optional<std::string>
TangentGenerator::whyNotInVectorMode(Instruction &I) {
  auto IsSimd = [](Type *Ty) { return !laneType(Ty, 2); };
  if (IsSimd(I.getType()) ||
      any_of(I.operands(), [&](Use &U) { return IsSimd(U->getType()); }))
    return std::string("vector mode (enzyme_width) of code with SIMD vector "
                       "values is not supported yet");
  return std::nullopt;
}

/// `#pragma omp atomic` s += v (or -=) whose old value goes unused.
bool TangentGenerator::isAtomicAccumulation(Instruction &I) const {
  auto *RMW = dyn_cast<AtomicRMWInst>(&I);
  return RMW && W == 1 && !AI.isActive(RMW) &&
         (RMW->getOperation() == AtomicRMWInst::FAdd ||
          RMW->getOperation() == AtomicRMWInst::FSub);
}

/// The tangent of s gets v's the same way.
void TangentGenerator::tangentAtomicAccumulation(AtomicRMWInst &RMW) {
  Value *Tangent = twin(RMW.getValOperand());
  Value *Shadow = shadowOf(RMW.getPointerOperand());
  if (!Tangent || !Shadow)
    return;
  IRBuilder<> B = after(RMW);
  B.CreateAtomicRMW(RMW.getOperation(), Shadow, Tangent, RMW.getAlign(),
                    RMW.getOrdering());
}

void TangentGenerator::tangentInstruction(Instruction &I) {
  if (auto *Phi = dyn_cast<PHINode>(&I))
    return tangentPhi(*Phi);
  if (auto *Cmp = dyn_cast<FCmpInst>(&I)) {
    if (std::optional<std::string> Why = whyMemoisation(*Cmp, AI))
      unsupported(I, *Why);
    return;
  }
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return tangentLoad(*LI);
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return tangentStore(*SI);
  if (auto *Slot = dyn_cast<AllocaInst>(&I))
    return tangentAlloca(*Slot);
  if (auto *Call = dyn_cast<CallBase>(&I))
    return tangentCall(*Call);
  if (isAtomicAccumulation(I))
    return tangentAtomicAccumulation(cast<AtomicRMWInst>(I));
  if (auto *RI = dyn_cast<ReturnInst>(&I))
    return tangentReturn(*RI);
  if (auto *Cast = dyn_cast<CastInst>(&I))
    return tangentCast(*Cast);
  if (isa<BinaryOperator, UnaryOperator, SelectInst, FreezeInst>(I))
    return tangentArithmetic(I);
  if (isa<ExtractValueInst, InsertValueInst, ExtractElementInst,
          InsertElementInst, ShuffleVectorInst>(I))
    return tangentAggregate(I);
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    Value *Base = twin(GEP->getPointerOperand());
    if (!Base || !AI.hasShadow(GEP))
      return;
    // The same offsets from the shadow (from each lane's shadow).
    IRBuilder<> B = after(I);
    auto *Clone = cast<GetElementPtrInst>(Map[&I]);
    SmallVector<Value *, 4> Indices(Clone->indices());
    return setTwin(&I, B.CreateGEP(Clone->getSourceElementType(), Base, Indices,
                                   "", Clone->getNoWrapFlags()));
  }
  // Comparisons and branches carry no derivative; what else carries one
  // has no rule.
  if (AI.isActive(&I))
    unsupported(I, "no derivative rule for this instruction");
}

/// Elementwise rules on scalars and vectors. A null tangent is zero: terms
/// with it are left out, so inactive operands cost nothing.
void TangentGenerator::tangentArithmetic(Instruction &I) {
  IRBuilder<> B = after(I);
  auto Sum = [&](Value *X, Value *Y) -> Value * {
    if (!X || !Y)
      return X ? X : Y;
    return B.CreateFAdd(X, Y);
  };
  auto Scaled = [&](Value *Tangent, Value *By) -> Value * {
    return Tangent ? B.CreateFMul(Tangent, splatLanes(B, By, W)) : nullptr;
  };
  auto Lanes = [&](Value *Primal) { return splatLanes(B, Primal, W); };
  Value *A = I.getOperand(0);
  Value *DA = twin(A);
  Value *DB = I.getNumOperands() > 1 ? twin(I.getOperand(1)) : nullptr;
  Value *Twin = nullptr;
  switch (I.getOpcode()) {
  case Instruction::FAdd:
    Twin = Sum(DA, DB);
    break;
  case Instruction::FSub:
    Twin = DB ? (DA ? B.CreateFSub(DA, DB) : B.CreateFNeg(DB)) : DA;
    break;
  case Instruction::FMul:
    Twin = Sum(Scaled(DA, primal(I.getOperand(1))), Scaled(DB, primal(A)));
    break;
  case Instruction::FDiv:
    // (a / b)' = (a' - (a / b) b') / b
    if (DA || DB) {
      Value *Numerator = DA;
      if (DB) {
        Value *Part = B.CreateFMul(Lanes(primal(&I)), DB);
        Numerator = DA ? B.CreateFSub(DA, Part) : B.CreateFNeg(Part);
      }
      // A reciprocal r = 1 / b: r' = -(r b') r, with no division.
      Twin = match(A, PatternMatch::m_FPOne())
                 ? B.CreateFMul(Numerator, Lanes(primal(&I)))
                 : B.CreateFDiv(Numerator, Lanes(primal(I.getOperand(1))));
    }
    break;
  case Instruction::FRem:
    // a - b trunc(a / b): a' - trunc(a / b) b'
    Twin = DA;
    if (DB) {
      Value *Q = B.CreateUnaryIntrinsic(
          Intrinsic::trunc, B.CreateFDiv(primal(A), primal(I.getOperand(1))));
      Value *Part = B.CreateFMul(Lanes(Q), DB);
      Twin = DA ? B.CreateFSub(DA, Part) : B.CreateFNeg(Part);
    }
    break;
  case Instruction::FNeg:
    Twin = DA ? B.CreateFNeg(DA) : nullptr;
    break;
  case Instruction::Freeze:
    Twin = DA;
    break;
  case Instruction::Select: {
    auto &Sel = cast<SelectInst>(I);
    Value *TrueV = Sel.getTrueValue(), *FalseV = Sel.getFalseValue();
    if (Sel.getType()->isPointerTy() ? AI.hasShadow(&Sel)
                                     : twin(TrueV) || twin(FalseV))
      Twin = B.CreateSelect(primal(Sel.getCondition()), twinOrSink(B, TrueV),
                            twinOrSink(B, FalseV));
    break;
  }
  case Instruction::Or:
    // Bits put together (a float assembled from its halves).
    if (DA || DB)
      Twin = B.CreateOr(twinOrZero(A), twinOrZero(I.getOperand(1)));
    break;
  case Instruction::Shl:
  case Instruction::LShr:
    // Bits moved by a constant.
    if (DA && isa<Constant>(I.getOperand(1)))
      Twin = B.CreateBinOp(cast<BinaryOperator>(I).getOpcode(), DA,
                           Lanes(I.getOperand(1)));
    break;
  default:
    // Integer arithmetic: its derivative is zero.
    if (AI.isActive(&I))
      unsupported(I, "no derivative rule for this operation");
    break;
  }
  setTwin(&I, Twin);
}

void TangentGenerator::tangentCast(CastInst &I) {
  Value *DA = twin(I.getOperand(0));
  switch (I.getOpcode()) {
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::BitCast:
  case Instruction::AddrSpaceCast:
  case Instruction::PtrToInt:
  case Instruction::Trunc:
  case Instruction::ZExt:
    break;
  case Instruction::IntToPtr:
    // Only where the pointer is trusted to have a shadow.
    if (!AI.hasShadow(&I))
      return;
    break;
  default:
    // Conversions between integers and floating-point values.
    return;
  }
  if (!DA)
    return;
  IRBuilder<> B = after(I);
  setTwin(&I, B.CreateCast(I.getOpcode(), DA, laneType(I.getType(), W)));
}

void TangentGenerator::tangentAggregate(Instruction &I) {
  IRBuilder<> B = after(I);
  Value *Twin = nullptr;
  if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    if (Value *Agg = twin(EV->getAggregateOperand()))
      Twin = B.CreateExtractValue(Agg, EV->getIndices());
  } else if (auto *IV = dyn_cast<InsertValueInst>(&I)) {
    Value *Agg = IV->getAggregateOperand(),
          *Inserted = IV->getInsertedValueOperand();
    // A pointer without a shadow beside ones with shadows gets its place
    // in the sink: the field extracted has a shadow to the code using it.
    if (twin(Agg) || twin(Inserted))
      Twin = aggregateTwinOrSink(B, IV);
  } else if (auto *EE = dyn_cast<ExtractElementInst>(&I)) {
    if (Value *Vec = twin(EE->getVectorOperand()))
      Twin = B.CreateExtractElement(Vec, primal(EE->getIndexOperand()));
  } else if (auto *IE = dyn_cast<InsertElementInst>(&I)) {
    Value *Vec = IE->getOperand(0), *Scalar = IE->getOperand(1);
    if (twin(Vec) || twin(Scalar))
      Twin = B.CreateInsertElement(twinOrZero(Vec), twinOrZero(Scalar),
                                   primal(IE->getOperand(2)));
  } else {
    auto &SV = cast<ShuffleVectorInst>(I);
    Value *X = SV.getOperand(0), *Y = SV.getOperand(1);
    if (twin(X) || twin(Y))
      Twin = B.CreateShuffleVector(twinOrZero(X), twinOrZero(Y),
                                   SV.getShuffleMask());
  }
  setTwin(&I, Twin);
}

void TangentGenerator::tangentPhi(PHINode &Phi) {
  bool Needed = Phi.getType()->isPointerTy()
                    ? AI.hasShadow(&Phi)
                    : carriesFloat(Phi.getType()) && AI.isVaried(&Phi);
  if (!Needed)
    return;
  BasicBlock *Block = cast<Instruction>(Map[&Phi])->getParent();
  IRBuilder<> B(Block, Block->getFirstNonPHIIt());
  PHINode *Twin =
      B.CreatePHI(laneType(Phi.getType(), W), Phi.getNumIncomingValues());
  Phis.push_back({&Phi, Twin});
  setTwin(&Phi, Twin);
}

void TangentGenerator::completePhis() {
  for (auto &[Phi, Twin] : Phis) {
    auto *Clone = cast<PHINode>(Map[Phi]);
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K) {
      BasicBlock *From = Clone->getIncomingBlock(K);
      IRBuilder<> B(From->getTerminator());
      Twin->addIncoming(twinOrSink(B, Phi->getIncomingValue(K)), From);
    }
  }
}

void TangentGenerator::tangentLoad(LoadInst &LI) {
  Value *Shadow = shadowOf(LI.getPointerOperand());
  if (!Shadow)
    return;
  Type *Ty = LI.getType();
  if (carriesFloat(Ty) && !carriesPointer(Ty) && !AI.isVaried(&LI))
    return;
  IRBuilder<> B = after(LI);
  Value *Twin =
      loadLanes(B, Ty, Shadow, shadowAlign(LI.getAlign()), W,
                [&](Instruction &L, unsigned K) { tagLaneAccess(L, K); });
  // A stack slot's tangents are its own, never the sink's.
  if (Ty->isPointerTy() &&
      !isa<AllocaInst>(getUnderlyingObject(LI.getPointerOperand())))
    Twin = makeLanes(B, W, [&](unsigned K) {
      return twinOfLoadedPointer(B, laneOf(B, Shadow, K, W), primal(&LI),
                                 laneOf(B, Twin, K, W));
    });
  setTwin(&LI, Twin);
}

/// The tangent of the pointer \p Primal loaded from memory whose tangents
/// are at \p Slot, \p Loaded where it is not null. Memory without
/// derivatives (a const argument's, reached through the pointers it holds)
/// has its tangents in the sink, where no tangents of its pointers were
/// stored: those pointers get their places in the same sink, as a pointer
/// stored into such memory does (twinOrSink), so that the code using them
/// finds tangents there. The runtime is asked only for null tangents.
Value *TangentGenerator::twinOfLoadedPointer(IRBuilder<> &B, Value *Slot,
                                             Value *Primal, Value *Loaded) {
  Instruction *Next = &*B.GetInsertPoint();
  BasicBlock *Head = Next->getParent();
  Instruction *Ask = SplitBlockAndInsertIfThen(
      B.CreateIsNull(Loaded), Next->getIterator(), /*Unreachable=*/false,
      MDBuilder(B.getContext()).createBranchWeights(1, 1 << 20));
  B.SetInsertPoint(Ask);
  Value *Found = B.CreateCall(D.abi().tangentOfLoadedPointer(), {Slot, Primal});
  B.SetInsertPoint(Next);
  PHINode *Twin = B.CreatePHI(Loaded->getType(), 2, "loaded.twin");
  Twin->addIncoming(Loaded, Head);
  Twin->addIncoming(Found, Ask->getParent());
  return Twin;
}

void TangentGenerator::tangentStore(StoreInst &SI) {
  Value *Shadow = shadowOf(SI.getPointerOperand());
  if (!Shadow)
    return;
  IRBuilder<> B = after(SI);
  Value *V = SI.getValueOperand();
  Value *Twin = V->getType()->isPointerTy() ? twinOrSink(B, V) : twinOrZero(V);
  storeLanes(B, V->getType(), Twin, Shadow, shadowAlign(SI.getAlign()), W,
             [&](Instruction &S, unsigned K) { tagLaneAccess(S, K); });
}

/// A stack slot's shadow is a stack slot beside it, zeroed; in vector
/// mode, one per lane, each aligned as the slot is (code may rely on it).
void TangentGenerator::tangentAlloca(AllocaInst &Slot) {
  if (!AI.hasShadow(&Slot))
    return;
  auto *Clone = cast<AllocaInst>(Map[&Slot]);
  IRBuilder<> B = after(Slot);
  Value *Bytes =
      B.CreateMul(B.CreateZExtOrTrunc(Clone->getArraySize(), B.getInt64Ty()),
                  B.getInt64(DL.getTypeAllocSize(Slot.getAllocatedType())));
  setTwin(&Slot, makeLanes(B, W, [&](unsigned) -> Value * {
    AllocaInst *Twin =
        B.CreateAlloca(Slot.getAllocatedType(), Clone->getArraySize());
    Twin->setAlignment(Slot.getAlign());
    B.CreateMemSet(Twin, B.getInt8(0), Bytes, Slot.getAlign());
    return Twin;
  }));
}

void TangentGenerator::tangentReturn(ReturnInst &RI) {
  Value *RV = RI.getReturnValue();
  if (!RV || T.getReturnType() == P.getReturnType())
    return;
  auto *Clone = cast<ReturnInst>(Map[&RI]);
  IRBuilder<> B(Clone);
  Value *Pair = B.CreateInsertValue(PoisonValue::get(T.getReturnType()),
                                    Clone->getReturnValue(), 0);
  Pair = B.CreateInsertValue(Pair, twinOrSink(B, RV), 1);
  Map[&RI] = B.CreateRet(Pair);
  Clone->eraseFromParent();
}

} // namespace capsule
