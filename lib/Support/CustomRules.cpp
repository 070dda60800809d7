//===- CustomRules.cpp - Users' derivatives and activity annotations ------===//
#include "Support/CustomRules.h"

#include "Analysis/CallClassifier.h"
#include "Analysis/Signature.h"
#include "Support/Diagnostics.h"
#include "Support/GeneratedCode.h"
#include "Support/LibraryRules.h"
#include "Support/LinkTime.h"
#include "Support/SortCalls.h"
#include "Support/SplitArguments.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace capsule {

namespace {

const char *const GradientMD = "capsule.gradient";
const char *const TangentMD = "capsule.tangent";
const char *const InactiveMD = "capsule.inactive";
const char *const InactiveAttr = "capsule-inactive";
const char *const FunctionLikeAttr = "capsule-function-like";

enum class RuleKind { Gradient, Tangent, InactiveFn, InactiveGlobal, Like };

/// The registration globals, by the names Enzyme's pass and capsule.h give
/// them. C++ mangles a global declared in a namespace, so the name only
/// contains the prefix.
std::optional<RuleKind> registrationKind(StringRef Name) {
  static const std::pair<const char *, RuleKind> Prefixes[] = {
      {"__enzyme_register_gradient", RuleKind::Gradient},
      {"__capsule_register_gradient", RuleKind::Gradient},
      {"__enzyme_register_derivative", RuleKind::Tangent},
      {"__capsule_register_derivative", RuleKind::Tangent},
      {"__enzyme_inactivefn", RuleKind::InactiveFn},
      {"__capsule_inactive_fn", RuleKind::InactiveFn},
      {"__enzyme_inactive_global", RuleKind::InactiveGlobal},
      {"__capsule_inactive_global", RuleKind::InactiveGlobal},
      {"__enzyme_function_like", RuleKind::Like},
      {"__capsule_function_like", RuleKind::Like}};
  for (auto &[Prefix, Kind] : Prefixes)
    if (Name.contains(Prefix))
      return Kind;
  return std::nullopt;
}

std::string typeList(ArrayRef<Type *> Types) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "(";
  ListSeparator Sep;
  for (Type *T : Types) {
    OS << Sep;
    T->print(OS);
  }
  OS << ")";
  return S;
}

std::string typeName(Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return S;
}

/// Reports a malformed registration \p G (or annotation): "capsule:
/// file:line: invalid custom rule 'G': why".
void reportBadRule(const GlobalValue &G, const Twine &Why) {
  reportUnimplementedApi(G.getContext(), definitionSite(G) +
                                             "invalid custom rule '" +
                                             G.getName() + "': " + Why);
}

Function *functionOf(Value *V) {
  return dyn_cast_or_null<Function>(V ? V->stripPointerCasts() : nullptr);
}

/// The operands of a registration's initializer: {fn, ...}.
SmallVector<Value *, 3> entries(const GlobalVariable &G) {
  SmallVector<Value *, 3> Ops;
  if (!G.hasInitializer())
    return Ops;
  const Constant *Init = G.getInitializer();
  if (isa<ConstantAggregate>(Init))
    append_range(Ops, Init->operands());
  else if (isa<Function>(Init->stripPointerCasts()))
    Ops.push_back(const_cast<Constant *>(Init)); // one pointer, no array
  return Ops;
}

/// Keeps a rule's function through the optimizer: never inlined (its calls
/// are what the rule stands for) and never removed as unused (only the
/// registration, which the optimizer may remove, names it).
void keep(Module &M, Function &F) {
  F.removeFnAttr(Attribute::AlwaysInline);
  F.addFnAttr(Attribute::NoInline);
  appendToCompilerUsed(M, {&F});
}

/// Why \p Fn cannot have a rule at all, or "".
std::string whyNoRule(const Function &Fn) {
  if (Fn.isVarArg())
    return "'" + displayName(Fn) + "' is variadic";
  for (auto [K, T] : enumerate(Fn.getFunctionType()->params()))
    if (T->isAggregateType() || Fn.hasParamAttribute(K, Attribute::ByVal))
      return "argument " + std::to_string(K + 1) + " of '" + displayName(Fn) +
             "' is a struct passed by value, which rules cannot take yet "
             "(pass it by pointer)";
  Type *Ret = Fn.getReturnType();
  if ((carriesPointer(Ret) && !Ret->isPointerTy()) || Ret->isAggregateType())
    return "'" + displayName(Fn) + "' returns " + typeName(Ret) +
           ", and rules of functions returning structs are not supported "
           "yet";
  return "";
}

