//===- Cloning.cpp - Function clones without walking debug types ----------===//
#include "Support/Cloning.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace capsule {

namespace {

/// Fills a value map's metadata part for a clone: copies of the metadata
/// that belongs to the function being cloned (whatever reaches its
/// subprogram through scopes, and its DIAssignIDs), and every other node
/// reached mapped to itself, so that remapping the clone shares those
/// without walking what they refer to.
class LocalMetadataCopies {
public:
  LocalMetadataCopies(DISubprogram *OldSP, DISubprogram *NewSP,
                      ValueToValueMapTy &VMap)
      : OldSP(OldSP), VMap(VMap) {
    if (OldSP)
      VMap.MD()[OldSP].reset(NewSP);
  }

  /// The clone's version of \p MD, recorded in the map (itself when it
  /// stays shared, so that remapping stops there).
  Metadata *map(Metadata *MD) {
    if (auto It = VMap.MD().find(MD); It != VMap.MD().end())
      return It->second.get();
    auto *N = dyn_cast<MDNode>(MD);
    if (!N)
      return MD;
    if (!Visiting.insert(N).second)
      return N; // a distinct node's reference to itself (a loop's ID)
    Metadata *Copy = N;
    if (isa<DIAssignID>(N))
      Copy = DIAssignID::getDistinct(N->getContext()); // one per function
    else if (mayBeLocal(*N))
      Copy = copyIfChanged(*N);
    Visiting.erase(N);
    VMap.MD()[N].reset(Copy);
    return Copy;
  }

private:
  /// Types, compile units, files and other functions' subprograms are
  /// shared; so are the lexical blocks and variables of those functions
  /// (code inlined into this one).
  bool mayBeLocal(const MDNode &N) const {
    if (isa<DISubprogram>(N))
      return false; // Old's own is in the map already
    if (auto *Scope = dyn_cast<DILocalScope>(&N))
      return Scope->getSubprogram() == OldSP;
    if (auto *Var = dyn_cast<DILocalVariable>(&N))
      return Var->getScope()->getSubprogram() == OldSP;
    if (auto *Label = dyn_cast<DILabel>(&N))
      return Label->getScope()->getSubprogram() == OldSP;
    if (isa<DILocation>(N))
      return true;
    return !isa<DINode>(N) && !isa<DIExpression>(N);
  }

  Metadata *copyIfChanged(MDNode &N) {
    SmallVector<Metadata *, 8> Ops;
    bool Changed = false;
    for (const MDOperand &Op : N.operands()) {
      Metadata *Mapped = Op ? map(Op.get()) : nullptr;
      Changed |= Mapped != Op.get();
      Ops.push_back(Mapped);
    }
    if (!Changed)
      return &N;
    TempMDNode Temp = N.clone();
    for (unsigned I = 0; I < Ops.size(); ++I)
      Temp->replaceOperandWith(I, Ops[I] == &N ? Temp.get() : Ops[I]);
    if (N.isDistinct())
      return MDNode::replaceWithDistinct(std::move(Temp));
    return MDNode::replaceWithUniqued(std::move(Temp));
  }

