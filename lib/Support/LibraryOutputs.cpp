//===- LibraryOutputs.cpp - What non-deterministic library calls write ----===//
#include "Support/LibraryOutputs.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace capsule {

std::optional<SmallVector<LibraryOutput, 2>>
nondeterministicLibraryOutputs(StringRef Name) {
  using Outputs = SmallVector<LibraryOutput, 2>;
  return StringSwitch<std::optional<Outputs>>(Name)
      // Pseudo-random numbers whose state is hidden in the C library.
      .Cases("rand", "random", "drand48", "lrand48", "mrand48", Outputs{})
      .Cases("erand48", "nrand48", "jrand48", Outputs{{0, 6}})
      .Case("rand_r", Outputs{{0, 4}})
      // std::random_device.
      .Case("_ZNSt13random_device9_M_getvalEv", Outputs{})
      // Clocks.
      .Case("clock", Outputs{})
      .Case("time", Outputs{{0, 8}})
      .Case("gettimeofday", Outputs{{0, 16}, {1, 8}})
      .Case("clock_gettime", Outputs{{1, 16}})
      .Cases("_ZNSt6chrono3_V212system_clock3nowEv",
             "_ZNSt6chrono3_V212steady_clock3nowEv", Outputs{})
      // Input, which a second read would consume further.
      .Cases("getchar", "getc", "fgetc", Outputs{})
      .Case("fread", Outputs{{0, 0, 1}})
      .Default(std::nullopt);
}

Value *writtenBytes(IRBuilder<> &B, const LibraryOutput &O,
                    function_ref<Value *(unsigned)> Arg, Value *Result) {
  if (!O.PerResultUnit)
    return B.getInt64(O.Bytes);
  Value *Unit = B.CreateZExtOrTrunc(Arg(*O.PerResultUnit), B.getInt64Ty());
  return B.CreateMul(B.CreateZExtOrTrunc(Result, B.getInt64Ty()), Unit);
}

} // namespace capsule
