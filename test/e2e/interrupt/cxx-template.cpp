// Interruptible execution: C++ templates (function templates instantiated
// for int, long and double, a class template for a fixed-capacity stack
// with a non-type parameter, a recursive variadic template summing its
// arguments, and a template taking a functor type), called from a plain
// wrapper; the caller's arrays and the returned checksum must be identical
// after an interruption at any step (interrupt_check.h lists the checks).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

template <typename T> T dot(const T *a, const T *b, int n) {
  T s = T();
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

template <typename T, int N> class FixedStack {
public:
  bool push(T v) {
    if (size_ == N)
      return false;
    items_[size_++] = v;
    return true;
  }
  T pop() { return items_[--size_]; }
  bool empty() const { return size_ == 0; }
  int size() const { return size_; }

private:
  T items_[N];
  int size_ = 0;
};

template <typename T> T sum_all(T v) { return v; }
template <typename T, typename... Rest> T sum_all(T v, Rest... rest) {
  return v + sum_all<T>(rest...);
}

struct Square {
  template <typename T> T operator()(T x) const { return x * x; }
};
struct Negate {
  template <typename T> T operator()(T x) const { return -x; }
};

template <typename F, typename T> void transform(T *a, int n, F f) {
  for (int i = 0; i < n; ++i)
    a[i] = f(a[i]);
}

long templates(int *ia, long *la, double *da, int n) {
  int di = dot(ia, ia, n);
  long dl = dot(la, la, n);
  double dd = dot(da, da, n);
  FixedStack<long, 8> st;
  for (int i = 0; i < n; ++i)
    if (!st.push(la[i] + ia[i]))
      break;
  long popped = 0;
  while (!st.empty())
    popped = popped * 3 + st.pop();
  transform(ia, n, Square());
  transform(la, n, Negate());
  transform(da, n, Square());
  long v = sum_all<long>(di, dl, (long)dd, popped, 7L);
  return v + sum_all(1.5, da[0], da[n - 1]) * 10;
}

static int ia[12];
static long la[12];
static double da[12];
static void reset(void) {
  for (int i = 0; i < 12; ++i) {
    ia[i] = i - 5;
    la[i] = (long)i * 1000 + 3;
    da[i] = i * 0.25 - 1;
  }
}
DEFINE_RUNNERS(long, templates, ia, la, da, 12)
static const struct region regions[] = {
    {ia, sizeof ia}, {la, sizeof la}, {da, sizeof da}};

int main() {
  struct program p = {
      "cxx-template", sizeof(long), reset, plain_run, primops_run,
      interrupt_run,  regions,      3,     4096};
  return check_interruptible(&p) != 0;
}
