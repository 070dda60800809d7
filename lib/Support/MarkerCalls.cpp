//===- MarkerCalls.cpp - The __capsule_autodiff call-site API -------------===//
#include "Support/MarkerCalls.h"

#include "Analysis/CallClassifier.h"
#include "Analysis/MemoryKinds.h"
#include "Reverse/Differentiator.h"
#include "Support/CustomRules.h"
#include "Support/Diagnostics.h"
#include "Support/GeneratedCode.h"
#include "Support/Lanes.h"
#include "Support/LinkTime.h"
#include "Support/SplitArguments.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace capsule {

/// The activity markers, with Enzyme's dupnoneed meaning dup: Capsule always
/// computes the primal, so "not needed" only permits skipping work.
static std::optional<ArgActivity> activityOfMarker(StringRef Name) {
  return StringSwitch<std::optional<ArgActivity>>(Name)
      .Cases("capsule_dup", "enzyme_dup", "capsule_dupnoneed",
             "enzyme_dupnoneed", ArgActivity::Dup)
      .Cases("capsule_dupv", "enzyme_dupv", "capsule_dupnoneedv",
             "enzyme_dupnoneedv", ArgActivity::Dup)
      .Cases("capsule_const", "enzyme_const", ArgActivity::Const)
      .Cases("capsule_out", "enzyme_out", ArgActivity::Out)
      .Default(std::nullopt);
}

namespace {

/// Enzyme's result markers: what a marker call returns.
enum class ResultMarker { Primal, NoPrimal, Const, Active, Dup };

} // namespace

static std::optional<ResultMarker> resultMarkerNamed(StringRef Name) {
  return StringSwitch<std::optional<ResultMarker>>(Name)
      .Case("enzyme_primal_return", ResultMarker::Primal)
      .Case("enzyme_noret", ResultMarker::NoPrimal)
      .Case("enzyme_const_return", ResultMarker::Const)
      .Case("enzyme_active_return", ResultMarker::Active)
      .Case("enzyme_dup_return", ResultMarker::Dup)
      .Default(std::nullopt);
}

/// Vector mode's markers: `enzyme_width, N` gives every value N tangents;
/// `enzyme_dupv, stride, p, dp` has them at dp, dp + stride, ... (bytes).
static bool isWidthMarker(StringRef Name) {
  return Name == "capsule_width" || Name == "enzyme_width";
}
static bool isStridedMarker(StringRef Name) {
  return Name.ends_with("_dupv") || Name.ends_with("_dupnoneedv");
}

/// Split mode's markers: `enzyme_tape, p` keeps the tape in the memory at
/// p, `enzyme_allocated, n` says it has n bytes.
static bool isTapeMarker(StringRef Name) {
  return Name == "enzyme_tape" || Name == "capsule_tape";
}
static bool isAllocatedMarker(StringRef Name) {
  return Name == "enzyme_allocated" || Name == "capsule_allocated";
}

bool isActivityMarkerGlobal(const GlobalVariable &G) {
  StringRef Name = G.getName();
  return activityOfMarker(Name) || resultMarkerNamed(Name) ||
         isWidthMarker(Name) || isTapeMarker(Name) || isAllocatedMarker(Name);
}

/// The global a marker operand names: C loads it (`enzyme_dup`), Enzyme's
/// C++ header passes its address (`&enzyme_const`).
static const GlobalVariable *markerGlobal(const Value *V) {
  if (auto *Load = dyn_cast<LoadInst>(V))
    V = Load->getPointerOperand();
  return dyn_cast<GlobalVariable>(V->stripPointerCasts());
}

SmallVector<CallBase *, 8> callsTo(Function &F) {
  SmallVector<CallBase *, 8> Calls;
  for (User *U : F.users())
    if (auto *Call = dyn_cast<CallBase>(U))
      if (Call->getCalledOperand() == &F)
        Calls.push_back(Call);
  return Calls;
}

std::optional<MarkerKind> markerKind(const Function &F) {
  StringRef Name = F.getName();
  auto Either = [&](StringRef Suffix) {
    return Name.contains(("__capsule_" + Suffix).str()) ||
           Name.contains(("__enzyme_" + Suffix).str());
  };
  if (Either("fwddiff"))
    return MarkerKind::Fwddiff;
  if (Either("augmentfwd"))
    return MarkerKind::AugmentFwd;
  if (Either("augmentsize"))
    return MarkerKind::AugmentSize;
  if (Either("reverse"))
    return MarkerKind::Reverse;
  for (StringRef Prefix : {"__capsule_autodiff", "__enzyme_autodiff"}) {
    size_t Pos = Name.find(Prefix);
    if (Pos == StringRef::npos)
      continue;
    StringRef Rest = Name.drop_front(Pos + Prefix.size());
    return Rest.starts_with("_checkpointed") ? MarkerKind::AutodiffCheckpointed
                                             : MarkerKind::Autodiff;
  }
  return std::nullopt;
}

std::optional<MarkerKind> markerCallKind(const CallBase &Call) {
  auto *Callee =
      dyn_cast<Function>(Call.getCalledOperand()->stripPointerCasts());
  return Callee ? markerKind(*Callee) : std::nullopt;
}

/// Whether a derivative of a call of \p Fn, which has no body, is known in
/// the mode asked for: \p Fn is a libm function (or is like one), is
/// inactive, or has the user's or the runtime's rules (BLAS).
static bool derivativeKnownWithoutBody(Function &Fn, bool Forward) {
  switch (classifyFunction(Fn).Kind) {
  case CalleeKind::Math:
  case CalleeKind::NoDerivative:
    return true;
  case CalleeKind::Module:
    return Forward ? tangentRule(Fn) != nullptr : gradientRule(Fn).has_value();
  default:
    return false;
  }
}

