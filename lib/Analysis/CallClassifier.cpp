//===- CallClassifier.cpp - What a call means to differentiation ----------===//
#include "Analysis/CallClassifier.h"
#include "Support/CustomRules.h"
#include "Support/LibraryOutputs.h"
#include "Support/LibraryRules.h"
#include "Support/MarkerCalls.h"
#include "Support/ParallelRegions.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace capsule {

static std::optional<MathOp> mathIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::sin:
    return MathOp::Sin;
  case Intrinsic::cos:
    return MathOp::Cos;
  case Intrinsic::tan:
    return MathOp::Tan;
  case Intrinsic::asin:
    return MathOp::Asin;
  case Intrinsic::acos:
    return MathOp::Acos;
  case Intrinsic::atan:
    return MathOp::Atan;
  case Intrinsic::sinh:
    return MathOp::Sinh;
  case Intrinsic::cosh:
    return MathOp::Cosh;
  case Intrinsic::tanh:
    return MathOp::Tanh;
  case Intrinsic::exp10:
    return MathOp::Exp10;
  case Intrinsic::exp:
    return MathOp::Exp;
  case Intrinsic::exp2:
    return MathOp::Exp2;
  case Intrinsic::log:
    return MathOp::Log;
  case Intrinsic::log2:
    return MathOp::Log2;
  case Intrinsic::log10:
    return MathOp::Log10;
  case Intrinsic::sqrt:
    return MathOp::Sqrt;
  case Intrinsic::pow:
    return MathOp::Pow;
  case Intrinsic::powi:
    return MathOp::Powi;
  case Intrinsic::fabs:
    return MathOp::Fabs;
  case Intrinsic::minnum:
  case Intrinsic::minimum:
    return MathOp::Fmin;
  case Intrinsic::maxnum:
  case Intrinsic::maximum:
    return MathOp::Fmax;
  case Intrinsic::copysign:
    return MathOp::Copysign;
  case Intrinsic::fma:
    return MathOp::Fma;
  case Intrinsic::fmuladd:
    return MathOp::FMulAdd;
  case Intrinsic::ldexp:
    return MathOp::Ldexp;
  case Intrinsic::canonicalize:
  case Intrinsic::arithmetic_fence:
    return MathOp::Identity;
  case Intrinsic::floor:
  case Intrinsic::ceil:
  case Intrinsic::trunc:
  case Intrinsic::round:
  case Intrinsic::roundeven:
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::lround:
  case Intrinsic::llround:
  case Intrinsic::lrint:
  case Intrinsic::llrint:
    return MathOp::Piecewise;
  default:
    return std::nullopt;
  }
}