  DISubprogram *OldSP;
  ValueToValueMapTy &VMap;
  SmallPtrSet<const MDNode *, 8> Visiting;
};

/// \p SP as a distinct copy, without the retained local variables of the
/// original (the clone's are its own).
DISubprogram *copySubprogram(DISubprogram &SP) {
  TempDISubprogram Temp = SP.clone();
  Temp->replaceRetainedNodes(MDTuple::get(SP.getContext(), {}));
  return MDNode::replaceWithDistinct(std::move(Temp));
}

void mapLocalMetadata(Function &Old, LocalMetadataCopies &Copies) {
  SmallVector<std::pair<unsigned, MDNode *>, 4> Attached;
  Old.getAllMetadata(Attached);
  for (auto &[Kind, MD] : Attached)
    Copies.map(MD);
  for (Instruction &I : instructions(Old)) {
    I.getAllMetadata(Attached);
    for (auto &[Kind, MD] : Attached)
      Copies.map(MD);
    for (DbgRecord &Record : I.getDbgRecordRange()) {
      Copies.map(Record.getDebugLoc().getAsMDNode());
      if (auto *Var = dyn_cast<DbgVariableRecord>(&Record)) {
        Copies.map(Var->getRawVariable());
        Copies.map(Var->getRawExpression());
        if (Var->isDbgAssign()) {
          Copies.map(Var->getRawAssignID());
          Copies.map(Var->getRawAddressExpression());
        }
      } else if (auto *Label = dyn_cast<DbgLabelRecord>(&Record)) {
        Copies.map(Label->getLabel());
      }
    }
  }
}

/// What CloneFunctionInto copies besides the body: the function's
/// attributes (the parameters' for the arguments \p VMap maps to
/// arguments), personality, prefix and prologue data.
void copyAttributes(Function &New, Function &Old, ValueToValueMapTy &VMap) {
  AttributeList NewAttrs = New.getAttributes();
  New.copyAttributesFrom(&Old);
  New.setAttributes(NewAttrs);
  if (Old.hasPersonalityFn())
    New.setPersonalityFn(MapValue(Old.getPersonalityFn(), VMap));
  if (Old.hasPrefixData())
    New.setPrefixData(MapValue(Old.getPrefixData(), VMap));
  if (Old.hasPrologueData())
    New.setPrologueData(MapValue(Old.getPrologueData(), VMap));
  SmallVector<AttributeSet, 4> ArgAttrs(New.arg_size());
  AttributeList OldAttrs = Old.getAttributes();
  for (Argument &Arg : Old.args())
    if (auto *NewArg = dyn_cast_or_null<Argument>(VMap.lookup(&Arg)))
      ArgAttrs[NewArg->getArgNo()] = OldAttrs.getParamAttrs(Arg.getArgNo());
  New.setAttributes(AttributeList::get(New.getContext(), OldAttrs.getFnAttrs(),
                                       OldAttrs.getRetAttrs(), ArgAttrs));
}

} // namespace

void cloneFunctionInto(Function &New, Function &Old, ValueToValueMapTy &VMap,
                       SmallVectorImpl<ReturnInst *> &Returns) {
  New.setIsNewDbgInfoFormat(Old.IsNewDbgInfoFormat);
  copyAttributes(New, Old, VMap);
  // Every metadata node the body and the function refer to gets its entry
  // in the map: a copy if it belongs to Old's subprogram, itself otherwise.
  // Remapping then stops at the entries instead of walking on.
  DISubprogram *OldSP = Old.getSubprogram();
  DISubprogram *NewSP = OldSP ? copySubprogram(*OldSP) : nullptr;
  LocalMetadataCopies Copies(OldSP, NewSP, VMap);
  mapLocalMetadata(Old, Copies);
  SmallVector<std::pair<unsigned, MDNode *>, 4> Attached;
  Old.getAllMetadata(Attached);
  for (auto &[Kind, MD] : Attached)
    New.addMetadata(Kind, *MapMetadata(MD, VMap));
  for (BasicBlock &BB : Old) {
    BasicBlock *Clone = CloneBasicBlock(&BB, VMap, "", &New);
    VMap[&BB] = Clone;
    // Block addresses taken inside the function refer to the clone's.
    if (BB.hasAddressTaken())
      VMap[BlockAddress::get(&Old, &BB)] = BlockAddress::get(&New, Clone);
    if (auto *Ret = dyn_cast<ReturnInst>(Clone->getTerminator()))
      Returns.push_back(Ret);
  }
  for (BasicBlock &BB : Old)
    for (Instruction &I : *cast<BasicBlock>(VMap[&BB])) {
      RemapInstruction(&I, VMap);
      RemapDbgRecordRange(New.getParent(), I.getDbgRecordRange(), VMap);
    }
}

Function *cloneFunction(Function &F, ValueToValueMapTy &VMap) {
  Function *New =
      Function::Create(F.getFunctionType(), F.getLinkage(), F.getAddressSpace(),
                       F.getName(), F.getParent());
  for (auto [Old, Arg] : zip(F.args(), New->args())) {
    Arg.setName(Old.getName());
    VMap[&Old] = &Arg;
  }
  SmallVector<ReturnInst *, 4> Returns;
  cloneFunctionInto(*New, F, VMap, Returns);
  return New;
}

} // namespace capsule