/// Gives \p Body, generated for \p Call, a subprogram at \p Call's line,
/// and its instructions that location, so that what is reported in it
/// points at the call.
static void locateAtCall(Function &Body, const CallBase &Call) {
  DISubprogram *Caller = Call.getFunction()->getSubprogram();
  const DebugLoc &Loc = Call.getDebugLoc();
  if (!Caller || !Loc)
    return;
  DIBuilder DIB(*Body.getParent(), /*AllowUnresolved=*/false,
                Caller->getUnit());
  DISubprogram *SP = DIB.createFunction(
      Caller->getFile(), Body.getName(), Body.getName(), Caller->getFile(),
      Loc.getLine(), DIB.createSubroutineType(DIB.getOrCreateTypeArray({})),
      Loc.getLine(), DINode::FlagArtificial, DISubprogram::SPFlagDefinition);
  Body.setSubprogram(SP);
  for (Instruction &I : instructions(Body))
    I.setDebugLoc(DILocation::get(Body.getContext(), Loc.getLine(),
                                  Loc->getColumn(), SP));
  DIB.finalizeSubprogram(SP);
}

/// A function that only calls \p Fn, declared only: what the marker \p Call
/// naming \p Fn differentiates, so that \p Fn's derivative is that of a
/// call, as Enzyme's is. Its name ends in ".capsule.call", which messages
/// leave out; one per marker call, so that they point at it.
static Function &bodyCalling(Function &Fn, const CallBase &Marker) {
  CallInst &Call = forwardingCall(Fn, Fn.getName() + ".capsule.call");
  Function &Body = *Call.getFunction();
  Body.setCallingConv(Fn.getCallingConv());
  Body.setAttributes(Fn.getAttributes());
  Call.setCallingConv(Fn.getCallingConv());
  Call.setAttributes(Fn.getAttributes());
  locateAtCall(Body, Marker);
  return Body;
}

namespace {

/// Walks the variadic arguments of one marker call.
class RequestParser {
public:
  RequestParser(CallBase &Call, bool Forward, SplitHalf Half)
      : Call(Call), Forward(Forward), Half(Half) {}
  std::optional<GradientRequest> parse();

private:
  struct Marker {
    ArgActivity Activity;
    StringRef Name;
  };
  static std::optional<Marker> markerOf(const Value *V);
  bool skipResultMarkers();
  bool parseSplitMarker(const GlobalVariable &G);
  bool parseReverseTail(Type *RetTy);
  bool checkAugmentResultType(Type *RetTy);
  bool parseWidth();
  Value *parseShadows(unsigned ParamNo, Value *Stride, Value *Primal);
  bool checkLanesResultType(llvm::Type *Produced);
  bool applyResultMarkers(llvm::Type *RetTy);
  bool checkPrimalResultType(llvm::Type *Produced);
  /// The type the marker declares it returns, in a register or in memory.
  llvm::Type *declaredResultType() const {
    return R.ResultSlot ? Call.getParamStructRetType(0) : Call.getType();
  }
  bool fail(const Twine &Why) {
    reportBadMarkerCall(Call, Why);
    return false;
  }
  bool parseArgument(unsigned ParamNo);
  void shadowConstByValCopies();
  bool checkResultType();
  bool checkTangentResultType();
  bool parseTangent(unsigned ParamNo, llvm::Type *ParamTy);
  Value *convert(Value *V, Type *To, unsigned ParamNo);
  std::string argName(unsigned ParamNo) const {
    return ("argument " + Twine(ParamNo + 1) + " of '" + displayName(*Fn) + "'")
        .str();
  }

  CallBase &Call;
  /// Forward mode: active floating-point arguments come with tangents.
  bool Forward;
  SplitHalf Half;
  Function *Fn = nullptr;
  unsigned Next = 1;
  GradientRequest R;
  /// Tangents per value (enzyme_width).
  unsigned Width = 1;
  /// The result markers met so far.
  bool Primal = false, NoPrimal = false;
  std::optional<ResultMarker> ResultActivity;
  StringRef ResultActivityName;
};

} // namespace

std::optional<RequestParser::Marker> RequestParser::markerOf(const Value *V) {
  const GlobalVariable *G = markerGlobal(V);
  if (!G)
    return std::nullopt;
  if (std::optional<ArgActivity> A = activityOfMarker(G->getName()))
    return Marker{*A, G->getName()};
  return std::nullopt;
}

/// Consumes the result markers at the current position.
bool RequestParser::skipResultMarkers() {
  for (; Next < Call.arg_size(); ++Next) {
    const GlobalVariable *G = markerGlobal(Call.getArgOperand(Next));
    if (G && isWidthMarker(G->getName())) {
      ++Next; // read by parseWidth
      continue;
    }
    if (G && (isTapeMarker(G->getName()) || isAllocatedMarker(G->getName()))) {
      if (!parseSplitMarker(*G))
        return false;
      continue;
    }
    std::optional<ResultMarker> M =
        G ? resultMarkerNamed(G->getName()) : std::nullopt;
    if (!M)
      return true;
    if (*M == ResultMarker::Primal || *M == ResultMarker::NoPrimal) {
      (*M == ResultMarker::Primal ? Primal : NoPrimal) = true;
      if (Primal && NoPrimal)
        return fail("'enzyme_primal_return' and 'enzyme_noret' contradict "
                    "each other");
      continue;
    }
    if (ResultActivity && *ResultActivity != *M)
      return fail("'" + ResultActivityName + "' and '" + G->getName() +
                  "' both mark the result; use one");
    ResultActivity = M;
    ResultActivityName = G->getName();
  }
  return true;
}

/// `enzyme_tape, p` or `enzyme_allocated, n` at the current position; the
/// operand is consumed.
bool RequestParser::parseSplitMarker(const GlobalVariable &G) {
  StringRef Name = G.getName();
  bool Tape = isTapeMarker(Name);
  if (Half == SplitHalf::None)
    return fail("'" + Name +
                "' belongs to split mode (__enzyme_augmentfwd, "
                "__enzyme_reverse)");
  if ((Tape && R.TapeInMemory) || (!Tape && R.TapeBytes))
    return fail("'" + Name + "' appears twice");
  Value *Operand =
      Next + 1 < Call.arg_size() ? Call.getArgOperand(Next + 1) : nullptr;
  if (Tape) {
    if (!Operand || !Operand->getType()->isPointerTy())
      return fail("'" + Name +
                  "' must be followed by a pointer to the tape's memory");
    R.Tape = Operand;
    R.TapeInMemory = true;
  } else {
    if (!Operand || !Operand->getType()->isIntegerTy())
      return fail("'" + Name +
                  "' must be followed by the tape's size in bytes, an "
                  "integer (__enzyme_augmentsize)");
    R.TapeBytes = Operand;
  }
  ++Next;
  return true;
}

