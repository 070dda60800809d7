// Interruptible execution: C++ virtual functions (an abstract base with
// pure virtual members, three derived classes, one overriding a virtual
// that calls back into another virtual, a virtual destructor), objects
// created with new and on the stack and used through base pointers and
// references; the caller's array and the returned value must be identical
// after an interruption at any step (interrupt_check.h lists the checks).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"

struct Shape {
  virtual ~Shape() {}
  virtual double area() const = 0;
  virtual double perimeter() const = 0;
  virtual void scale(double f) = 0;
  virtual double score() const { return area() * 2 + perimeter(); }
};

struct Circle : Shape {
  double r;
  explicit Circle(double r) : r(r) {}
  double area() const override { return 3.141592653589793 * r * r; }
  double perimeter() const override { return 2 * 3.141592653589793 * r; }
  void scale(double f) override { r *= f; }
};

struct Rect : Shape {
  double w, h;
  Rect(double w, double h) : w(w), h(h) {}
  double area() const override { return w * h; }
  double perimeter() const override { return 2 * (w + h); }
  void scale(double f) override {
    w *= f;
    h *= f;
  }
};

struct Square : Rect {
  explicit Square(double s) : Rect(s, s) {}
  double score() const override { return Rect::score() - area(); }
  void scale(double f) override { Rect::scale(f * 1.01); }
};

static double total(const Shape &s) { return s.score() + s.area(); }

double shapes(const double *sizes, int n, double *out) {
  Shape *all[9];
  for (int i = 0; i < n; ++i) {
    switch (i % 3) {
    case 0:
      all[i] = new Circle(sizes[i]);
      break;
    case 1:
      all[i] = new Rect(sizes[i], sizes[i] + 1);
      break;
    default:
      all[i] = new Square(sizes[i]);
      break;
    }
  }
  Square local(0.5);
  double s = 0;
  for (int round = 0; round < 3; ++round)
    for (int i = 0; i < n; ++i) {
      all[i]->scale(round == 1 ? 0.5 : 1.25);
      out[i] = total(*all[i]);
      s += out[i] + local.score();
      local.scale(1.0 + 0.01 * i);
    }
  for (int i = 0; i < n; ++i)
    delete all[i];
  return s;
}

static double sizes[9], out[9];
static void reset(void) {
  for (int i = 0; i < 9; ++i) {
    sizes[i] = 0.5 + i * 0.3;
    out[i] = 0;
  }
}
DEFINE_RUNNERS(double, shapes, sizes, 9, out)
static const struct region regions[] = {{sizes, sizeof sizes},
                                        {out, sizeof out}};

int main() {
  struct program p = {"cxx-virtual", sizeof(double), reset,   plain_run,
                      primops_run,   interrupt_run,  regions, 2,
                      8192};
  return check_interruptible(&p) != 0;
}