/// Why \p Rule (called \p What) cannot take the struct arguments its
/// source gives it (SplitArguments.h), or "": only debug information tells.
std::string whySplitStructArgument(const Function &Rule, StringRef What,
                                   Pairing P) {
  std::optional<SplitArgument> Split = splitArgument(Rule, P);
  if (!Split)
    return "";
  return splitArgumentMessage("the " + What.str() + " '" + displayName(Rule) +
                                  "'",
                              Split->Number, Split->TypeName, P);
}

/// Enzyme's reading of an augmented forward rule's result type \p R for a
/// function returning \p Ret: the primal result itself; {tape, result,
/// shadow of the result}; {result, shadow}; {tape, result}; or only a tape.
/// Two fields of one type are {result, shadow}: a pointer result's
/// {tape, result} cannot be told from them, and would lack the shadow.
void decodeAugmentResult(Type *R, Type *Ret, GradientRule &Rule) {
  if (R->isVoidTy())
    return;
  if (R == Ret) {
    Rule.PrimalField = -2;
    return;
  }
  if (auto *ST = dyn_cast<StructType>(R)) {
    unsigned N = ST->getNumElements();
    if (N == 3) {
      Rule.TapeField = 0;
      Rule.PrimalField = 1;
      Rule.ShadowField = 2;
      Rule.TapeTy = ST->getElementType(0);
      return;
    }
    if (N == 2 && ST->getElementType(0) == ST->getElementType(1)) {
      Rule.PrimalField = 0;
      Rule.ShadowField = 1;
      return;
    }
    if (N == 2) {
      Rule.TapeField = 0;
      Rule.PrimalField = 1;
      Rule.TapeTy = ST->getElementType(0);
      return;
    }
  }
  Rule.TapeField = -2;
  Rule.TapeTy = R;
}

/// Whether rule result type \p R holds exactly \p Fields: a struct of
/// them, the vector C returns a pair of floats in, or the one field itself.
bool resultHolds(Type *R, ArrayRef<Type *> Fields) {
  if (Fields.empty())
    return R->isVoidTy();
  if (auto *ST = dyn_cast<StructType>(R))
    return ST->elements() == Fields;
  if (auto *VT = dyn_cast<FixedVectorType>(R);
      VT && Fields.size() > 1 && VT->getNumElements() == Fields.size() &&
      all_of(Fields, [&](Type *T) { return T == VT->getElementType(); }))
    return true;
  return Fields.size() == 1 && R == Fields[0];
}

std::string fieldsName(ArrayRef<Type *> Fields) {
  if (Fields.empty())
    return "void";
  return Fields.size() == 1 ? typeName(Fields[0])
                            : "a struct of " + typeList(Fields);
}

/// Whether the augmented rule's result type \p R, as \p Rule reads it,
/// holds a pointer result of type \p Ret and its shadow.
bool holdsResultAndShadow(Type *R, const GradientRule &Rule, Type *Ret) {
  auto *ST = dyn_cast<StructType>(R);
  return ST && Rule.PrimalField >= 0 && Rule.ShadowField >= 0 &&
         ST->getElementType(Rule.PrimalField) == Ret &&
         ST->getElementType(Rule.ShadowField) == Ret;
}