/// The reverse half's operands after f's arguments: the adjoint of f's
/// floating-point result (unless it is marked constant), then the tape
/// (unless enzyme_tape says where it is).
bool RequestParser::parseReverseTail(Type *RetTy) {
  if (R.Sig.ActiveReturn) {
    if (Next >= Call.arg_size())
      return fail("too few arguments: after the arguments of '" +
                  displayName(*Fn) +
                  "' comes the adjoint of its result, then the tape");
    R.ResultAdjoint = convertMarkerArgument(
        Call, Call.getArgOperand(Next++), RetTy,
        "the adjoint of the result of '" + displayName(*Fn) + "'");
    if (!R.ResultAdjoint)
      return false;
  }
  if (R.TapeInMemory)
    return true;
  if (Next >= Call.arg_size() ||
      !Call.getArgOperand(Next)->getType()->isPointerTy())
    return fail("the last argument must be the tape __enzyme_augmentfwd "
                "returned (or name its memory with enzyme_tape)");
  R.Tape = Call.getArgOperand(Next++);
  return true;
}

/// The bytes of \p T up to the end of its last field's data: its store
/// size without the tail padding of a struct (nested structs included).
static uint64_t dataBytes(const DataLayout &DL, Type *T) {
  auto *S = dyn_cast<StructType>(T);
  if (!S || S->getNumElements() == 0)
    return DL.getTypeStoreSize(T);
  unsigned Last = S->getNumElements() - 1;
  return DL.getStructLayout(S)->getElementOffset(Last) +
         dataBytes(DL, S->getElementType(Last));
}

/// Whether \p A and \p B hold the same bytes of data, tail padding aside:
/// the C ABI returns `struct { float a, b, c; }` (12 bytes) as
/// `{ <2 x float>, float }`, whose store size counts the padding its vector
/// field's alignment adds at the end.
static bool sameDataBytes(const DataLayout &DL, Type *A, Type *B) {
  return dataBytes(DL, A) == dataBytes(DL, B);
}

/// The augmented half returns, by its declared type, nothing (when
/// enzyme_tape keeps the tape), the tape, or a struct of the tape (unless
/// enzyme_tape keeps it), f's result and, for a pointer result, its shadow.
/// The C ABI may coerce such a struct, so types are matched by size. A
/// pointer that is none of these is the tape (C declares the marker to
/// return void * whatever enzyme_tape does).
bool RequestParser::checkAugmentResultType(Type *RetTy) {
  Type *T = declaredResultType();
  const DataLayout &DL = Call.getDataLayout();
  Type *Ptr = PointerType::getUnqual(Call.getContext());
  R.ReturnTape = !R.TapeInMemory;
  if (T->isVoidTy())
    return R.TapeInMemory ||
           fail("the call returns nothing, so the tape would be lost: "
                "declare it to return void * (the tape), or keep the tape "
                "in memory with enzyme_tape");
  SmallVector<Type *, 3> Fields;
  if (R.ReturnTape)
    Fields.push_back(Ptr);
  if (!RetTy->isVoidTy())
    for (bool Shadow : {false, true}) {
      if (Shadow && !RetTy->isPointerTy())
        break;
      SmallVector<Type *, 3> With(Fields);
      With.push_back(RetTy);
      if (Shadow)
        With.push_back(RetTy);
      if (sameDataBytes(DL, StructType::get(Call.getContext(), With), T)) {
        R.ReturnPrimal = true;
        R.ReturnShadow = Shadow;
        return true;
      }
    }
  if (T->isPointerTy()) {
    R.ReturnTape = true;
    return true;
  }
  return fail("the call's return type does not fit: __enzyme_augmentfwd "
              "returns the tape (void *), or a struct of the tape, the "
              "result of '" +
              displayName(*Fn) +
              "' and, for a pointer result, its shadow (without the tape "
              "when enzyme_tape keeps it)");
}

/// `enzyme_width, N`, wherever it stands (Enzyme reads it first): N
/// tangents per value, N a constant from 1 to CAPSULE_MAX_LANES.
bool RequestParser::parseWidth() {
  StringRef Name;
  for (unsigned I = Next; I < Call.arg_size(); ++I) {
    const GlobalVariable *G = markerGlobal(Call.getArgOperand(I));
    if (!G || !isWidthMarker(G->getName()))
      continue;
    if (!Name.empty())
      return fail("'" + G->getName() + "' appears twice");
    Name = G->getName();
    auto *N = I + 1 < Call.arg_size()
                  ? dyn_cast<ConstantInt>(Call.getArgOperand(I + 1))
                  : nullptr;
    if (!N || N->isZero() || N->getValue().ugt(MaxLanes))
      return fail("'" + Name +
                  "' must be followed by a constant number of tangents from "
                  "1 to " +
                  Twine(MaxLanes));
    Width = N->getZExtValue();
  }
  if (Width > 1 && Half != SplitHalf::None)
    return fail("'" + Name +
                "' asks for vector mode, which split mode "
                "(__enzyme_augmentfwd, __enzyme_reverse) does not support "
                "yet; call the halves once per seed");
  if (Width > 1 && markerCallKind(Call) == MarkerKind::AutodiffCheckpointed)
    return fail("'" + Name +
                "' asks for vector mode, which checkpointed gradients do "
                "not support yet; call __capsule_autodiff_checkpointed once "
                "per seed");
  return true;
}

