//===- SortCalls.cpp - qsort with its elements' pointer layout ------------===//
#include "Support/SortCalls.h"

#include "Analysis/MemoryKinds.h"
#include "Support/CustomRules.h"
#include "Support/LibraryRules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

namespace {

/// Metadata on a qsort call: the offsets and sizes of the pointer stretches
/// of an element, in pairs (none for an element of numbers).
constexpr const char *PointerLayoutKind = "capsule.sort.pointers";

/// The pointer stretches of the elements \p Call sorts, as offset and size
/// pairs, if the element's layout is known.
std::optional<SmallVector<uint64_t, 4>> pointerStretches(const CallBase &Call) {
  Value *Base = Call.getArgOperand(0);
  ElementKind Kind = pointeeKind(Base);
  auto *Size = dyn_cast<ConstantInt>(Call.getArgOperand(2));
  // Numbers: floating point with integers, or integers alone (argsort's
  // index array). What the accesses at the element's start say is all of
  // it only for an element of that one number (or of unknown size): a
  // struct's other fields may hold pointers.
  bool OneNumber = !Size || Size->getZExtValue() <= 8;
  if ((Kind == ElementKind::F64 || Kind == ElementKind::F32 ||
       Kind == ElementKind::Integer) &&
      OneNumber)
    return SmallVector<uint64_t, 4>();
  if (!Size || Size->isZero())
    return std::nullopt;
  const DataLayout &DL = Call.getDataLayout();
  std::optional<SmallVector<MemoryRun, 4>> Runs =
      runsUnder(Base, Size->getZExtValue(), DL);
  if (!Runs)
    return std::nullopt;
  SmallVector<uint64_t, 4> Stretches;
  for (const MemoryRun &Run : *Runs) {
    if (Run.Kind == ElementKind::Unknown)
      return std::nullopt; // a union
    if (Run.Kind == ElementKind::Pointer)
      Stretches.append({Run.Offset, Run.Bytes});
  }
  return Stretches;
}

/// The runtime's description of \p Layout: the number of stretches, then
/// their offsets and sizes.
Constant *layoutConstant(Module &M, const MDNode &Layout) {
  SmallVector<uint64_t, 8> Words{Layout.getNumOperands() / 2};
  for (const MDOperand &Op : Layout.operands())
    Words.push_back(mdconst::extract<ConstantInt>(Op.get())->getZExtValue());
  Constant *Init = ConstantDataArray::get(M.getContext(), Words);
  return new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                            GlobalValue::PrivateLinkage, Init,
                            "capsule.sort.layout");
}

} // namespace

/// Notes on \p Call the pointer layout of the elements it sorts, where it
/// is known.
static void noteLayout(CallBase &Call) {
  std::optional<SmallVector<uint64_t, 4>> Stretches = pointerStretches(Call);
  if (!Stretches)
    return;
  Type *I64 = Type::getInt64Ty(Call.getContext());
  SmallVector<Metadata *, 4> Ops;
  for (uint64_t Word : *Stretches)
    Ops.push_back(ConstantAsMetadata::get(ConstantInt::get(I64, Word)));
  Call.setMetadata(PointerLayoutKind, MDNode::get(Call.getContext(), Ops));
}

/// Whether \p Sort, the module's qsort, has the built-in rules (not the
/// program's own).
static bool hasBuiltInRules(const Function &Sort) {
  std::optional<GradientRule> Rule = gradientRule(Sort);
  return Rule && libraryRoutineOfRule(*Rule->Augment);
}

void noteSortLayouts(Module &M) {
  Function *Sort = M.getFunction("qsort");
  if (!Sort || !hasBuiltInRules(*Sort))
    return;
  for (User *U : Sort->users()) {
    // A link reads the rules again: what the compile noted stays.
    auto *Call = dyn_cast<CallBase>(U);
    if (Call && Call->getCalledOperand() == Sort &&
        !Call->getMetadata(PointerLayoutKind))
      noteLayout(*Call);
  }
}

void lowerSortCalls(Function &F) {
  Module &M = *F.getParent();
  Function *Sort = M.getFunction("qsort");
  if (!Sort || !hasBuiltInRules(*Sort))
    return;
  SmallVector<CallBase *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I);
        Call && Call->getCalledOperand() == Sort)
      Calls.push_back(Call);
  for (CallBase *Call : Calls) {
    // In SSA form, what -O0 code reloads from its stack slots is one value
    // whose other uses type the elements.
    if (!Call->getMetadata(PointerLayoutKind))
      noteLayout(*Call);
    MDNode *Layout = Call->getMetadata(PointerLayoutKind);
    if (!Layout)
      continue;
    SmallVector<Type *, 5> Params(Sort->getFunctionType()->params());
    Params.push_back(PointerType::getUnqual(M.getContext()));
    auto *WithLayout = cast<Function>(
        M.getOrInsertFunction(QsortWithLayout,
                              FunctionType::get(Sort->getReturnType(), Params,
                                                /*isVarArg=*/false))
            .getCallee());
    attachLibraryRules(*WithLayout);
    SmallVector<Value *, 5> Args(Call->args());
    Args.push_back(layoutConstant(M, *Layout));
    CallInst *New = CallInst::Create(WithLayout, Args, "", Call->getIterator());
    New->setDebugLoc(Call->getDebugLoc());
    Call->eraseFromParent();
  }
}

bool sortMovesShadowPointers(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || Callee->getName() != QsortWithLayout)
    return true;
  auto *Layout = dyn_cast<GlobalVariable>(Call.getArgOperand(4));
  auto *Count = Layout ? dyn_cast_or_null<ConstantInt>(
                             Layout->getInitializer()->getAggregateElement(0u))
                       : nullptr;
  return !Count || !Count->isZero();
}

} // namespace capsule