std::string checkGradientRule(const Function &Fn, const Function &Aug,
                              const Function &Grad) {
  if (std::string Why = whyNoRule(Fn); !Why.empty())
    return Why;
  for (auto [Rule, What] : {std::pair(&Aug, "augmented forward rule"),
                            std::pair(&Grad, "gradient rule")})
    if (std::string Why =
            whySplitStructArgument(*Rule, What, Pairing::GradientRule);
        !Why.empty())
      return Why;
  SmallVector<Type *, 8> Expected = argumentsWithShadows(Fn);
  auto Name = [](const Function &F) { return "'" + displayName(F) + "'"; };
  if (ruleParams(Aug) != ArrayRef<Type *>(Expected))
    return "the augmented forward rule " + Name(Aug) + " takes " +
           typeList(ruleParams(Aug)) + ", but " + Name(Fn) + " needs " +
           typeList(Expected) +
           " (each argument that is not floating point followed by its "
           "shadow)";
  GradientRule Rule;
  Type *Ret = Fn.getReturnType();
  decodeAugmentResult(ruleResultType(Aug), Ret, Rule);
  if (!Ret->isVoidTy() && Rule.PrimalField == -1)
    return "the augmented forward rule " + Name(Aug) + " returns " +
           typeName(ruleResultType(Aug)) + ", without the " + typeName(Ret) +
           " result of " + Name(Fn) + " (return it, or {tape, result})";
  if (Ret->isPointerTy() &&
      !holdsResultAndShadow(ruleResultType(Aug), Rule, Ret))
    return "the augmented forward rule " + Name(Aug) + " returns " +
           typeName(ruleResultType(Aug)) + ", but " + Name(Fn) +
           " returns a pointer, whose shadow the rule must return too "
           "({result, shadow of the result}, or {tape, result, shadow})";
  if (Ret->isFPOrFPVectorTy())
    Expected.push_back(Ret);
  if (Rule.TapeTy)
    Expected.push_back(Rule.TapeTy);
  if (ruleParams(Grad) != ArrayRef<Type *>(Expected))
    return "the gradient rule " + Name(Grad) + " takes " +
           typeList(ruleParams(Grad)) + ", but " + Name(Fn) +
           " with the augmented forward rule " + Name(Aug) + " needs " +
           typeList(Expected) +
           " (arguments with shadows, the adjoint of a floating-point "
           "result, then the tape the augmented rule returns)";
  SmallVector<Type *, 4> Adjoints = adjointTypes(Fn);
  if (!resultHolds(ruleResultType(Grad), Adjoints))
    return "the gradient rule " + Name(Grad) + " returns " +
           typeName(ruleResultType(Grad)) +
           ", but the adjoints of the floating-point arguments of " + Name(Fn) +
           " are " + fieldsName(Adjoints);
  return "";
}

std::string checkTangentRule(const Function &Fn, const Function &Tan) {
  if (std::string Why = whyNoRule(Fn); !Why.empty())
    return Why;
  if (std::string Why =
          whySplitStructArgument(Tan, "tangent rule", Pairing::TangentRule);
      !Why.empty())
    return Why;
  SmallVector<Type *, 8> Expected = argumentsWithTangents(Fn);
  auto Name = [](const Function &F) { return "'" + displayName(F) + "'"; };
  if (ruleParams(Tan) != ArrayRef<Type *>(Expected))
    return "the tangent rule " + Name(Tan) + " takes " +
           typeList(ruleParams(Tan)) + ", but " + Name(Fn) + " needs " +
           typeList(Expected) + " (each argument followed by its tangent)";
  Type *Ret = Fn.getReturnType();
  SmallVector<Type *, 2> Want;
  if (Ret->isFPOrFPVectorTy() || Ret->isPointerTy())
    Want.append({Ret, Ret});
  else if (!Ret->isVoidTy())
    Want.push_back(Ret);
  if (!resultHolds(ruleResultType(Tan), Want))
    return "the tangent rule " + Name(Tan) + " returns " +
           typeName(ruleResultType(Tan)) + ", but " + Name(Fn) + " needs " +
           fieldsName(Want) +
           (Ret->isFPOrFPVectorTy() ? " ({result, tangent of the result})"
            : Ret->isPointerTy()    ? " ({result, shadow of the result})"
                                    : "");
  return "";
}

/// How many floating-point arguments the libm function \p Op takes, for
/// the functions another may be differentiated like; none for the others
/// (integer or pointer arguments, complex numbers).
std::optional<unsigned> likeArity(MathOp Op) {
  switch (Op) {
  case MathOp::Atan2:
  case MathOp::Pow:
  case MathOp::Hypot:
  case MathOp::Fmin:
  case MathOp::Fmax:
  case MathOp::Copysign:
  case MathOp::Fmod:
  case MathOp::Fdim:
  case MathOp::Remainder:
    return 2;
  case MathOp::Fma:
    return 3;
  case MathOp::Identity:
  case MathOp::Powi:
  case MathOp::Ldexp:
  case MathOp::Frexp:
  case MathOp::Polygamma:
  case MathOp::BesselJn:
  case MathOp::BesselYn:
  case MathOp::FMulAdd:
    return std::nullopt;
  default:
    return isComplexOp(Op) ? std::nullopt : std::optional<unsigned>(1);
  }
}