/// What the result markers ask of f's result \p RetTy.
bool RequestParser::applyResultMarkers(Type *RetTy) {
  std::string FnName = displayName(*Fn);
  if (Primal && RetTy->isVoidTy())
    return fail("'enzyme_primal_return' asks for the result of '" + FnName +
                "', which returns nothing");
  R.ReturnPrimal = Primal;
  if (!ResultActivity)
    return true;
  switch (*ResultActivity) {
  case ResultMarker::Const:
    if (Forward)
      R.ReturnTangent = false;
    else
      R.Sig.ActiveReturn = false;
    return true;
  case ResultMarker::Active:
    if (Forward)
      return fail("'enzyme_active_return' marks the result active, which "
                  "forward mode does not have: use 'enzyme_dup_return' (its "
                  "tangent comes back) or 'enzyme_const_return'");
    if (!RetTy->isFloatingPointTy())
      return fail("'enzyme_active_return' marks the result of '" + FnName +
                  "' active, but it is not a floating-point value");
    return true;
  case ResultMarker::Dup:
    if (!Forward)
      return fail("'enzyme_dup_return' asks for the shadow of the result of "
                  "'" +
                  FnName +
                  "', which reverse mode does not give; mark it "
                  "'enzyme_active_return' or 'enzyme_const_return', or write "
                  "it through a pointer argument");
    return true;
  case ResultMarker::Primal:
  case ResultMarker::NoPrimal:
    break;
  }
  llvm_unreachable("enzyme_primal_return and enzyme_noret are not activities");
}

StructType *markerAdjointsType(FunctionType *FT, ArrayRef<ArgActivity> Args,
                               unsigned Width) {
  if (Width == 1)
    return reverseResultType(FT, Args);
  SmallVector<Type *, 4> Arrays;
  for (auto [K, Activity] : enumerate(Args))
    if (Activity == ArgActivity::Out)
      Arrays.push_back(ArrayType::get(FT->getParamType(K), Width));
  return StructType::get(FT->getContext(), Arrays);
}

Value *convertMarkerArgument(CallBase &Call, Value *V, Type *To,
                             const Twine &What) {
  Type *From = V->getType();
  if (From == To)
    return V;
  IRBuilder<> B(&Call);
  // C's default argument promotions widen float to double and small
  // integers to int when they pass through "...".
  if (From->isFloatingPointTy() && To->isFloatingPointTy())
    return B.CreateFPCast(V, To);
  if (From->isIntegerTy() && To->isIntegerTy())
    return B.CreateSExtOrTrunc(V, To);
  std::string FromS, ToS;
  raw_string_ostream(FromS) << *From;
  raw_string_ostream(ToS) << *To;
  reportBadMarkerCall(Call, What + " has type " + ToS +
                                " but the call passes " + FromS);
  return nullptr;
}

Value *RequestParser::convert(Value *V, Type *To, unsigned ParamNo) {
  return convertMarkerArgument(Call, V, To, argName(ParamNo));
}

bool RequestParser::parseArgument(unsigned ParamNo) {
  unsigned NumArgs = Call.arg_size();
  Type *ParamTy = Fn->getFunctionType()->getParamType(ParamNo);
  std::optional<Marker> M = markerOf(Call.getArgOperand(Next));
  if (M && ++Next >= NumArgs)
    return fail("activity marker '" + M->Name +
                "' ends the call: it must be "
                "followed by " +
                argName(ParamNo));
  Value *Stride = nullptr;
  if (M && isStridedMarker(M->Name)) {
    Stride = Call.getArgOperand(Next++);
    if (!Stride->getType()->isIntegerTy())
      return fail("'" + M->Name +
                  "' must be followed by the distance in "
                  "bytes between the shadows of " +
                  argName(ParamNo) + ", an integer");
    if (Next >= NumArgs)
      return fail("activity marker '" + M->Name +
                  "' and its stride end the "
                  "call: they must be followed by " +
                  argName(ParamNo));
  }
  unsigned Operand = Next;
  Value *V = Call.getArgOperand(Next++);
  if (std::optional<Marker> Stray = markerOf(V))
    return fail("activity marker '" + Stray->Name + "' stands where " +
                argName(ParamNo) + " should be");

  ArgActivity A = M                        ? M->Activity
                  : carriesFloat(ParamTy)  ? ArgActivity::Out
                  : ParamTy->isPointerTy() ? ArgActivity::Dup
                                           : ArgActivity::Const;
  StringRef How = M ? M->Name : StringRef("an unmarked argument");
  if (Forward && M && M->Activity == ArgActivity::Out)
    return fail("'" + M->Name + "' marks " + argName(ParamNo) +
                ", but forward mode has no out arguments: mark it dup "
                "(its value, then its tangent) or const");
  // Forward mode: a floating-point value marked dup is active, followed
  // by its tangent.
  if (Forward && A == ArgActivity::Dup && carriesFloat(ParamTy))
    A = ArgActivity::Out;
  if (Stride && (A != ArgActivity::Dup || !ParamTy->isPointerTy()))
    return fail(How + " marks " + argName(ParamNo) +
                ", which is not a pointer: only pointers have shadows laid "
                "out a stride apart");
  if (A == ArgActivity::Dup) {
    if (!ParamTy->isPointerTy())
      return fail(How + " marks " + argName(ParamNo) +
                  ", which is not a pointer");
    Value *Shadows = parseShadows(ParamNo, Stride, V);
    if (!Shadows)
      return false;
    R.Shadows.push_back(Shadows);
    if (Fn->getArg(ParamNo)->hasByValAttr() &&
        holdsUnion(Fn->getArg(ParamNo)->getParamByValType()))
      return fail(argName(ParamNo) +
                  " is a union passed by value: its type does not say "
                  "whether it holds floating-point data or pointers (pass "
                  "it by pointer)");
  }
  if (A == ArgActivity::Out && !carriesFloat(ParamTy))
    return fail(How + " marks " + argName(ParamNo) +
                ", which is not floating-point; use capsule_dup for "
                "pointers and capsule_const for the rest");
  Value *Converted = convert(V, ParamTy, ParamNo);
  if (!Converted)
    return false;
  R.Args.push_back(Converted);
  R.ArgOperands.push_back(Operand);
  R.Sig.Args.push_back(A);
  if (Forward && A == ArgActivity::Out)
    return parseTangent(ParamNo, ParamTy);
  return true;
}

