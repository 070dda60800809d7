#include <cmath>
#include "ops.h"

namespace {
struct Sin : Op {
  double apply(double x) const override { return std::sin(x); }
};
struct Square : Op {
  double apply(double x) const override { return x * poly(x) - 3 * x * x; }
};
} // namespace

Op *make_op(int k) {
  if (k == 0)
    return new Sin;
  return new Square;
}

double run(const Op *op, double x) { return op->apply(x); }