/// libm functions by their double-precision name; the float variant is the
/// same name with an `f` suffix.
std::optional<MathOp> mathFunctionNamed(StringRef Name) {
  static const StringMap<MathOp> Table = {
      {"sin", MathOp::Sin},
      {"cos", MathOp::Cos},
      {"tan", MathOp::Tan},
      {"asin", MathOp::Asin},
      {"acos", MathOp::Acos},
      {"atan", MathOp::Atan},
      {"atan2", MathOp::Atan2},
      {"sinh", MathOp::Sinh},
      {"cosh", MathOp::Cosh},
      {"tanh", MathOp::Tanh},
      {"asinh", MathOp::Asinh},
      {"acosh", MathOp::Acosh},
      {"atanh", MathOp::Atanh},
      {"exp", MathOp::Exp},
      {"exp2", MathOp::Exp2},
      {"exp10", MathOp::Exp10},
      {"expm1", MathOp::Expm1},
      {"log", MathOp::Log},
      {"log2", MathOp::Log2},
      {"log10", MathOp::Log10},
      {"log1p", MathOp::Log1p},
      {"sqrt", MathOp::Sqrt},
      {"cbrt", MathOp::Cbrt},
      {"pow", MathOp::Pow},
      {"hypot", MathOp::Hypot},
      {"fabs", MathOp::Fabs},
      {"fmin", MathOp::Fmin},
      {"fmax", MathOp::Fmax},
      {"fdim", MathOp::Fdim},
      {"copysign", MathOp::Copysign},
      {"fmod", MathOp::Fmod},
      {"remainder", MathOp::Remainder},
      // After LibmPointerOutputs.h gave the quotient a slot of its own.
      {"remquo", MathOp::Remainder},
      {"fma", MathOp::Fma},
      {"erf", MathOp::Erf},
      {"erfc", MathOp::Erfc},
      {"tgamma", MathOp::Tgamma},
      {"lgamma", MathOp::Lgamma},
      {"lgamma_r", MathOp::Lgamma},
      {"lgammaf_r", MathOp::Lgamma},
      {"__capsule_polygamma", MathOp::Polygamma},
      {"ldexp", MathOp::Ldexp},
      {"scalbn", MathOp::Ldexp},
      {"scalbln", MathOp::Ldexp},
      {"frexp", MathOp::Frexp},
      {"modf", MathOp::Identity},
      {"nextafter", MathOp::Identity},
      {"j0", MathOp::BesselJ0},
      {"j1", MathOp::BesselJ1},
      {"y0", MathOp::BesselY0},
      {"y1", MathOp::BesselY1},
      {"jn", MathOp::BesselJn},
      {"yn", MathOp::BesselYn},
      {"__muldc3", MathOp::CMul},
      {"__mulsc3", MathOp::CMul},
      {"__divdc3", MathOp::CDiv},
      {"__divsc3", MathOp::CDiv},
      {"cexp", MathOp::CExp},
      {"clog", MathOp::CLog},
      {"csqrt", MathOp::CSqrt},
      {"cpow", MathOp::CPow},
      {"csin", MathOp::CSin},
      {"ccos", MathOp::CCos},
      {"ctan", MathOp::CTan},
      {"csinh", MathOp::CSinh},
      {"ccosh", MathOp::CCosh},
      {"ctanh", MathOp::CTanh},
      {"casin", MathOp::CAsin},
      {"cacos", MathOp::CAcos},
      {"catan", MathOp::CAtan},
      {"casinh", MathOp::CAsinh},
      {"cacosh", MathOp::CAcosh},
      {"catanh", MathOp::CAtanh},
      {"cproj", MathOp::CProj},
      {"conj", MathOp::Conj},
      {"cabs", MathOp::CAbs},
      {"carg", MathOp::CArg},
      {"creal", MathOp::CReal},
      {"cimag", MathOp::CImag},
      {"floor", MathOp::Piecewise},
      {"ceil", MathOp::Piecewise},
      {"trunc", MathOp::Piecewise},
      {"round", MathOp::Piecewise},
      {"rint", MathOp::Piecewise},
      {"nearbyint", MathOp::Piecewise},
      {"roundeven", MathOp::Piecewise},
      {"logb", MathOp::Piecewise},
      {"ilogb", MathOp::Piecewise},
      {"lround", MathOp::Piecewise},
      {"llround", MathOp::Piecewise},
      {"lrint", MathOp::Piecewise},
      {"llrint", MathOp::Piecewise}};
  auto It = Table.find(Name);
  if (It != Table.end())
    return It->second;
  if (Name.ends_with("f")) {
    It = Table.find(Name.drop_back());
    if (It != Table.end())
      return It->second;
  }
  return std::nullopt;
}

bool isComplexOp(MathOp Op) { return Op >= MathOp::CMul; }

