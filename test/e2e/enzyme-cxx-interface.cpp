// Enzyme's C++ interface <enzyme/enzyme>: enzyme::autodiff in Reverse, ReverseWithPrimal and Forward mode with Active, Duplicated, DuplicatedNoNeed and Const arguments (values, pointers, references), explicit and default result activities, functions, function pointers, lambdas with captures (and one converted with + in a marker call whose other operands are constants: at -O0 its conversion was left as the function operand) and an overloaded function object; classes by value; nested (a Hessian-vector product, the derivative of a lambda that differentiates); results read with enzyme::get and structured bindings, and the template marker called directly. Against closed forms and finite differences, at -O0 to -O3 and checkpointed.
// RUN: %clangxx -std=c++17 -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -std=c++17 -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -std=c++17 -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -std=c++20 -O3 -g %capsule_cflags %s -o %t3 %capsule_ldflags && %t3
// RUN: %check_checkpointed %clangxx %s %t.ck -std=c++17 -O2 -g %capsule_cflags -- %capsule_ldflags
#include <enzyme/enzyme>

#include <cmath>
#include <type_traits>
#include <vector>

#include "check.h"

// A function whose only marker call has no operand in memory.
static double lambdaConvertedInMarkerCall() {
  return __enzyme_autodiff<double>(
      (void *)+[](double a) { return a * std::exp(a); }, 0.5);
}

static double product_sin(double x, double y) { return x * y + std::sin(x); }
static double square(double x) { return x * x; }

// A weighted sum of squares over an array, with a constant length.
static double weighted(const double *v, int n, double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += w * v[i] * v[i] * (i + 1);
  return s;
}

static double vector_energy(const std::vector<double> &v) {
  double e = 0.0;
  for (size_t i = 0; i + 1 < v.size(); i++)
    e += std::cos(v[i]) * v[i + 1];
  return e;
}

static double scaled_ref(const double &x, double k) { return k * x * x * x; }

// Writes y = A x (2x2) and returns its first entry squared.
static double mat_vec(const double *a, const double *x, double *y) {
  y[0] = a[0] * x[0] + a[1] * x[1];
  y[1] = a[2] * x[0] + a[3] * x[1];
  return y[0] * y[0];
}

static void rotate(double angle, double *p) {
  double c = std::cos(angle), s = std::sin(angle);
  double x = p[0], y = p[1];
  p[0] = c * x - s * y;
  p[1] = s * x + c * y;
}

static float cube_f(float x) { return x * x * x; }

// Classes by value: split into registers (two doubles) or passed in memory.
struct Params {
  double a, b;
};
struct Params3 {
  double a, b, c;
};
static double quadratic(Params p, double x) { return p.a * x * x + p.b * x; }
static double quadratic3(Params3 p, double x) {
  return p.a * x * x + p.b * x + p.c;
}

struct Overloaded {
  double operator()(double x) const { return 10.0 * x * x; }
  float operator()(float x) const { return 2.0f * x; }
};

static void reverse_scalars() {
  auto d = enzyme::autodiff<enzyme::Reverse>(product_sin, enzyme::Active(1.5),
                                             enzyme::Active(2.0));
  check_cf("reverse d/dx", enzyme::get<0>(enzyme::get<0>(d)),
           2.0 + std::cos(1.5));
  check_cf("reverse d/dy", enzyme::get<1>(enzyme::get<0>(d)), 1.5);

  // Enzyme's spelled-out types.
  enzyme::Active<double> x1{3.1};
  enzyme::tuple<enzyme::tuple<double>> dsq =
      enzyme::autodiff<enzyme::Reverse, enzyme::Active<double>>(square, x1);
  check_cf("explicit result activity", enzyme::get<0>(enzyme::get<0>(dsq)),
           6.2);
  enzyme::tuple<enzyme::tuple<double>, double> withPrimal =
      enzyme::autodiff<enzyme::ReverseWithPrimal>(square, x1);
  check_cf("with primal: derivative",
           enzyme::get<0>(enzyme::get<0>(withPrimal)), 6.2);
  check_cf("with primal: result", enzyme::get<1>(withPrimal), 3.1 * 3.1);

  auto both = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      product_sin, enzyme::Active(0.7), enzyme::Active(-1.25));
  check_cf("with primal, two: d/dx", enzyme::get<0>(enzyme::get<0>(both)),
           -1.25 + std::cos(0.7));
  check_cf("with primal, two: d/dy", enzyme::get<1>(enzyme::get<0>(both)),
           0.7);
  check_cf("with primal, two: result", enzyme::get<1>(both),
           product_sin(0.7, -1.25));

  // A constant result has no adjoint to seed: every derivative is zero.
  auto none = enzyme::autodiff<enzyme::Reverse, enzyme::Const<double>>(
      square, enzyme::Active(3.0));
  check_cf("const result", enzyme::get<0>(enzyme::get<0>(none)), 0.0);

  // Structured bindings over the per-argument tuple.
  auto [dx, dy] = enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(
      product_sin, enzyme::Active(0.3), enzyme::Active(4.0)));
  check_cf("bound d/dx", dx, 4.0 + std::cos(0.3));
  check_cf("bound d/dy", dy, 0.3);

  auto df = enzyme::autodiff<enzyme::Reverse>(cube_f, enzyme::Active(1.5f));
  check_close("float", enzyme::get<0>(enzyme::get<0>(df)), 3 * 1.5 * 1.5,
              CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
}