std::string checkFunctionLike(const Function &Fn, StringRef Like) {
  std::optional<MathOp> Op = mathFunctionNamed(Like);
  std::optional<unsigned> Arity = Op ? likeArity(*Op) : std::nullopt;
  if (!Arity)
    return "'" + Like.str() +
           "' is not a math function Capsule differentiates other functions "
           "like (one with one, two or three floating-point arguments and "
           "a floating-point result, such as log1p, pow or fma)";
  Type *Ret = Fn.getReturnType();
  FunctionType *FT = Fn.getFunctionType();
  if (!Ret->isFloatingPointTy() || FT->getNumParams() != *Arity ||
      any_of(FT->params(), [&](Type *T) { return T != Ret; }))
    return "'" + displayName(Fn) + "' has type " + typeName(FT) + ", but '" +
           Like.str() + "' takes " + std::to_string(*Arity) +
           " floating-point argument" + (*Arity > 1 ? "s" : "") +
           " of its result's type";
  return "";
}

void recordFunctionLike(Module &M, Function &Fn, StringRef Like,
                        const GlobalValue &Where) {
  if (std::string Why = checkFunctionLike(Fn, Like); !Why.empty())
    return reportBadRule(Where, Why);
  Fn.addFnAttr(FunctionLikeAttr, Like);
  keep(M, Fn);
}

void recordInactive(Module &M, GlobalValue &V) {
  if (auto *Fn = dyn_cast<Function>(&V)) {
    markInactive(*Fn);
    keep(M, *Fn);
  } else if (auto *G = dyn_cast<GlobalVariable>(&V)) {
    G->setMetadata(InactiveMD, MDNode::get(M.getContext(), {}));
  }
}

MDNode *functionsNode(LLVMContext &C, ArrayRef<Function *> Fns) {
  SmallVector<Metadata *, 2> Ops;
  for (Function *F : Fns)
    Ops.push_back(ValueAsMetadata::get(F));
  return MDNode::get(C, Ops);
}

/// Why a second \p Kind rule for \p Fn, which has \p Known, is refused.
std::string secondRule(const Function &Fn, StringRef Kind,
                       const Function &Known) {
  return ("'" + displayName(Fn) + "' already has a " + Kind + " rule ('" +
          displayName(Known) +
          "'); a function has one of each kind, registered once")
      .str();
}

/// Reads one registration global, reporting it if it is malformed.
void readRegistration(Module &M, GlobalVariable &G, RuleKind Kind) {
  SmallVector<Value *, 3> Ops = entries(G);
  Function *Fn = Ops.empty() ? nullptr : functionOf(Ops[0]);
  auto Need = [&](unsigned N, StringRef What) {
    if (Ops.size() >= N && all_of(ArrayRef(Ops).take_front(N), [&](Value *V) {
          return functionOf(V) || Kind == RuleKind::Like;
        }))
      return true;
    reportBadRule(G, "expected " + What);
    return false;
  };
  switch (Kind) {
  case RuleKind::Gradient: {
    if (!Need(3, "{function, augmented forward rule, gradient rule}"))
      return;
    Function *Aug = functionOf(Ops[1]), *Grad = functionOf(Ops[2]);
    if (std::string Why = checkGradientRule(*Fn, *Aug, *Grad); !Why.empty())
      return reportBadRule(G, Why);
    if (std::optional<GradientRule> Known = gradientRule(*Fn);
        Known && (Known->Augment != Aug || Known->Gradient != Grad))
      return reportBadRule(G, secondRule(*Fn, "gradient", *Known->Gradient));
    setGradientRule(*Fn, *Aug, *Grad);
    for (Function *F : {Fn, Aug, Grad})
      keep(M, *F);
    return;
  }
  case RuleKind::Tangent: {
    if (!Need(2, "{function, tangent rule}"))
      return;
    Function *Tan = functionOf(Ops[1]);
    if (std::string Why = checkTangentRule(*Fn, *Tan); !Why.empty())
      return reportBadRule(G, Why);
    if (Function *Known = tangentRule(*Fn); Known && Known != Tan)
      return reportBadRule(G, secondRule(*Fn, "tangent", *Known));
    setTangentRule(*Fn, *Tan);
    for (Function *F : {Fn, Tan})
      keep(M, *F);
    return;
  }
  case RuleKind::InactiveFn:
    if (Need(1, "{function}"))
      recordInactive(M, *Fn);
    return;
  case RuleKind::InactiveGlobal: {
    auto *Target = Ops.empty()
                       ? nullptr
                       : dyn_cast<GlobalVariable>(getUnderlyingObject(Ops[0]));
    if (!Target)
      return reportBadRule(G, "expected {&global}");
    recordInactive(M, *Target);
    return;
  }
  case RuleKind::Like: {
    StringRef Like;
    if (!Fn || Ops.size() < 2 || !getConstantStringInfo(Ops[1], Like))
      return reportBadRule(G, "expected {function, \"name of a math "
                              "function\"}");
    return recordFunctionLike(M, *Fn, Like, G);
  }
  }
}