/// A complex function's parameters and result as the x86-64 ABI passes
/// them: floating-point scalars, {T, T} or <2 x T>. Anything else (a complex
/// long double, another target's sret) is not known.
static bool hasComplexSignature(FunctionType &FT) {
  auto Fits = [](Type *T) {
    if (T->isFloatTy() || T->isDoubleTy())
      return true;
    if (auto *V = dyn_cast<FixedVectorType>(T))
      return V->getNumElements() == 2 && V->getElementType()->isFloatTy();
    auto *S = dyn_cast<StructType>(T);
    return S && S->getNumElements() == 2 &&
           S->getElementType(0) == S->getElementType(1) &&
           S->getElementType(0)->isDoubleTy();
  };
  return !FT.isVarArg() && Fits(FT.getReturnType()) &&
         all_of(FT.params(), Fits);
}

static std::optional<CalleeKind> memoryIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memmove:
    return CalleeKind::MemTransfer;
  case Intrinsic::memset:
  case Intrinsic::memset_inline:
    return CalleeKind::MemSet;
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
  case Intrinsic::threadlocal_address:
    return CalleeKind::PointerCast;
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::objectsize:
  case Intrinsic::prefetch:
  case Intrinsic::var_annotation:
  case Intrinsic::expect:
  case Intrinsic::is_constant:
  case Intrinsic::is_fpclass:
  case Intrinsic::trap:
  case Intrinsic::debugtrap:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::donothing:
  case Intrinsic::sideeffect:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::dbg_assign:
    return CalleeKind::NoDerivative;
  default:
    return std::nullopt;
  }
}

std::optional<CalleeKind> alignedNewOrDelete(StringRef Name) {
  return StringSwitch<std::optional<CalleeKind>>(Name)
      .Cases("_ZnwmSt11align_val_t", "_ZnamSt11align_val_t",
             "_ZnwmSt11align_val_tRKSt9nothrow_t",
             "_ZnamSt11align_val_tRKSt9nothrow_t", CalleeKind::AlignedAlloc)
      .Cases("_ZdlPvSt11align_val_t", "_ZdaPvSt11align_val_t",
             "_ZdlPvmSt11align_val_t", "_ZdaPvmSt11align_val_t",
             CalleeKind::Free)
      .Default(std::nullopt);
}

static std::optional<CalleeKind> allocationFunction(StringRef Name) {
  if (std::optional<CalleeKind> Aligned = alignedNewOrDelete(Name))
    return *Aligned == CalleeKind::AlignedAlloc ? CalleeKind::Alloc : *Aligned;
  return StringSwitch<std::optional<CalleeKind>>(Name)
      .Cases("malloc", "_Znwm", "_Znam", "_ZnwmRKSt9nothrow_t",
             "_ZnamRKSt9nothrow_t", CalleeKind::Alloc)
      .Case("calloc", CalleeKind::Calloc)
      .Case("aligned_alloc", CalleeKind::AlignedAlloc)
      .Case("realloc", CalleeKind::Realloc)
      .Cases("free", "_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm", CalleeKind::Free)
      // The deterministic allocator interruptible code calls instead.
      .Case("__capsule_malloc", CalleeKind::Alloc)
      .Case("__capsule_calloc", CalleeKind::Calloc)
      .Case("__capsule_aligned_alloc", CalleeKind::AlignedAlloc)
      .Case("__capsule_realloc", CalleeKind::Realloc)
      .Case("__capsule_free", CalleeKind::Free)
      // A tangent block of interruptible code (StepInstrumentation.cpp).
      .Case("__capsule_tangent_arena_free", CalleeKind::Free)
      .Default(std::nullopt);
}

/// Members of the standard exception classes (their constructors,
/// destructors and what()), which derived classes' call: a function that
/// calls a virtual destructor or a shared_ptr's deleter may reach any such
/// destructor the file defines.
static bool isCxxExceptionMember(StringRef Name) {
  Name.consume_front("_ZNK") || Name.consume_front("_ZN");
  return Name.consume_front("St") &&
         any_of(
             ArrayRef<StringRef>{
                 "9exception", "13bad_exception", "9bad_alloc",
                 "20bad_array_new_length", "8bad_cast", "10bad_typeid",
                 "13runtime_error", "11logic_error", "12out_of_range",
                 "16invalid_argument", "12length_error", "12domain_error",
                 "11range_error", "14overflow_error", "15underflow_error"},
             [&](StringRef Class) { return Name.starts_with(Class); });
}