/// The shadow of the dup pointer \p Primal, or in vector mode its Width
/// shadows: each given, or a stride apart from the first.
Value *RequestParser::parseShadows(unsigned ParamNo, Value *Stride,
                                   Value *Primal) {
  IRBuilder<> B(&Call);
  unsigned Given = Stride ? 1 : Width;
  SmallVector<Value *, 8> Shadows;
  for (unsigned K = 0; K < Given; ++K) {
    std::string Which =
        Given == 1 ? "the shadow" : "shadow " + std::to_string(K + 1);
    if (Next >= Call.arg_size())
      return fail(argName(ParamNo) + " is dup but the call ends before " +
                  (Given == 1 ? "its shadow" : Which) +
                  "; pass the shadow right after it, or mark it "
                  "capsule_const"),
             nullptr;
    Value *Shadow = Call.getArgOperand(Next++);
    if (markerOf(Shadow))
      return fail(Which + " of " + argName(ParamNo) +
                  " is missing: an activity marker stands in its place"),
             nullptr;
    if (!Shadow->getType()->isPointerTy())
      return fail(Which + " of " + argName(ParamNo) +
                  " must be a pointer like the argument itself"),
             nullptr;
    // A null argument may have a null shadow (an optional argument left
    // out); memory may not, derivatives are written there.
    if (isa<ConstantPointerNull>(Shadow) && !isa<ConstantPointerNull>(Primal))
      return fail(Which + " of " + argName(ParamNo) +
                  " is a null pointer: pass memory of the argument's shape "
                  "(zeroed), or mark the argument capsule_const"),
             nullptr;
    Shadows.push_back(Shadow);
  }
  return makeLanes(B, Width, [&](unsigned K) -> Value * {
    if (!Stride)
      return Shadows[K];
    Value *Offset =
        B.CreateMul(B.CreateSExtOrTrunc(Stride, B.getInt64Ty()), B.getInt64(K));
    return B.CreateGEP(B.getInt8Ty(), Shadows[0], Offset);
  });
}

/// The tangent of an active argument, or in vector mode its Width tangents.
bool RequestParser::parseTangent(unsigned ParamNo, Type *ParamTy) {
  SmallVector<Value *, 8> Tangents;
  for (unsigned K = 0; K < Width; ++K) {
    std::string Which =
        Width == 1 ? "its tangent" : "tangent " + std::to_string(K + 1);
    if (Next >= Call.arg_size())
      return fail(argName(ParamNo) + " is active but the call ends before " +
                  Which +
                  "; pass the tangent right after it, or mark it "
                  "capsule_const");
    Value *Tangent = Call.getArgOperand(Next++);
    if (markerOf(Tangent))
      return fail((Width == 1 ? "the tangent" : Which) + " of " +
                  argName(ParamNo) +
                  " is missing: an activity marker stands in its place");
    Value *Converted = convertMarkerArgument(
        Call, Tangent, ParamTy,
        (Width == 1 ? "the tangent" : Which) + " of " + argName(ParamNo));
    if (!Converted)
      return false;
    Tangents.push_back(Converted);
  }
  IRBuilder<> B(&Call);
  R.Tangents.push_back(
      makeLanes(B, Width, [&](unsigned K) { return Tangents[K]; }));
  return true;
}

/// A struct passed by value is f's own copy, a local variable like any
/// other: marked const, the caller's object is not differentiated, but f
/// may store active values in its copy, whose derivatives must flow as
/// through any local. The copy gets a zeroed scratch shadow, whose adjoints
/// are dropped. Not a struct with pointer fields: their shadows would be
/// null, and a const pointer must stay without a shadow (docs/limitations.md).
void RequestParser::shadowConstByValCopies() {
  const DataLayout &DL = Call.getDataLayout();
  unsigned DupsBefore = 0;
  for (auto [K, Activity] : enumerate(R.Sig.Args)) {
    Argument *A = Fn->getArg(K);
    if (Activity == ArgActivity::Dup) {
      ++DupsBefore;
      continue;
    }
    if (Activity != ArgActivity::Const || !A->hasByValAttr() ||
        !carriesFloat(A->getParamByValType()) ||
        carriesPointer(A->getParamByValType()))
      continue;
    Type *Ty = A->getParamByValType();
    IRBuilder<> Entry(
        &*Call.getFunction()->getEntryBlock().getFirstInsertionPt());
    AllocaInst *Scratch = Entry.CreateAlloca(Ty, Entry.getInt64(Width),
                                             A->getName() + ".const.shadow");
    IRBuilder<> B(&Call);
    B.CreateMemSet(Scratch, B.getInt8(0), DL.getTypeAllocSize(Ty) * Width,
                   Scratch->getAlign());
    R.Shadows.insert(R.Shadows.begin() + DupsBefore++,
                     makeLanes(B, Width, [&](unsigned K) {
                       return B.CreateConstGEP1_64(Ty, Scratch, K);
                     }));
    Activity = ArgActivity::Dup;
  }
}

/// The marker's declared return type receives the adjoints of the out
/// arguments: nothing (void), one floating-point value (0 when there is no
/// out argument), or a struct with one field per out argument, of its type,
/// in order. The C ABI may return such a struct in memory (sret) or coerce
/// it into other register types ({float, float} becomes <2 x float>), so
/// structs are checked by size.
bool RequestParser::checkResultType() {
  const DataLayout &DL = Call.getDataLayout();
  unsigned Outs = count(R.Sig.Args, ArgActivity::Out);
  Type *Needed = markerAdjointsType(Fn->getFunctionType(), R.Sig.Args, Width);
  auto Mismatch = [&] {
    if (Width > 1)
      return fail("the call's return type does not fit the " + Twine(Width) +
                  " adjoints of each of the " + Twine(Outs) +
                  " out arguments of '" + displayName(*Fn) +
                  "': use void or a struct with, per out argument, an array "
                  "of " +
                  Twine(Width) + " values of its type");
    return fail("the call's return type does not fit the " + Twine(Outs) +
                " out arguments of '" + displayName(*Fn) +
                "': use void, a floating-point type (one out argument) or a "
                "struct with one field per out argument, of its type");
  };
  if (R.ResultSlot) {
    Type *T = Call.getParamStructRetType(0);
    return Outs && sameDataBytes(DL, T, Needed) ? true : Mismatch();
  }
  Type *T = Call.getType();
  if (T->isVoidTy())
    return true;
  if (T->isFloatingPointTy()) {
    // The C header declares the marker as returning double; with no out
    // argument the value is 0.
    if (Outs == 0 || (Outs == 1 && Width == 1))
      return true;
    if (Width > 1)
      return fail("the call returns one floating-point value but vector "
                  "mode gives " +
                  Twine(Width) + " adjoints of each out argument of '" +
                  displayName(*Fn) +
                  "'; declare the marker to return a struct with an array "
                  "of " +
                  Twine(Width) + " values per out argument");
    return fail("the call returns one floating-point value but '" +
                displayName(*Fn) + "' has " + Twine(Outs) +
                " out arguments; declare the marker to return void or a "
                "struct with one field per out argument");
  }
  return Outs && sameDataBytes(DL, T, Needed) ? true : Mismatch();
}