/// `__attribute__((annotate("enzyme_inactive")))` on a function or global,
/// and `annotate("enzyme_function_like=log1p")` (what Enzyme's clang
/// plugin makes of its attributes), in either spelling.
void readAnnotations(Module &M) {
  for (ConstantStruct *Entry : globalAnnotations(M)) {
    StringRef Text;
    if (!getConstantStringInfo(Entry->getOperand(1), Text))
      continue;
    auto *Target =
        dyn_cast<GlobalValue>(Entry->getOperand(0)->stripPointerCasts());
    if (!Target)
      continue;
    if (!isRuleAnnotation(Text))
      continue;
    auto [Key, Like] = Text.split('=');
    if (!Key.ends_with("_function_like"))
      recordInactive(M, *Target);
    else if (auto *Fn = dyn_cast<Function>(Target))
      recordFunctionLike(M, *Fn, Like, *Target);
    else
      reportBadRule(*Target, "'" + Key + "' applies to functions only");
  }
}

/// The attributes Enzyme's own passes put on functions, which IR written
/// for Enzyme may carry.
void readEnzymeAttributes(Module &M) {
  for (Function &F : M) {
    if (F.hasFnAttribute("enzyme_inactive"))
      recordInactive(M, F);
    if (F.hasFnAttribute("enzyme_math"))
      recordFunctionLike(M, F,
                         F.getFnAttribute("enzyme_math").getValueAsString(), F);
  }
}

} // namespace

SmallVector<ConstantStruct *, 4> globalAnnotations(Module &M) {
  SmallVector<ConstantStruct *, 4> Entries;
  GlobalVariable *Annotations = M.getGlobalVariable("llvm.global.annotations");
  if (!Annotations || !Annotations->hasInitializer())
    return Entries;
  if (auto *Array = dyn_cast<ConstantArray>(Annotations->getInitializer()))
    for (const Use &U : Array->operands())
      if (auto *Entry = dyn_cast<ConstantStruct>(U.get());
          Entry && Entry->getNumOperands() >= 4)
        Entries.push_back(Entry);
  return Entries;
}

bool hasShadowParam(Type *T) { return !T->isFPOrFPVectorTy(); }

bool rulesCallablePerLane(const Function &F) {
  if (carriesPointer(F.getReturnType()) ||
      any_of(F.getFunctionType()->params(), carriesPointer))
    return false;
  std::optional<GradientRule> Rule = gradientRule(F);
  return !Rule || !Rule->TapeTy;
}

SmallVector<Type *, 8> argumentsWithShadows(const Function &Fn) {
  SmallVector<Type *, 8> Params;
  for (Type *T : Fn.getFunctionType()->params()) {
    Params.push_back(T);
    if (hasShadowParam(T))
      Params.push_back(T);
  }
  return Params;
}

SmallVector<Type *, 8> argumentsWithTangents(const Function &Fn) {
  SmallVector<Type *, 8> Params;
  for (Type *T : Fn.getFunctionType()->params())
    Params.append({T, T});
  return Params;
}

SmallVector<Type *, 4> adjointTypes(const Function &Fn) {
  SmallVector<Type *, 4> Adjoints;
  for (Type *T : Fn.getFunctionType()->params())
    if (!hasShadowParam(T))
      Adjoints.push_back(T);
  return Adjoints;
}

static bool returnsThroughSRet(const Function &Rule) {
  return Rule.arg_size() > 0 && Rule.hasParamAttribute(0, Attribute::StructRet);
}

ArrayRef<Type *> ruleParams(const Function &Rule) {
  return Rule.getFunctionType()->params().drop_front(
      returnsThroughSRet(Rule) ? 1 : 0);
}

Type *ruleResultType(const Function &Rule) {
  return returnsThroughSRet(Rule) ? Rule.getParamStructRetType(0)
                                  : Rule.getReturnType();
}

Value *callRule(IRBuilder<> &B, Function &Rule, ArrayRef<Value *> Args) {
  if (!returnsThroughSRet(Rule))
    return B.CreateCall(&Rule, Args);
  Type *Ty = Rule.getParamStructRetType(0);
  // The entry block may still be empty (a forward sweep's first call).
  BasicBlock &EntryBlock = B.GetInsertBlock()->getParent()->getEntryBlock();
  IRBuilder<> Entry(&EntryBlock, EntryBlock.getFirstInsertionPt());
  AllocaInst *Slot = Entry.CreateAlloca(Ty, nullptr, "rule.result");
  SmallVector<Value *, 8> All{Slot};
  append_range(All, Args);
  CallInst *Call = B.CreateCall(&Rule, All);
  Call->addParamAttr(0, Attribute::getWithStructRetType(B.getContext(), Ty));
  return B.CreateLoad(Ty, Slot);
}