bool isCharacterStringMember(StringRef Name) {
  return Name.starts_with("_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcE") ||
         Name.starts_with("_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcE") ||
         Name.starts_with("_ZNSt11char_traitsIcE");
}

/// Members of libstdc++ that touch no floating-point data the program
/// differentiates: writing to an output stream (std::cout << x prints x),
/// char strings and their allocator, the standard exception classes, the
/// hash tables' rehash policy (integers), the guards of function-local
/// statics and the registration of their destructors, and the object a
/// throw carries (a throw abandons the gradient, so nothing derives from
/// it).
static bool isCxxLibraryWithoutFloatingPoint(StringRef Name) {
  return Name.starts_with("_ZNSo") ||                  // std::ostream::
         Name.starts_with("_ZSt16__ostream_insert") || // << of a C string
         Name.starts_with("_ZStlsISt11char_traitsIcEE") ||
         Name.starts_with("_ZNSt8ios_base") || isCharacterStringMember(Name) ||
         Name.starts_with("_ZNSaIcE") || isCxxExceptionMember(Name) ||
         Name.starts_with("_ZNKSt8__detail20_Prime_rehash_policy") ||
         Name.starts_with("__cxa_guard_") || Name == "__cxa_atexit" ||
         Name == "__cxa_thread_atexit" || Name == "__cxa_allocate_exception";
}

/// C library functions and libstdc++'s hash that read bytes and return an
/// integer, writing nothing (clang does not declare them so at -O0): bcmp is
/// memcmp whose result is only compared with 0, as LLVM rewrites it;
/// std::hash of a string's bytes serves unordered containers keyed by
/// strings.
static bool onlyReadsBytes(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases("strlen", "strcmp", "strncmp", "memcmp", "bcmp", true)
      .Cases("_ZSt11_Hash_bytesPKvmm", "_ZSt15_Fnv_hash_bytesPKvmm", true)
      .Default(false);
}

/// External functions whose effects never carry derivatives: output,
/// streams, string inspection, termination, C++ exception machinery, and
/// the reports of -fsanitize=undefined's checks (integers and the source
/// location they pass).
static bool hasNoDerivative(StringRef Name) {
  if (Name.starts_with("_ZSt") && Name.contains("__throw_"))
    return true;
  if (Name.starts_with("__ubsan_handle_"))
    return true;
  if (onlyReadsBytes(Name))
    return true;
  if (isCxxLibraryWithoutFloatingPoint(Name))
    return true;
  // What a library routine writes and costs, for interruptible code.
  if (isLibraryStepFunction(Name))
    return true;
  return StringSwitch<bool>(Name)
      .Cases("printf", "fprintf", "vprintf", "vfprintf", "puts", "fputs", true)
      .Cases("putchar", "fputc", "putc", "fwrite", "fflush", "perror", true)
      .Cases("sprintf", "snprintf", true)
      // The same checked, as _FORTIFY_SOURCE calls them.
      .Cases("__printf_chk", "__fprintf_chk", "__vprintf_chk", "__vfprintf_chk",
             "__sprintf_chk", "__snprintf_chk", true)
      .Case("__chk_fail", true)
      .Cases("exit", "abort", "_exit", "__assert_fail", true)
      // Opening and positioning streams (reading them is in
      // Support/LibraryOutputs.h).
      .Cases("fopen", "fclose", "fseek", "ftell", "rewind", "feof", true)
      .Cases("ferror", "clearerr", "fileno", true)
      // The bookkeeping of interruptible code: saving memory for capsules,
      // growing the frame stack, sizing a block to reallocate.
      .Cases("__capsule_journal_write", "__capsule_journal_barrier",
             "__capsule_frame_grow", "__capsule_arena_usable_size", true)
      .Case("__capsule_tangent_arena_usable_size", true)
      // A parallel region's team in interruptible code (TeamRegions.h).
      .Cases("__capsule_omp_team_begin", "__capsule_omp_team_enter",
             "__capsule_omp_team_leave", "__capsule_omp_team_end", true)
      // A check an inner gradient call makes (nested differentiation).
      .Case("__capsule_check_nested_dup_args", true)
      // Generated dispatch stopping at a target without a derivative, and
      // the bookkeeping of an inner gradient call (nested differentiation).
      .Cases("__capsule_unknown_call_target", "__capsule_gradient_forward_done",
             "__capsule_gradient_end", "__capsule_gradient_keep_globals", true)
      // Replay of non-deterministic calls' results (ReplayCalls.h).
      .Cases("__capsule_replay_pending", "__capsule_replay_take",
             "__capsule_replay_take_f64", "__capsule_replay_take_f32", true)
      .Cases("__capsule_replay_take_bytes", "__capsule_replay_will_write",
             "__capsule_replay_record", "__capsule_replay_record_f64",
             "__capsule_replay_record_f32", "__capsule_replay_record_bytes",
             true)
      // Loop-iteration checkpointing's marker, outside checkpointed code.
      .Case("capsule_checkpoint_iteration", true)
      .Cases("__cxa_throw", "__cxa_allocate_exception", "__cxa_begin_catch",
             "__cxa_end_catch", "__cxa_rethrow", "_ZSt9terminatev", true)
      .Default(false);
}