/// The marker's declared return type receives the tangent of f's result:
/// nothing (void), the tangent of a floating-point result (0 when f returns
/// nothing active), the shadow of a pointer result, or an aggregate of
/// f's result type.
bool RequestParser::checkTangentResultType() {
  Type *RetTy = Fn->getReturnType();
  Type *T = declaredResultType();
  bool Fits = T->isVoidTy() ||
              (T->isFloatingPointTy() &&
               (RetTy->isFloatingPointTy() || !carriesFloat(RetTy))) ||
              (T->isPointerTy() && RetTy->isPointerTy()) ||
              (carriesFloat(RetTy) && !RetTy->isFloatingPointTy() &&
               sameDataBytes(Call.getDataLayout(), T, RetTy));
  if (Fits)
    return true;
  std::string RetS;
  raw_string_ostream(RetS) << *RetTy;
  return fail("the call's return type does not fit the tangent of the "
              "result of '" +
              displayName(*Fn) + "' (" + RetS +
              "): use void, or the type of the result");
}

/// Vector mode: the marker returns the result's tangents, \p Produced
/// ([Width x result]); the declared type must be void or of its size (a
/// struct or array of Width values of the result's type).
bool RequestParser::checkLanesResultType(Type *Produced) {
  const DataLayout &DL = Call.getDataLayout();
  Type *T = declaredResultType();
  Type *RetTy = Fn->getReturnType();
  if (T->isVoidTy() || RetTy->isVoidTy() || sameDataBytes(DL, T, Produced))
    return true;
  std::string TS, RetS;
  raw_string_ostream(TS) << *T;
  raw_string_ostream(RetS) << *RetTy;
  return fail("the call's return type (" + TS + ") does not fit the " +
              Twine(Width) + " tangents of the result of '" + displayName(*Fn) +
              "': declare a struct or array of " + Twine(Width) +
              " values of its type (" + RetS + ")");
}

/// With enzyme_primal_return the marker returns \p Produced: f's result,
/// then its adjoints ({result, {adjoints}}) or its tangent ({result,
/// tangent}). The declared type must take it: void, the result's own type
/// (a floating-point type converts), or an aggregate of the same size.
bool RequestParser::checkPrimalResultType(Type *Produced) {
  const DataLayout &DL = Call.getDataLayout();
  Type *T = declaredResultType();
  bool Fits = T->isVoidTy() || T == Produced ||
              (T->isFloatingPointTy() && Produced->isFloatingPointTy()) ||
              (Produced->isAggregateType() && sameDataBytes(DL, T, Produced));
  if (Fits)
    return true;
  std::string TS, ProducedS;
  raw_string_ostream(TS) << *T;
  raw_string_ostream(ProducedS) << *Produced;
  return fail("the call's return type (" + TS +
              ") does not fit what 'enzyme_primal_return' makes it return: "
              "the result of '" +
              displayName(*Fn) + "' followed by its derivatives (" + ProducedS +
              ")");
}

/// Why \p Fn, which returns a struct in memory through a hidden pointer
/// (an sret parameter: a struct larger than 16 bytes on x86-64), cannot be
/// what \p What takes: the marker would take the hidden pointer for its
/// first argument.
static std::string structInMemoryRefusal(const Function &Fn, StringRef What) {
  return "'" + displayName(Fn) +
         "' returns a struct in memory (through a hidden pointer, as C "
         "returns structs larger than 16 bytes), which " +
         What.str() +
         " does not support yet; write the result through a pointer "
         "argument instead";
}