Value *resultField(IRBuilder<> &B, Value *Result, unsigned K,
                   unsigned NumFields) {
  if (Result->getType()->isStructTy())
    return B.CreateExtractValue(Result, K);
  if (NumFields == 1)
    return Result;
  return B.CreateExtractElement(Result, B.getInt64(K));
}

bool isRuleAnnotation(StringRef Text) {
  auto [Key, Like] = Text.split('=');
  return Text == "enzyme_inactive" || Text == "capsule_inactive" ||
         Key == "enzyme_function_like" || Key == "capsule_function_like";
}

bool isRuleAttribute(StringRef Kind) {
  return Kind == "enzyme_inactive" || Kind == "enzyme_math";
}

bool isRuleRegistration(const GlobalVariable &G) {
  return registrationKind(G.getName()).has_value();
}

GlobalValue *registeredSymbol(const GlobalVariable &G) {
  SmallVector<Value *, 3> Ops = entries(G);
  return Ops.empty() ? nullptr
                     : dyn_cast<GlobalValue>(Ops[0]->stripPointerCasts());
}

void readCustomRules(Module &M) {
  // A compile for link-time optimization checks the rules; the link reads
  // them again from the merged module, where a rule and its function, which
  // may live in different files, meet (Support/LinkTime.h).
  bool PreLink = isPreLinkCompile(M);
  const char *Read = PreLink ? "capsule.rules.checked" : "capsule.rules.read";
  if (M.getNamedMetadata(Read))
    return;
  M.getOrInsertNamedMetadata(Read);
  SmallVector<GlobalVariable *, 4> Registrations;
  for (GlobalVariable &G : M.globals())
    if (std::optional<RuleKind> Kind = registrationKind(G.getName())) {
      readRegistration(M, G, *Kind);
      Registrations.push_back(&G);
    }
  readAnnotations(M);
  readEnzymeAttributes(M);
  attachLibraryRules(M);
  noteSortLayouts(M);
  if (PreLink) {
    appendToCompilerUsed(M, SmallVector<GlobalValue *, 4>(Registrations.begin(),
                                                          Registrations.end()));
    return;
  }
  // Read; left in place they would make every rule a possible target of
  // every indirect call of its type.
  eraseUnusedGlobals(M, Registrations);
}

void setGradientRule(Function &F, Function &Augment, Function &Gradient) {
  F.setMetadata(GradientMD,
                functionsNode(F.getContext(), {&Augment, &Gradient}));
}

void setTangentRule(Function &F, Function &Tangent) {
  F.setMetadata(TangentMD, functionsNode(F.getContext(), {&Tangent}));
}

std::optional<GradientRule> gradientRule(const Function &F) {
  MDNode *MD = F.getMetadata(GradientMD);
  if (!MD || MD->getNumOperands() != 2)
    return std::nullopt;
  GradientRule Rule;
  Rule.Augment = mdconst::dyn_extract_or_null<Function>(MD->getOperand(0));
  Rule.Gradient = mdconst::dyn_extract_or_null<Function>(MD->getOperand(1));
  if (!Rule.Augment || !Rule.Gradient)
    return std::nullopt;
  decodeAugmentResult(ruleResultType(*Rule.Augment), F.getReturnType(), Rule);
  return Rule;
}

Function *tangentRule(const Function &F) {
  MDNode *MD = F.getMetadata(TangentMD);
  return MD && MD->getNumOperands() == 1
             ? mdconst::dyn_extract_or_null<Function>(MD->getOperand(0))
             : nullptr;
}

void markInactive(Function &F) { F.addFnAttr(InactiveAttr); }

bool isInactiveFunction(const Function &F) {
  return F.hasFnAttribute(InactiveAttr);
}

bool isInactiveGlobal(const GlobalVariable &G) {
  return G.getMetadata(InactiveMD) != nullptr;
}

std::optional<StringRef> functionLikeName(const Function &F) {
  if (!F.hasFnAttribute(FunctionLikeAttr))
    return std::nullopt;
  return F.getFnAttribute(FunctionLikeAttr).getValueAsString();
}

} // namespace capsule