static double weighted_of(double *v, void *) {
  return weighted(v, 4, 0.5);
}

static void reverse_memory() {
  double v[4] = {1.0, -2.0, 0.5, 3.0};
  double dv[4] = {1.0, 1.0, 1.0, 1.0}; // adjoints accumulate (+=)
  auto d = enzyme::autodiff<enzyme::Reverse>(
      weighted, enzyme::Duplicated<const double *>(v, dv), enzyme::Const(4),
      enzyme::Active(0.5));
  double g[4];
  for (int i = 0; i < 4; i++)
    g[i] = dv[i] - 1.0;
  check_grad_fd("duplicated pointer", g, weighted_of, nullptr, v, 4);
  // One entry per argument: nodiff for the pointer and the constant, the
  // adjoint of the active weight in third place.
  using Entries = std::remove_reference_t<decltype(enzyme::get<0>(d))>;
  static_assert(std::is_same_v<Entries, enzyme::tuple<enzyme::nodiff,
                                                      enzyme::nodiff, double>>);
  check_cf("active weight", enzyme::get<2>(enzyme::get<0>(d)),
           weighted(v, 4, 1.0));

  double dv2[4] = {0, 0, 0, 0};
  enzyme::autodiff<enzyme::Reverse>(
      weighted, enzyme::DuplicatedNoNeed<const double *>{v, dv2},
      enzyme::Const{4}, enzyme::Const{0.5});
  check_grad_fd("duplicated, no need", dv2, weighted_of, nullptr, v, 4);

  // References: a std::vector and a double.
  std::vector<double> w{0.3, -1.0, 2.0, 0.25}, dw(4, 0.0);
  enzyme::autodiff<enzyme::Reverse>(
      vector_energy, enzyme::Duplicated<const std::vector<double> &>(w, dw));
  for (size_t i = 0; i < 4; i++) {
    double want = (i + 1 < 4 ? -std::sin(w[i]) * w[i + 1] : 0.0) +
                  (i > 0 ? std::cos(w[i - 1]) : 0.0);
    check_cf("vector by reference", dw[i], want);
  }
  double r = 1.2, dr = 0.0;
  auto withPrimal = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      scaled_ref, enzyme::Duplicated<const double &>(r, dr),
      enzyme::Active(2.0));
  check_cf("reference", dr, 3 * 2.0 * r * r);
  check_cf("reference: active k", enzyme::get<1>(enzyme::get<0>(withPrimal)),
           r * r * r);
  check_cf("reference: result", enzyme::get<1>(withPrimal),
           scaled_ref(r, 2.0));

  // No active argument, result wanted: the result alone comes back.
  double a[4] = {1, 2, 3, 4}, da[4] = {0, 0, 0, 0};
  double x[2] = {0.5, -1.0}, dx[2] = {0, 0}, y[2], dy[2] = {0, 0};
  auto res = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      mat_vec, enzyme::Const<const double *>(a),
      enzyme::Duplicated<const double *>(x, dx), enzyme::Duplicated(y, dy));
  double y0 = a[0] * x[0] + a[1] * x[1];
  check_cf("no active argument: result", enzyme::get<1>(res), y0 * y0);
  check_cf("no active argument: d/dx0", dx[0], 2 * y0 * a[0]);
  check_cf("no active argument: d/dx1", dx[1], 2 * y0 * a[1]);
  (void)da;
}