std::optional<GradientRequest> RequestParser::parse() {
  if (Call.arg_size() > 0 && Call.paramHasAttr(0, Attribute::StructRet)) {
    R.ResultSlot = Call.getArgOperand(0);
    Next = 2;
  }
  if (Call.arg_size() < Next)
    return fail("the first argument must be the function to differentiate"),
           std::nullopt;
  Fn = dyn_cast<Function>(Call.getArgOperand(Next - 1)->stripPointerCasts());
  if (!Fn)
    return fail("the first argument must be the function to differentiate, "
                "e.g. (void *)f"),
           std::nullopt;
  if (Fn->isDeclaration() && !derivativeKnownWithoutBody(*Fn, Forward))
    return fail("'" + displayName(*Fn) +
                "' has no body in this translation unit and no " +
                (Forward ? "tangent" : "gradient") +
                " rule; only functions defined here, libm's and those with "
                "rules can be differentiated" +
                linkTimeAdvice(*Call.getModule())),
           std::nullopt;
  if (Fn->isVarArg())
    return fail("'" + displayName(*Fn) +
                "' takes a variable number of arguments, which is not "
                "supported"),
           std::nullopt;
  if (Fn->hasStructRetAttr()) {
    Type *Result = Fn->getParamStructRetType(0);
    if (!Forward && carriesFloat(Result))
      return fail("'" + displayName(*Fn) +
                  "' returns an aggregate of floating-point values (in "
                  "memory, through a hidden pointer), which cannot be "
                  "seeded; return a scalar, or write the results through a "
                  "capsule_dup pointer"),
             std::nullopt;
    return fail(structInMemoryRefusal(*Fn, Forward ? "forward mode"
                                                   : "a gradient marker")),
           std::nullopt;
  }
  // The call's tangents and shadows follow the arguments as the C ABI
  // passes them.
  Pairing P = Forward ? Pairing::ForwardMarker : Pairing::ReverseMarker;
  if (std::optional<SplitArgument> Split = splitArgument(*Fn, P))
    return fail(splitArgumentMessage(
               "'" + displayName(*Fn) + "', differentiated in " +
                   (Forward ? "forward" : "reverse") + " mode,",
               Split->Number, Split->TypeName, P)),
           std::nullopt;
  R.Call = &Call;
  R.Sig.Fn = Fn->isDeclaration() ? &bodyCalling(*Fn, Call) : Fn;
  R.Sig.TopLevel = true;
  R.Sig.StableArgs = ~uint64_t(0);
  if (!parseWidth())
    return std::nullopt;
  R.Sig.Width = Width;
  auto IsSimd = [&](Type *T) { return !laneType(T, Width); };
  if (IsSimd(Fn->getReturnType()) ||
      any_of(Fn->getFunctionType()->params(), IsSimd))
    return fail("vector mode (enzyme_width) of '" + displayName(*Fn) +
                "', which takes or returns SIMD vector values, is not "
                "supported yet"),
           std::nullopt;
  unsigned NumParams = Fn->arg_size();
  for (unsigned I = 0; I < NumParams; ++I) {
    if (!skipResultMarkers())
      return std::nullopt;
    if (Next >= Call.arg_size())
      return fail("too few arguments: '" + displayName(*Fn) + "' takes " +
                  Twine(NumParams) + " arguments but the call passes only " +
                  Twine(I)),
             std::nullopt;
    if (!parseArgument(I))
      return std::nullopt;
  }
  if (!skipResultMarkers())
    return std::nullopt;
  Type *RetTy = Fn->getReturnType();
  if (Half != SplitHalf::None) {
    R.Split = Half;
    R.Sig.TopLevel = false;
    R.Sig.StableArgs = 0;
    if (Primal)
      return fail("'enzyme_primal_return' does not apply to split mode: "
                  "__enzyme_augmentfwd returns the result of '" +
                  displayName(*Fn) + "' when its declared type has room"),
             std::nullopt;
    R.Sig.ActiveReturn =
        RetTy->isFloatingPointTy() && ResultActivity != ResultMarker::Const;
    if (Half == SplitHalf::Reverse && !parseReverseTail(RetTy))
      return std::nullopt;
  }
  if (Next + 1 == Call.arg_size())
    if (std::optional<Marker> Last = markerOf(Call.getArgOperand(Next)))
      return fail("activity marker '" + Last->Name +
                  "' ends the call: no argument follows it, and '" +
                  displayName(*Fn) + "' has no parameter left for one"),
             std::nullopt;
  if (Next < Call.arg_size())
    return fail("too many arguments: '" + displayName(*Fn) + "' takes " +
                Twine(NumParams) +
                " arguments (plus markers and shadows), the call passes " +
                Twine(Call.arg_size() - Next) + " more"),
           std::nullopt;
  if (Forward) {
    R.Sig.Tangent = true;
    R.Sig.TopLevel = false;
    R.Sig.StableArgs = 0;
    R.Sig.ActiveReturn = carriesFloat(RetTy);
    if (!applyResultMarkers(RetTy))
      return std::nullopt;
    // Vector mode returns the result's tangents as an array.
    Type *Tangents = Width > 1 ? ArrayType::get(RetTy, Width) : RetTy;
    bool Fits =
        !R.ReturnPrimal
            ? !R.ReturnTangent || (Width == 1 ? checkTangentResultType()
                                              : checkLanesResultType(Tangents))
        : R.ReturnTangent
            ? checkPrimalResultType(StructType::get(RetTy, Tangents))
            : checkPrimalResultType(RetTy);
    if (!Fits)
      return std::nullopt;
    shadowConstByValCopies();
    return R;
  }
  R.Sig.ActiveReturn = RetTy->isFloatingPointTy();
  if (!applyResultMarkers(RetTy))
    return std::nullopt;
  if (R.Sig.ActiveReturn || ResultActivity != ResultMarker::Const)
    if (carriesFloat(RetTy) && !RetTy->isFloatingPointTy())
      return fail("'" + displayName(*Fn) +
                  "' returns an aggregate of floating-point values, which "
                  "cannot be seeded; return a scalar, write the results "
                  "through a capsule_dup pointer, or mark the result "
                  "enzyme_const_return"),
             std::nullopt;
  StructType *Adjoints =
      markerAdjointsType(Fn->getFunctionType(), R.Sig.Args, Width);
  bool Fits = Half == SplitHalf::Augment ? checkAugmentResultType(RetTy)
              : !R.ReturnPrimal          ? checkResultType()
              : Adjoints->getNumElements()
                  ? checkPrimalResultType(StructType::get(RetTy, Adjoints))
                  : checkPrimalResultType(RetTy);
  if (!Fits)
    return std::nullopt;
  shadowConstByValCopies();
  return R;
}

std::optional<GradientRequest> parseGradientRequest(CallBase &Call) {
  return RequestParser(Call, /*Forward=*/false, SplitHalf::None).parse();
}

std::optional<GradientRequest> parseTangentRequest(CallBase &Call) {
  return RequestParser(Call, /*Forward=*/true, SplitHalf::None).parse();
}

std::optional<GradientRequest> parseSplitRequest(CallBase &Call,
                                                 SplitHalf Half) {
  return RequestParser(Call, /*Forward=*/false, Half).parse();
}

Function *parseAugmentSize(CallBase &Call) {
  auto *Fn =
      Call.arg_size()
          ? dyn_cast<Function>(Call.getArgOperand(0)->stripPointerCasts())
          : nullptr;
  if (!Fn) {
    reportBadMarkerCall(Call, "the first argument must be the function whose "
                              "tape is measured, e.g. (void *)f");
    return nullptr;
  }
  if (!Call.getType()->isIntegerTy()) {
    reportBadMarkerCall(Call, "__enzyme_augmentsize returns the tape's size "
                              "in bytes: declare it to return an integer");
    return nullptr;
  }
  for (unsigned I = 1; I < Call.arg_size(); ++I) {
    const GlobalVariable *G = markerGlobal(Call.getArgOperand(I));
    if (!G || !activityOfMarker(G->getName())) {
      reportBadMarkerCall(Call, "argument " + Twine(I + 1) +
                                    " must be an activity marker: "
                                    "__enzyme_augmentsize takes the function "
                                    "and the markers of its arguments");
      return nullptr;
    }
  }
  return Fn;
}

