// Interruptible execution: C++ classes with member functions (a running
// statistics accumulator with private state, const and non-const members, a
// static member function, operator overloads on a small matrix class, and
// a member function calling another object's members), driven through a
// plain wrapper function; the caller's arrays and the returned value must
// be identical after an interruption at any step (interrupt_check.h lists
// the checks).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

class Accumulator {
public:
  explicit Accumulator(double decay) : decay_(decay) {}
  void add(double x) {
    ++count_;
    mean_ += (x - mean_) / count_;
    ema_ = ema_ * decay_ + x * (1 - decay_);
    if (x > max_)
      max_ = x;
  }
  double mean() const { return mean_; }
  double ema() const { return ema_; }
  double max() const { return max_; }
  int count() const { return count_; }
  static double combine(const Accumulator &a, const Accumulator &b) {
    return a.mean_ * b.count_ + b.mean_ * a.count_ + a.ema_ - b.max_;
  }

private:
  double decay_;
  double mean_ = 0, ema_ = 0, max_ = -1e300;
  int count_ = 0;
};

class Mat2 {
public:
  Mat2(double a, double b, double c, double d) : m_{a, b, c, d} {}
  Mat2 operator*(const Mat2 &o) const {
    return Mat2(
        m_[0] * o.m_[0] + m_[1] * o.m_[2], m_[0] * o.m_[1] + m_[1] * o.m_[3],
        m_[2] * o.m_[0] + m_[3] * o.m_[2], m_[2] * o.m_[1] + m_[3] * o.m_[3]);
  }
  Mat2 &operator+=(const Mat2 &o) {
    for (int i = 0; i < 4; ++i)
      m_[i] += o.m_[i];
    return *this;
  }
  double trace() const { return m_[0] + m_[3]; }
  void feed(Accumulator &acc) const {
    for (double v : m_)
      acc.add(v);
  }
  void store(double *out) const {
    for (int i = 0; i < 4; ++i)
      out[i] = m_[i];
  }

private:
  double m_[4];
};

double run(const double *in, int n, double *out) {
  Accumulator fast(0.5), slow(0.9);
  Mat2 power(1, 0, 0, 1), sum(0, 0, 0, 0);
  Mat2 step(0.9, 0.2, -0.1, 0.95);
  for (int i = 0; i < n; ++i) {
    fast.add(in[i]);
    slow.add(in[i] * in[i]);
    power = power * step;
    sum += power;
    power.feed(slow);
  }
  sum.store(out);
  out[4] = fast.mean();
  out[5] = slow.ema();
  out[6] = fast.max();
  out[7] = slow.count();
  return Accumulator::combine(fast, slow) + sum.trace();
}

static double in[20], out[8];
static void reset(void) {
  for (int i = 0; i < 20; ++i)
    in[i] = (i % 7) * 0.5 - 1.25;
  memset(out, 0, sizeof out);
}
DEFINE_RUNNERS(double, run, in, 20, out)
static const struct region regions[] = {{in, sizeof in}, {out, sizeof out}};

int main() {
  struct program p = {
      "cxx-class-member", sizeof(double), reset, plain_run, primops_run,
      interrupt_run,      regions,        2,     4096};
  return check_interruptible(&p) != 0;
}