static void callables() {
  double k = 2.5;
  auto lam = [&](double x) { return k * x * x + std::exp(0.1 * x); };
  auto d = enzyme::autodiff<enzyme::Reverse>(lam, enzyme::Active(2.0));
  check_cf("lambda with a capture", enzyme::get<0>(enzyme::get<0>(d)),
           2 * k * 2.0 + 0.1 * std::exp(0.2));

  auto fd = enzyme::autodiff<enzyme::Forward>(lam, enzyme::Duplicated(2.0, 1.0));
  check_cf("lambda, forward", enzyme::get<0>(fd),
           2 * k * 2.0 + 0.1 * std::exp(0.2));

  double (*fp)(double) = square;
  auto dp = enzyme::autodiff<enzyme::Reverse>(fp, enzyme::Active(-4.0));
  check_cf("function pointer", enzyme::get<0>(enzyme::get<0>(dp)), -8.0);

  auto plus = +[](double x) { return x * x * x; };
  auto dplus = enzyme::autodiff<enzyme::Reverse>(plus, enzyme::Active(2.0));
  check_cf("captureless lambda as pointer",
           enzyme::get<0>(enzyme::get<0>(dplus)), 12.0);
  // The same lambda converted in the marker call itself, whose other
  // operands are constants: at -O0 the conversion operator's call was left
  // as the function operand ("the first argument must be the function").
  check_cf("captureless lambda converted in a marker call",
           lambdaConvertedInMarkerCall(), 1.5 * std::exp(0.5));

  auto od = enzyme::autodiff<enzyme::Reverse>(Overloaded{},
                                              enzyme::Active<double>(3.1));
  check_cf("overloaded object, double", enzyme::get<0>(enzyme::get<0>(od)),
           62.0);
  auto of = enzyme::autodiff<enzyme::Reverse>(Overloaded{},
                                              enzyme::Active<float>(3.1f));
  check_close("overloaded object, float", enzyme::get<0>(enzyme::get<0>(of)),
              2.0, CHECK_FLOAT_RTOL, CHECK_FLOAT_ATOL);
}

static void classes_by_value() {
  auto d = enzyme::autodiff<enzyme::Reverse>(
      quadratic, enzyme::Const(Params{1.5, -2.0}), enzyme::Active(3.0));
  check_cf("const class in registers", enzyme::get<1>(enzyme::get<0>(d)),
           2 * 1.5 * 3.0 - 2.0);
  auto d3 = enzyme::autodiff<enzyme::Reverse>(
      quadratic3, enzyme::Const(Params3{1.5, -2.0, 4.0}), enzyme::Active(3.0));
  check_cf("const class in memory", enzyme::get<1>(enzyme::get<0>(d3)),
           2 * 1.5 * 3.0 - 2.0);
  // Forward mode: the class's tangent is a class too.
  auto t = enzyme::autodiff<enzyme::Forward>(
      quadratic, enzyme::Duplicated(Params{1.5, -2.0}, Params{1.0, 0.5}),
      enzyme::Duplicated(3.0, 0.0));
  check_cf("class tangent", enzyme::get<0>(t), 3.0 * 3.0 * 1.0 + 3.0 * 0.5);
  auto lam = [](Params p, double x) { return p.a * std::exp(p.b * x); };
  auto dl = enzyme::autodiff<enzyme::Reverse>(
      lam, enzyme::Const(Params{2.0, 0.5}), enzyme::Active(1.0));
  check_cf("lambda taking a class", enzyme::get<1>(enzyme::get<0>(dl)),
           2.0 * 0.5 * std::exp(0.5));
}