bool repeatsWithoutEffect(StringRef Name) {
  // The allocator of char strings, built and destroyed around each string
  // built from a literal, holds nothing.
  if (Name.starts_with("_ZNSaIcEC") || Name.starts_with("_ZNSaIcED"))
    return true;
  // An exception object's members touch the object, which a throw
  // abandons (as __cxa_allocate_exception's).
  if (isCxxExceptionMember(Name))
    return true;
  return onlyReadsBytes(Name);
}

bool returnsMemoryWithoutDerivatives(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  return F && F->isDeclaration() &&
         isCxxLibraryWithoutFloatingPoint(F->getName());
}

std::optional<NestedRuntime> nestedRuntimeCall(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F)
    return std::nullopt;
  return StringSwitch<std::optional<NestedRuntime>>(F->getName())
      .Case("__capsule_tangent_begin", NestedRuntime::TangentBegin)
      .Case("__capsule_tangent_alloc", NestedRuntime::TangentAlloc)
      .Case("__capsule_tangent_realloc", NestedRuntime::TangentRealloc)
      .Case("__capsule_tangent_free", NestedRuntime::TangentFree)
      .Case("__capsule_tangent_sink_of", NestedRuntime::SinkOf)
      .Case("__capsule_tangent_sink_fill", NestedRuntime::SinkFill)
      .Case("__capsule_tangent_of_loaded_pointer", NestedRuntime::LoadedSinkOf)
      .Cases("__capsule_tangent_nested_sink_of", "__capsule_tangent_sink_twin",
             NestedRuntime::NestedSinkOf)
      .Cases("__capsule_tangent_nested_sink_fill",
             "__capsule_tangent_sink_fill_twin", NestedRuntime::NestedSinkFill)
      .Case("__capsule_gradient_begin", NestedRuntime::GradientCall)
      .Cases("__capsule_tape_push_slow", "__capsule_tape_pop_slow",
             NestedRuntime::TapeSlowPath)
      .Case("__capsule_shadow_alloc", NestedRuntime::ShadowAlloc)
      .Case("__capsule_shadow_realloc", NestedRuntime::ShadowRealloc)
      .Cases("__capsule_realloc_adjoint_f64", "__capsule_realloc_adjoint_f32",
             NestedRuntime::ReallocAdjoint)
      .Cases("__capsule_shadow_note_free", "__capsule_shadow_release",
             "__capsule_shadow_free", NestedRuntime::ShadowUpdate)
      .Cases("__capsule_copy_adjoint_f64", "__capsule_copy_adjoint_f32",
             NestedRuntime::CopyAdjoint)
      .Case("__capsule_defer_free", NestedRuntime::DeferFree)
      .Case("__capsule_sink_of", NestedRuntime::PlaceOf)
      .Case("__capsule_sink_fill", NestedRuntime::PlaceFill)
      .Cases("__capsule_tangent_tape_lane_mirror",
             "__capsule_tangent_lane_of_sink_place",
             "__capsule_tangent_lane_sink_fill_places",
             "__capsule_defer_tangent_free", NestedRuntime::OverGradient)
      .Cases("__capsule_outer_tape_push_slow", "__capsule_outer_tape_pop_slow",
             "__capsule_outer_gradient_begin",
             "__capsule_outer_gradient_forward_done",
             "__capsule_outer_gradient_end", "__capsule_outer_defer_free",
             "__capsule_adjoint_tape_mirror", "__capsule_adjoint_tape_clear",
             NestedRuntime::OuterGradient)
      .Cases("__capsule_realloc_copy_prefix", "__capsule_adjoint_of_sink_place",
             "__capsule_adjoint_sink_fill_places", NestedRuntime::OuterGradient)
      .Case("__capsule_bind_shadow_globals", NestedRuntime::BindGlobals)
      .Case("__capsule_checkpointed_tangent",
            NestedRuntime::CheckpointedTangent)
      .Default(std::nullopt);
}

