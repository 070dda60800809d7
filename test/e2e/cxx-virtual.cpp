// C++ virtual member functions: dispatch through the vtable (an indirect call) on objects chosen by a const int array.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

struct Shape {
  virtual ~Shape() {}
  virtual double area(const double *p) const = 0;
};
struct Circle : Shape {
  double area(const double *p) const override {
    return M_PI * p[0] * p[0] + 0.1 * p[1];
  }
};
struct Rect : Shape {
  double area(const double *p) const override { return p[0] * p[1]; }
};
struct Ellipse : Shape {
  double scale;
  explicit Ellipse(double s) : scale(s) {}
  double area(const double *p) const override {
    return scale * M_PI * p[0] * p[1] * (1.0 + 0.1 * std::sin(p[2]));
  }
};

double total(const double *p, const int *kinds, int n) {
  Circle c;
  Rect r;
  Ellipse e(0.5);
  const Shape *shapes[3] = {&c, &r, &e};
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += shapes[kinds[i]]->area(p + 3 * i) * (1.0 + p[3 * i + 2]);
  return s * s * 0.05;
}

enum { N = 4 };
static const int KINDS[N] = {2, 0, 1, 2};
static double p_fd(double *p, void *) { return total(p, KINDS, N); }

int main() {
  double p[3 * N] = {0.5, 1.2, 0.3, 0.8, 0.0, -0.2, 1.1, 0.6, 0.4, 0.7, 0.9, -0.5};
  double dp[3 * N] = {0};
  __capsule_autodiff<void>((void *)total, capsule_dup, p, dp, capsule_const,
                           KINDS, capsule_const, (int)N);
  check_grad_fd("dp", dp, p_fd, nullptr, p, 3 * N);
  return check_report();
}
