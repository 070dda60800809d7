//===- ShadowScopes.cpp - What the reverse sweep's accesses cannot alias --===//
//
// The optimizer cannot tell shadow buffers apart, so a reverse loop that
// reads one shadow and writes another is neither vectorized nor cleaned of
// redundant zero-then-add sequences. Some facts are certain, though:
//  - the shadow of a stack slot or heap block allocated inside the function
//    is a fresh block of the runtime's: distinct from every other such
//    shadow, from the shadows the user passed (dup arguments) and from
//    shadow globals;
//  - tape records live in the runtime's chunks, distinct from all shadows.
// Each such root gets an alias scope; everything else reached through
// arguments or globals shares one "outside" scope (users may pass the same
// shadow twice); accesses whose root is unknown (pointers loaded from
// memory, phis) are left untagged.
//===----------------------------------------------------------------------===//
#include "Reverse/GradientGenerator.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/MDBuilder.h"

using namespace llvm;

namespace capsule {

namespace {
/// Roots standing for the outside memory and for the tape (never a real
/// value: the addresses of these two objects).
const char OutsideRoot = 0, TapeRoot = 0;
const Value *outsideRoot() {
  return reinterpret_cast<const Value *>(&OutsideRoot);
}
const Value *tapeRoot() { return reinterpret_cast<const Value *>(&TapeRoot); }
} // namespace

void GradientGenerator::noteMemoryAccess(Instruction *Access,
                                         Value *PrimalPtr) {
  if (!PrimalPtr)
    return MemoryAccesses.push_back({Access, tapeRoot()});
  const Value *Object = getUnderlyingObject(PrimalPtr);
  if (isAllocatedInside(Object))
    MemoryAccesses.push_back({Access, Object});
  else if (isa<Argument, GlobalVariable>(Object))
    MemoryAccesses.push_back({Access, outsideRoot()});
}

void GradientGenerator::emitAliasScopes() {
  if (MemoryAccesses.empty())
    return;
  MDBuilder MDB(P.getContext());
  MDNode *Domain = MDB.createAnonymousAliasScopeDomain("capsule.rev");
  MapVector<const Value *, MDNode *> Scopes;
  for (auto &[Access, Root] : MemoryAccesses)
    if (!Scopes.count(Root))
      Scopes[Root] = MDB.createAnonymousAliasScope(Domain);
  if (Scopes.size() < 2)
    return;
  for (auto &[Access, Root] : MemoryAccesses) {
    SmallVector<Metadata *, 8> Others;
    for (auto &[Other, Scope] : Scopes)
      if (Other != Root)
        Others.push_back(Scope);
    Access->setMetadata(LLVMContext::MD_alias_scope,
                        MDNode::get(P.getContext(), {Scopes[Root]}));
    Access->setMetadata(LLVMContext::MD_noalias,
                        MDNode::get(P.getContext(), Others));
  }
}

} // namespace capsule
