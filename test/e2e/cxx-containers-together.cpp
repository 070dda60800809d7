// Containers and algorithms of ordinary C++ in several functions of one
// file: a vector of small structs grown by push_back, a vector of vectors
// and an array of arrays, unordered_map and map keyed by strings, and
// partial_sum, adjacent_difference, priority_queue, stack, copy, reverse
// and rotate over doubles, and a vector of structs holding a string beside
// their doubles, grown and sorted. Gradients and tangents against central
// differences at -O0 and -O2, as C++20 too, and checkpointed.
//
// Found by writing such a file: at -O1 and above, the vector of structs'
// reallocation copy was refused ("cannot tell whether this copy moves
// floating-point data") as soon as another function of the file held a
// vector of vectors: the analysis of what a copy moves followed the null
// pointer a phi starts an empty vector's pointers from into every other
// null of the module, where it met vectors of pointers. The strings' hash
// (std::_Hash_bytes) was refused as a call without a derivative. As C++17
// at -O1 and above, a vector of structs holding a std::string beside their
// doubles was refused when grown or sorted: the string's move, inlined
// from the body libstdc++'s explicit instantiation gives for inlining,
// copies its buffer as 64-bit integers that nothing types; those bodies
// are now the file's own, kept out of line (Support/OutOfLineLibraryCalls).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -std=c++20 -O0 -g %capsule_cflags %s -o %t20.0 %capsule_ldflags && %t20.0
// RUN: %clangxx -std=c++20 -O2 %capsule_cflags %s -o %t20.2 %capsule_ldflags && %t20.2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <queue>
#include <stack>
#include <string>
#include <unordered_map>
#include <vector>

#include "include/check.h"

constexpr int N = 6;

struct Vec3 {
  double x, y, z;
};
static Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
static Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
static double dot(const Vec3 &a, const Vec3 &b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
static Vec3 cross(const Vec3 &a, const Vec3 &b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/* A vector of vectors and an array of arrays. */
static double nested(const double *x) {
  std::vector<std::vector<double>> m(N, std::vector<double>(N));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      m[i][j] = x[i] * x[j] + (i == j);
  std::array<std::array<double, 3>, 3> a{};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      a[i][j] = m[2 * i][j + 1];
  double s = 0;
  for (auto &row : m)
    s += std::accumulate(row.begin(), row.end(), 0.0) * row[0];
  for (auto &row : a)
    for (double v : row)
      s += v * v;
  return s;
}
CHECK_FD_OF(nested)

/* A vector of structs grown one element at a time (its reallocations copy
 * the structs), and arithmetic on them by value. */
static double points(const double *x) {
  std::vector<Vec3> ps;
  for (int i = 0; i + 2 < N; i++)
    ps.push_back({x[i], x[i + 1], x[i + 2]});
  Vec3 acc{0, 0, 0};
  for (size_t i = 0; i + 1 < ps.size(); i++)
    acc = acc + 0.5 * cross(ps[i], ps[i + 1]);
  return dot(acc, acc) + std::sqrt(dot(ps[0], ps[0]));
}
CHECK_FD_OF(points)

/* Parameters by name. */
static double named(const double *x) {
  static const char *const names[N] = {"alpha", "beta",    "gamma",
                                       "delta", "epsilon", "zeta"};
  std::unordered_map<std::string, double> params;
  std::map<std::string, double> squares;
  for (int i = 0; i < N; i++) {
    params[names[i]] = x[i];
    squares[std::string(names[i]) + "^2"] = x[i] * x[i];
  }
  double s = params["alpha"] * params.at("beta") + squares.begin()->second;
  for (auto &[name, value] : squares)
    s += value * name.size();
  if (params.count("gamma"))
    s += std::exp(params["gamma"]);
  return s;
}
CHECK_FD_OF(named)

/* Numeric algorithms and container adaptors. */
static double algorithms(const double *x) {
  std::vector<double> v(x, x + N), p(N), d(N);
  std::partial_sum(v.begin(), v.end(), p.begin());
  std::adjacent_difference(p.begin(), p.end(), d.begin(),
                           [](double a, double b) { return a * b; });
  std::priority_queue<double> largest(v.begin(), v.end());
  std::stack<double> order;
  while (!largest.empty()) {
    order.push(largest.top() * 2);
    largest.pop();
  }
  double s = 0;
  while (!order.empty()) {
    s = s * 0.5 + order.top();
    order.pop();
  }
  double lo = *std::min_element(d.begin(), d.end());
  double hi = *std::max_element(d.begin(), d.end());
  std::vector<double> w(N);
  std::fill(w.begin(), w.end(), x[0]);
  std::copy(v.begin(), v.begin() + N / 2, w.begin() + 1);
  std::reverse(w.begin(), w.end());
  std::rotate(w.begin(), w.begin() + 2, w.end());
  return s + lo * hi + std::inner_product(w.begin(), w.end(), p.begin(), 0.0);
}
CHECK_FD_OF(algorithms)

/* Structs holding a name beside their doubles, moved by push_back's
 * reallocations and by std::sort: the strings' moves copy their buffers
 * as 64-bit integers. */
struct Particle {
  double pos[2], vel[2];
  std::string name;
};
static double particles(const double *x) {
  std::vector<Particle> ps;
  for (int i = 0; i < N; i++)
    ps.push_back({{x[i], -x[i]}, {0.1 * i, x[(i + 1) % N]},
                  "particle " + std::to_string(i)});
  for (int step = 0; step < 5; step++)
    for (auto &p : ps)
      for (int d = 0; d < 2; d++) {
        p.vel[d] -= 0.01 * p.pos[d];
        p.pos[d] += 0.1 * p.vel[d];
      }
  std::sort(ps.begin(), ps.end(), [](const Particle &a, const Particle &b) {
    return a.pos[0] < b.pos[0];
  });
  double e = 0;
  for (size_t i = 0; i < ps.size(); i++)
    e += ps[i].pos[0] * ps[i].pos[0] * (i + 1) + ps[i].vel[1] * ps[i].name.size();
  return e;
}
CHECK_FD_OF(particles)

int main() {
  double x[N] = {0.3, -0.47, 0.64, -0.81, 0.98, -0.25};
  CHECK_GRADIENT_AND_TANGENTS(nested, x, N);
  CHECK_GRADIENT_AND_TANGENTS(points, x, N);
  CHECK_GRADIENT_AND_TANGENTS(named, x, N);
  CHECK_GRADIENT_AND_TANGENTS(algorithms, x, N);
  CHECK_GRADIENT_AND_TANGENTS(particles, x, N);
  return check_report();
}