bool isTapeHeader(const Value *V) {
  auto *G = dyn_cast<GlobalVariable>(V);
  return G && G->isThreadLocal() && G->getName() == "__capsule_tape";
}

CalleeInfo classifyCall(const CallBase &Call) {
  if (Function *F = Call.getCalledFunction())
    return classifyFunction(*F);
  bool Variadic = Call.getFunctionType()->isVarArg();
  return {Call.isInlineAsm() || Variadic ? CalleeKind::External
                                         : CalleeKind::Indirect};
}

CallBase *siblingMathCall(CallBase &Call, MathOp Op, bool OnlyBefore) {
  if (Call.arg_size() != 1)
    return nullptr;
  // The argument's users, not the block: blocks of unrolled code hold
  // thousands of calls.
  for (User *U : Call.getArgOperand(0)->users()) {
    auto *Other = dyn_cast<CallBase>(U);
    if (!Other || Other == &Call || Other->getParent() != Call.getParent() ||
        Other->arg_size() != 1 || Other->getType() != Call.getType() ||
        (OnlyBefore && !Other->comesBefore(&Call)))
      continue;
    CalleeInfo Info = classifyCall(*Other);
    if (Info.Kind == CalleeKind::Math && Info.Math == Op)
      return Other;
  }
  return nullptr;
}

/// What the user said of \p F (Support/CustomRules.h): differentiated as a
/// libm function, inactive, or with rules of its own, which make even a
/// function defined elsewhere one that derivatives call.
static std::optional<CalleeInfo> userDeclaredKind(Function &F) {
  if (std::optional<StringRef> Like = functionLikeName(F))
    if (std::optional<MathOp> Op = mathFunctionNamed(*Like))
      return CalleeInfo{CalleeKind::Math, *Op, &F};
  if (isInactiveFunction(F))
    return CalleeInfo{CalleeKind::NoDerivative, MathOp::Identity, &F};
  if (gradientRule(F) || tangentRule(F))
    return CalleeInfo{CalleeKind::Module, MathOp::Identity, &F};
  return std::nullopt;
}

