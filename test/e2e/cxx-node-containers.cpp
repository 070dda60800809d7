// Node-based containers of active doubles: std::map, std::multimap and
// std::set (red-black trees linked and walked by libstdc++.so's
// _Rb_tree_* functions) and std::list (its _List_node_base links), whose
// bodies Capsule links into the module (Support/LibraryBodies.h).
// Inserts, lookups, erasures, walks both ways, splices, sorting and
// reversal, copies of maps and multimaps (with -g, as every build here
// is), in reverse and forward mode, plain and checkpointed; and the shape
// of a tree after many insertions and erasures.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %clangxx -O3 -mavx -g %capsule_cflags %s -o %t3 %capsule_ldflags && %t3
// RUN: %clangxx -O2 -g -flto %capsule_cflags -c %s -o %t.lto.o
// RUN: %clangxx -O2 -flto %t.lto.o $(%capsule_config --lto-ldflags --ldflags) -o %t.lto && %t.lto
// RUN: %check_checkpointed %clangxx %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clangxx %s %t.ck2 -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include <list>
#include <map>
#include <set>

#include "include/check.h"

static const int N = 12;

// The key order of the map differs from the order of x; erasing and
// re-inserting rebalances the tree; walks both ways weigh entries by their
// position, so a wrong link changes the value.
static double trees(const double *x) {
  std::map<int, double> m;
  for (int i = 0; i < N; ++i)
    m[(i * 7) % N] += x[i] * x[i];
  m[3] += std::sin(x[0]);
  for (int k = 0; k < N; k += 3)
    m.erase(k);
  m[100] = x[5] * x[6];
  m.insert({-4, std::exp(x[1])});
  double s = 0, w = 1;
  for (auto &kv : m) {
    s += w * kv.second;
    w += 0.5;
  }
  for (auto it = m.rbegin(); it != m.rend(); ++it)
    s += std::cos(it->second) * it->first;
  auto lo = m.lower_bound(5);
  s += lo->second * lo->first;
  std::map<int, double> squares;
  for (auto &kv : m)
    squares.emplace_hint(squares.end(), kv.first, kv.second * kv.second);
  s += squares.find(100)->second + squares.at(-4);
  // A copy of the tree: libstdc++ copies each node's pair as untyped bytes,
  // typed by the debug type of the pair it copies from (was refused).
  std::map<int, double> copy = m;
  copy[2] += x[3];
  for (auto &kv : copy)
    s += 0.1 * kv.second * kv.second;

  std::multimap<int, double> mm;
  for (int i = 0; i < N; ++i)
    mm.emplace(i % 3, x[i]);
  auto range = mm.equal_range(1);
  for (auto it = range.first; it != range.second; ++it)
    s += it->second * it->second * 0.25;
  std::multimap<int, double> mmCopy(mm);
  for (auto &kv : mmCopy)
    s += kv.first * std::sin(kv.second);

  std::set<double> sorted(x, x + N);
  double rank = 1;
  for (double v : sorted)
    s += rank++ * v;
  sorted.erase(sorted.begin());
  s += *sorted.begin() * *sorted.rbegin();
  return s;
}

static double lists(const double *x) {
  std::list<double> a, b;
  for (int i = 0; i < N; ++i)
    (i % 2 ? a : b).push_back(x[i] * (i + 1));
  a.push_front(x[3] * x[4]);
  a.reverse();
  auto mid = a.begin();
  std::advance(mid, 2);
  a.splice(mid, b, b.begin(), std::next(b.begin(), 3));
  a.erase(std::next(a.begin()));
  a.sort();
  b.swap(a);
  double s = 0, w = 1;
  for (double v : b) {
    s += w * v;
    w += 1;
  }
  for (auto it = a.rbegin(); it != a.rend(); ++it)
    s += std::sin(*it) * w++;
  return s;
}

// Many insertions and erasures in an order of their own, for every
// rebalancing case; the sum weighs values by their rank.
static void churn(std::map<int, double> &m, const double *x) {
  unsigned state = 12345;
  for (int step = 0; step < 600; ++step) {
    state = state * 1103515245u + 12345u;
    int key = (state >> 8) % 97;
    if ((state >> 20) % 3)
      m[key] += x[step % N] * (step % 5 + 1);
    else
      m.erase(key);
  }
}

static double churned(const double *x) {
  std::map<int, double> m;
  churn(m, x);
  double s = 0, rank = 1;
  for (const auto &kv : m)
    s += std::sin(kv.second) * rank++;
  return s;
}

// The red-black properties and the header's links (root, leftmost,
// rightmost) after churn, on the bodies Capsule linked into this module:
// returns the black height, or -1.
static int blackHeight(const std::_Rb_tree_node_base *n,
                       const std::_Rb_tree_node_base *parent) {
  if (!n)
    return 1;
  if (n->_M_parent != parent)
    return -1;
  bool red = n->_M_color == std::_S_red;
  if (red && ((n->_M_left && n->_M_left->_M_color == std::_S_red) ||
              (n->_M_right && n->_M_right->_M_color == std::_S_red)))
    return -1;
  int l = blackHeight(n->_M_left, n), r = blackHeight(n->_M_right, n);
  if (l < 0 || l != r)
    return -1;
  return l + (red ? 0 : 1);
}

static void checkTreeShape(const double *x) {
  std::map<int, double> m;
  churn(m, x);
  const std::_Rb_tree_node_base *header = m.end()._M_node;
  const std::_Rb_tree_node_base *root = header->_M_parent;
  check_close("root is black", root->_M_color == std::_S_black, 1, 0, 0);
  check_close("black heights", blackHeight(root, header) > 0, 1, 0, 0);
  check_close("leftmost", header->_M_left == m.begin()._M_node, 1, 0, 0);
  check_close("rightmost", header->_M_right == (--m.end())._M_node, 1, 0, 0);
  int count = 0, previous = -1, sorted = 1;
  for (const auto &kv : m) {
    sorted &= kv.first > previous;
    previous = kv.first;
    ++count;
  }
  check_close("walk", sorted && count == (int)m.size(), 1, 0, 0);
}

static double f(const double *x) { return trees(x) + lists(x) + churned(x); }
static double f_fd(double *x, void *) { return f(x); }

int main() {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.17 * i + 0.05 * ((i * 5) % 3);
  checkTreeShape(x);
  CHECK_GRADIENT_AND_TANGENTS(f, x, N);
  return check_report();
}