static void forward() {
  // Default result activity: the tangent alone.
  enzyme::tuple<double> t = enzyme::autodiff<enzyme::Forward>(
      product_sin, enzyme::Duplicated(1.5, 1.0), enzyme::Duplicated(2.0, 0.5));
  check_cf("forward tangent", enzyme::get<0>(t),
           (2.0 + std::cos(1.5)) * 1.0 + 1.5 * 0.5);

  enzyme::tuple<double, double> both =
      enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(
          square, enzyme::Duplicated<double>(3.1, 1.0));
  check_cf("forward: result", enzyme::get<0>(both), 3.1 * 3.1);
  check_cf("forward: tangent", enzyme::get<1>(both), 6.2);

  enzyme::tuple<double> noNeed =
      enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<double>>(
          square, enzyme::Duplicated<double>(3.1, 1.0));
  check_cf("forward, no need", enzyme::get<0>(noNeed), 6.2);

  // A constant result: its value comes back, the tangents of what the
  // function writes go to the shadows (overwritten).
  double a[4] = {1, 2, 3, 4}, x[2] = {0.5, -1.0}, dx[2] = {1.0, 0.0};
  double y[2], dy[2] = {7, 7};
  auto prim = enzyme::autodiff<enzyme::Forward, enzyme::Const<double>>(
      mat_vec, enzyme::Const<const double *>(a),
      enzyme::Duplicated<const double *>(x, dx), enzyme::Duplicated(y, dy));
  double y0 = a[0] * x[0] + a[1] * x[1];
  check_cf("forward, const result: value", enzyme::get<0>(prim), y0 * y0);
  check_cf("forward, const result: y0", y[0], y0);
  check_cf("forward, const result: dy0", dy[0], a[0]);
  check_cf("forward, const result: dy1", dy[1], a[2]);

  // A function without a result.
  double p[2] = {1.0, 2.0}, dp[2] = {0.0, 0.0};
  enzyme::tuple<> nothing = enzyme::autodiff<enzyme::Forward>(
      rotate, enzyme::Duplicated(0.3, 1.0), enzyme::Duplicated<double *>(p, dp));
  (void)nothing;
  check_cf("forward, void: x", dp[0], -std::sin(0.3) * 1.0 - std::cos(0.3) * 2.0);
  check_cf("forward, void: y", dp[1], std::cos(0.3) * 1.0 - std::sin(0.3) * 2.0);

  // Forward through a reference, against reverse mode.
  double r = 0.8, dr = 1.0;
  auto tr = enzyme::autodiff<enzyme::Forward>(
      scaled_ref, enzyme::Duplicated<const double &>(r, dr),
      enzyme::Const(3.0));
  check_cf("forward through a reference", enzyme::get<0>(tr), 9.0 * r * r);
}

// A gradient through the interface, differentiated again in forward mode
// (a Hessian-vector product), and a derivative of a lambda that itself
// differentiates.
static double energy(const double *x) {
  return x[0] * x[0] * x[1] + std::sin(x[1]);
}
static void energy_gradient(const double *x, double *g) {
  g[0] = g[1] = 0.0;
  enzyme::autodiff<enzyme::Reverse>(energy,
                                    enzyme::Duplicated<const double *>(x, g));
}

static void nesting() {
  double x[2] = {1.5, 0.5}, v[2] = {0.25, -1.0}, g[2], hv[2] = {0, 0};
  enzyme::autodiff<enzyme::Forward>(energy_gradient,
                                    enzyme::Duplicated<const double *>(x, v),
                                    enzyme::Duplicated<double *>(g, hv));
  check_cf("nested: gradient x", g[0], 2 * x[0] * x[1]);
  check_cf("nested: gradient y", g[1], x[0] * x[0] + std::cos(x[1]));
  check_cf("nested: Hv x", hv[0], 2 * x[1] * v[0] + 2 * x[0] * v[1]);
  check_cf("nested: Hv y", hv[1], 2 * x[0] * v[0] - std::sin(x[1]) * v[1]);

  auto slope = [](double y) {
    auto d = enzyme::autodiff<enzyme::Reverse>(
        +[](double t) { return t * t * t; }, enzyme::Active(y));
    return enzyme::get<0>(enzyme::get<0>(d));
  };
  auto second =
      enzyme::autodiff<enzyme::Forward>(slope, enzyme::Duplicated(2.0, 1.0));
  check_cf("nested: second derivative", enzyme::get<0>(second), 12.0);
}

struct Pair {
  double x, y;
};

static void template_markers() {
  // Enzyme's header declares the markers as templates; called directly.
  auto [z1, z2] = __enzyme_autodiff<Pair>((void *)product_sin, enzyme_out, 3.1,
                                          enzyme_out, 2.7);
  check_cf("template marker: d/dx", z1, 2.7 + std::cos(3.1));
  check_cf("template marker: d/dy", z2, 3.1);
  double t = __enzyme_fwddiff<double>((void *)square, enzyme_dup, 2.0, 1.0);
  check_cf("template forward marker", t, 4.0);
}

int main() {
  reverse_scalars();
  reverse_memory();
  callables();
  classes_by_value();
  forward();
  nesting();
  template_markers();
  static_assert(enzyme::tuple_size_v<enzyme::tuple<int, double>> == 2);
  double r = 0.25, dr = 0;
  check_cf("primal_call", enzyme::primal_call(scaled_ref,
                                              enzyme::Duplicated<const double &>(r, dr),
                                              enzyme::Const(2.0)),
           scaled_ref(r, 2.0));
  return check_report();
}
