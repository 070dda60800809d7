//===- EigenPacketMath.cpp - Eigen's vector math as libm calls ------------===//
#include "Support/EigenPacketMath.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

namespace {

/// The libm function (double name) an Eigen packet function stands for, by
/// its unqualified name; "rsqrt" is 1 / sqrt.
std::optional<StringRef> libmNameOf(StringRef PacketName) {
  return StringSwitch<std::optional<StringRef>>(PacketName)
      .Case("pexp", StringRef("exp"))
      .Case("pexpm1", StringRef("expm1"))
      .Case("plog", StringRef("log"))
      .Case("plog2", StringRef("log2"))
      .Case("plog1p", StringRef("log1p"))
      .Case("psin", StringRef("sin"))
      .Case("pcos", StringRef("cos"))
      .Case("ptanh", StringRef("tanh"))
      .Case("perf", StringRef("erf"))
      .Case("prsqrt", StringRef("rsqrt"))
      .Case("generic_pow", StringRef("pow"))
      .Default(std::nullopt);
}

/// The unqualified name of a function template of Eigen::internal from its
/// mangled name (_ZN5Eigen8internal4pexpIDv2_dEET_RKS3_ is pexp<Packet2d>),
/// or empty.
StringRef eigenInternalTemplateName(StringRef Mangled) {
  if (!Mangled.consume_front("_ZN5Eigen8internal"))
    return "";
  unsigned Length;
  if (Mangled.consumeInteger(10, Length) || Length > Mangled.size())
    return "";
  StringRef Name = Mangled.take_front(Length);
  return Mangled.drop_front(Length).starts_with("I") ? Name : "";
}

std::optional<StringRef> libmNameOf(const Function &F) {
  std::optional<StringRef> Name =
      libmNameOf(eigenInternalTemplateName(F.getName()));
  Type *Result = F.getReturnType();
  Type *Lane = Result->getScalarType();
  if (!Name || !(Lane->isFloatTy() || Lane->isDoubleTy()) ||
      F.arg_size() != (*Name == "pow" ? 2u : 1u))
    return std::nullopt;
  // Each operand a packet of the result's type, by value or by reference.
  for (const Argument &A : F.args())
    if (A.getType() != Result && !A.getType()->isPointerTy())
      return std::nullopt;
  return Name;
}

/// Lane \p K of packet \p V (a scalar is its only lane).
Value *laneOf(IRBuilder<> &B, Value *V, unsigned K) {
  return V->getType()->isVectorTy() ? B.CreateExtractElement(V, K) : V;
}

/// \p Libm of the scalar operands \p Lanes, in the lane's type.
Value *callLibm(IRBuilder<> &B, StringRef Libm, ArrayRef<Value *> Lanes) {
  Type *T = Lanes.front()->getType();
  Module &M = *B.GetInsertBlock()->getModule();
  std::string Suffix = T->isFloatTy() ? "f" : "";
  auto Call = [&](StringRef Name, ArrayRef<Value *> Operands) -> Value * {
    SmallVector<Type *, 2> Params(Operands.size(), T);
    FunctionCallee F = M.getOrInsertFunction(
        (Name + Suffix).str(), FunctionType::get(T, Params, false));
    return B.CreateCall(F, Operands);
  };
  if (Libm == "rsqrt")
    return B.CreateFDiv(ConstantFP::get(T, 1.0), Call("sqrt", Lanes));
  return Call(Libm, Lanes);
}

void callLibmInstead(CallInst &Call, StringRef Libm) {
  IRBuilder<> B(&Call);
  Type *Packet = Call.getType();
  auto *VTy = dyn_cast<FixedVectorType>(Packet);
  unsigned Count = VTy ? VTy->getNumElements() : 1;
  // Operands read once, before the lanes: a reference may be to the result.
  SmallVector<Value *, 2> Operands;
  for (Value *Op : Call.args())
    Operands.push_back(Op->getType()->isPointerTy() ? B.CreateLoad(Packet, Op)
                                                    : Op);
  Value *Result = VTy ? PoisonValue::get(Packet) : nullptr;
  for (unsigned K = 0; K < Count; ++K) {
    SmallVector<Value *, 2> Lanes;
    for (Value *Op : Operands)
      Lanes.push_back(laneOf(B, Op, K));
    Value *Lane = callLibm(B, Libm, Lanes);
    Result = VTy ? B.CreateInsertElement(Result, Lane, K) : Lane;
  }
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
}

} // namespace

bool isEigenPacketMath(const Function &F) { return libmNameOf(F).has_value(); }

void callLibmForEigenPacketMath(Function &F) {
  SmallVector<std::pair<CallInst *, StringRef>, 4> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (std::optional<StringRef> Libm = libmNameOf(*Callee))
            Calls.push_back({Call, *Libm});
  for (auto [Call, Libm] : Calls)
    callLibmInstead(*Call, Libm);
}

} // namespace capsule
