// Interruptible execution: std::sort on small std::vectors inside the
// function (ints with the default order, pairs with a lambda comparator on
// two keys, a vector of structs through a function-pointer comparator, and
// std::stable_sort and std::lower_bound on the sorted result), copied to
// the caller; the caller's arrays and the returned value must be identical
// after an interruption at any step (interrupt_check.h lists the checks).
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O1 -g %capsule_cflags %s -o %t1 %capsule_ldflags && %t1
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
#include "interrupt_check.h"
#include <algorithm>
#include <utility>
#include <vector>

struct Rec {
  int group;
  double value;
};

static bool by_value_desc(const Rec &a, const Rec &b) {
  return a.value > b.value;
}

long sorts(const int *in, int n, int *sorted_out, double *pairs_out) {
  std::vector<int> v(in, in + n);
  std::sort(v.begin(), v.end());
  std::vector<std::pair<int, double>> ps;
  for (int i = 0; i < n; ++i)
    ps.push_back({in[i] % 4, in[i] * 0.5 - i});
  std::sort(ps.begin(), ps.end(), [](const auto &a, const auto &b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  });
  std::vector<Rec> recs;
  for (int i = 0; i < n; ++i)
    recs.push_back(Rec{i % 3, (double)((in[i] * 7) % 13)});
  std::sort(recs.begin(), recs.end(), by_value_desc);
  std::stable_sort(recs.begin(), recs.end(), [](const Rec &a, const Rec &b) {
    return a.group < b.group;
  });
  for (int i = 0; i < n; ++i) {
    sorted_out[i] = v[i];
    pairs_out[i] = ps[i].first * 100 + ps[i].second;
  }
  long check = std::lower_bound(v.begin(), v.end(), 10) - v.begin();
  for (const Rec &r : recs)
    check = check * 7 + r.group * 20 + (long)r.value;
  return check;
}

static int in[18], sorted_out[18];
static double pairs_out[18];
static void reset(void) {
  for (int i = 0; i < 18; ++i)
    in[i] = (i * 37 + 11) % 23;
  memset(sorted_out, 0, sizeof sorted_out);
  memset(pairs_out, 0, sizeof pairs_out);
}
DEFINE_RUNNERS(long, sorts, in, 18, sorted_out, pairs_out)
static const struct region regions[] = {{in, sizeof in},
                                        {sorted_out, sizeof sorted_out},
                                        {pairs_out, sizeof pairs_out}};

int main() {
  struct program p = {
      "cxx-std-sort", sizeof(long), reset, plain_run, primops_run,
      interrupt_run,  regions,      3,     8192};
  return check_interruptible(&p) != 0;
}