std::optional<RunMarkerKind> runMarkerKind(const Function &F) {
  return StringSwitch<std::optional<RunMarkerKind>>(F.getName())
      .Case("__capsule_primops", RunMarkerKind::Primops)
      .Case("__capsule_interrupt", RunMarkerKind::Interrupt)
      .Default(std::nullopt);
}

/// `__capsule_primops(fn, args...)` returns a uint64_t step count;
/// `__capsule_interrupt(fn, l, args...)` returns a capsule pointer.
std::optional<RunRequest> parseRunRequest(CallBase &Call, RunMarkerKind Kind) {
  auto Fail = [&](const Twine &Why) -> std::optional<RunRequest> {
    reportBadMarkerCall(Call, Why);
    return std::nullopt;
  };
  StringRef Marker = Call.getCalledFunction()->getName();
  bool Interrupt = Kind == RunMarkerKind::Interrupt;
  bool ReturnsRight = Interrupt ? Call.getType()->isPointerTy()
                                : Call.getType()->isIntegerTy(64);
  if (!ReturnsRight)
    return Fail(Marker + " must be declared to return " +
                (Interrupt ? "capsule_t *" : "uint64_t") +
                " (include capsule/capsule.h)");
  unsigned First = Interrupt ? 2 : 1;
  if (Call.arg_size() < First)
    return Fail(Marker + " needs the function to run" +
                (Interrupt ? " and the step limit" : "") + " first");
  auto *Fn = dyn_cast<Function>(Call.getArgOperand(0)->stripPointerCasts());
  if (!Fn)
    return Fail("the first argument of " + Marker +
                " must be the function to run, e.g. (void *)f");
  if (Fn->isDeclaration())
    return Fail("'" + displayName(*Fn) +
                "' has no body in this translation unit; only functions "
                "defined here can be interrupted" +
                linkTimeAdvice(*Call.getModule()));
  if (Fn->isVarArg())
    return Fail("'" + displayName(*Fn) +
                "' takes a variable number of arguments, which is not "
                "supported");
  if (Fn->hasStructRetAttr())
    return Fail(structInMemoryRefusal(*Fn, Marker.str()));
  RunRequest R{&Call, Kind, Fn, nullptr, {}};
  if (Interrupt) {
    R.Limit = convertMarkerArgument(Call, Call.getArgOperand(1),
                                    Type::getInt64Ty(Call.getContext()),
                                    "the step limit");
    if (!R.Limit)
      return std::nullopt;
  }
  unsigned Given = Call.arg_size() - First;
  if (Given != Fn->arg_size())
    return Fail(Twine(Given < Fn->arg_size() ? "too few" : "too many") +
                " arguments: '" + displayName(*Fn) + "' takes " +
                Twine(Fn->arg_size()) + " arguments but the call passes " +
                Twine(Given));
  for (Argument &A : Fn->args()) {
    Value *V = convertMarkerArgument(
        Call, Call.getArgOperand(First + A.getArgNo()), A.getType(),
        "argument " + Twine(A.getArgNo() + 1) + " of '" + displayName(*Fn) +
            "'");
    if (!V)
      return std::nullopt;
    R.Args.push_back(V);
  }
  return R;
}

Value *markerResultAs(IRBuilder<> &B, Value *Produced, Type *RetTy) {
  if (!Produced)
    return Constant::getNullValue(RetTy);
  if (Produced->getType() == RetTy)
    return Produced;
  if (RetTy->isFloatingPointTy()) {
    // One adjoint, or a floating-point result or tangent of another width.
    if (Produced->getType()->isStructTy())
      Produced = B.CreateExtractValue(Produced, 0);
    return B.CreateFPCast(Produced, RetTy);
  }
  // The ABI's coerced register type of an aggregate: read back from its
  // memory image, which holds either type (the coerced one may be larger:
  // tail padding).
  Function *Caller = B.GetInsertBlock()->getParent();
  const DataLayout &DL = Caller->getDataLayout();
  IRBuilder<> Entry(&Caller->getEntryBlock(),
                    Caller->getEntryBlock().getFirstInsertionPt());
  uint64_t Bytes = std::max(DL.getTypeAllocSize(Produced->getType()),
                            DL.getTypeAllocSize(RetTy));
  AllocaInst *Image =
      Entry.CreateAlloca(ArrayType::get(Entry.getInt8Ty(), Bytes));
  Image->setAlignment(std::max(DL.getABITypeAlign(Produced->getType()),
                               DL.getABITypeAlign(RetTy)));
  B.CreateStore(Produced, Image);
  return B.CreateLoad(RetTy, Image);
}

Value *reverseMarkerResult(IRBuilder<> &B, const GradientRequest &R,
                           Value *Primal, Value *Adjoints) {
  if (!R.ReturnPrimal)
    return Adjoints;
  if (!Adjoints->getType()->getStructNumElements())
    return Primal;
  auto *Ty = StructType::get(Primal->getType(), Adjoints->getType());
  return B.CreateInsertValue(
      B.CreateInsertValue(PoisonValue::get(Ty), Primal, 0), Adjoints, 1);
}

void replaceMarkerResult(IRBuilder<> &B, const GradientRequest &R,
                         Value *Produced) {
  if (Produced && Produced->getType()->isStructTy() &&
      !Produced->getType()->getStructNumElements())
    Produced = nullptr;
  if (R.ResultSlot) {
    if (Produced)
      B.CreateStore(Produced, R.ResultSlot);
    return;
  }
  Type *RetTy = R.Call->getType();
  if (!RetTy->isVoidTy())
    R.Call->replaceAllUsesWith(markerResultAs(B, Produced, RetTy));
}

SmallVector<Value *, 4> dupArguments(const GradientRequest &R) {
  SmallVector<Value *, 4> Dups;
  for (auto [K, Arg] : enumerate(R.Args))
    if (R.Sig.Args[K] == ArgActivity::Dup)
      Dups.push_back(Arg);
  return Dups;
}

} // namespace capsule