CalleeInfo classifyFunction(Function &Fn) {
  Function *F = &Fn;
  if (std::optional<CalleeInfo> Declared = userDeclaredKind(Fn))
    return *Declared;
  // Derivatives have fixed parameter lists: a variadic callee (other than
  // the known output functions) is one whose derivative Capsule cannot make.
  bool Variadic = F->isVarArg();
  if (Intrinsic::ID ID = F->getIntrinsicID()) {
    if (std::optional<MathOp> Op = mathIntrinsic(ID))
      return {CalleeKind::Math, *Op, F};
    if (std::optional<CalleeKind> Kind = memoryIntrinsic(ID))
      return {*Kind, MathOp::Identity, F};
    return {CalleeKind::External, MathOp::Identity, F};
  }
  if (!F->isDeclaration())
    return {Variadic ? CalleeKind::External : CalleeKind::Module,
            MathOp::Identity, F};
  StringRef Name = F->getName();
  if (std::optional<MathOp> Op = mathFunctionNamed(Name))
    if (!isComplexOp(*Op) || hasComplexSignature(*F->getFunctionType()))
      return {CalleeKind::Math, *Op, F};
  if (std::optional<CalleeKind> Kind = allocationFunction(Name))
    return {*Kind, MathOp::Identity, F};
  // A pointer to the same object as another class (the C++ ABI's
  // dynamic_cast), or null.
  if (Name == "__dynamic_cast")
    return {CalleeKind::PointerMove, MathOp::Identity, F};
  // Random numbers, clocks and input: what they return and write does not
  // depend on the program's values (the reverse sweep drops the adjoints
  // of what they overwrite).
  if (hasNoDerivative(Name) || nondeterministicLibraryOutputs(Name) ||
      isOpenMPWithoutDerivative(Name))
    return {CalleeKind::NoDerivative, MathOp::Identity, F};
  if (parallelSyncOf(Name) != ParallelSync::None)
    return {CalleeKind::ParallelSync, MathOp::Identity, F};
  return {CalleeKind::External, MathOp::Identity, F};
}

bool isAllocatedInside(const Value *Object) {
  if (isa<AllocaInst>(Object))
    return true;
  auto *Call = dyn_cast<CallBase>(Object);
  if (!Call)
    return false;
  if (nestedRuntimeCall(*Call) == NestedRuntime::TangentAlloc)
    return true;
  CalleeKind Kind = classifyCall(*Call).Kind;
  return Kind == CalleeKind::Alloc || Kind == CalleeKind::Calloc ||
         Kind == CalleeKind::AlignedAlloc;
}

/// Whether \p Target's address reaches the program other than as the
/// function a marker call differentiates (which names it, but does not
/// call it through a pointer, and is gone once lowered). Passed as one of
/// the marker's arguments (`__enzyme_autodiff(integrate, enzyme_const, f,
/// ...)`), it reaches the differentiated code as a pointer.
static bool addressEscapesMarkers(const Function &Target) {
  return any_of(Target.uses(), [](const Use &U) {
    auto *Call = dyn_cast<CallBase>(U.getUser());
    // A marker may be declared with several types (one per result type),
    // so the callee is not getCalledFunction().
    auto *Callee =
        Call ? dyn_cast<Function>(Call->getCalledOperand()->stripPointerCasts())
             : nullptr;
    return !Callee || !markerKind(*Callee) || !Call->isArgOperand(&U) ||
           Call->getArgOperandNo(&U) != 0;
  });
}

SmallVector<Function *, 4> indirectCallTargets(Module &M, FunctionType *FT,
                                               bool IncludeDeclarations) {
  SmallVector<Function *, 4> Targets;
  for (Function &F : M)
    if ((!F.isDeclaration() || (IncludeDeclarations && !F.isIntrinsic())) &&
        F.getFunctionType() == FT &&
        F.hasAddressTaken(nullptr, /*IgnoreCallbackUses=*/false,
                          /*IgnoreAssumeLikeCalls=*/true,
                          /*IgnoreLLVMUsed=*/true) &&
        !F.getName().contains(".capsule.") && addressEscapesMarkers(F))
      Targets.push_back(&F);
  return Targets;
}

} // namespace capsule
