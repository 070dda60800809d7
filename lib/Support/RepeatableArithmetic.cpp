//===- RepeatableArithmetic.cpp - The same bits in every copy -------------===//
#include "Support/RepeatableArithmetic.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace capsule {

void makeArithmeticRepeatable(Function &F) {
  for (Instruction &I : instructions(F))
    if (isa<FPMathOperator>(I))
      I.copyFastMathFlags(FastMathFlags());
  // An absent attribute leaves code generation with the compile's own
  // options, which -ffast-math set: each must say "false".
  for (StringRef Attr : {"unsafe-fp-math", "no-infs-fp-math", "no-nans-fp-math",
                         "no-signed-zeros-fp-math", "approx-func-fp-math"})
    F.addFnAttr(Attr, "false");
}

} // namespace capsule
