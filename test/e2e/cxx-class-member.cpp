// C++ classes: member functions (const and mutating) called from a free wrapper that is differentiated; the shadow is an array of objects.
// RUN: %clangxx -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags && %t0
// RUN: %clangxx -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags && %t2
// RUN: %check_checkpointed %clangxx %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
#include <capsule/capsule.h>
#include <cmath>
#include "include/check.h"

class Spring {
public:
  Spring(double k, double rest) : k_(k), rest_(rest) {}
  double energy(const double *a, const double *b) const {
    double dx = b[0] - a[0], dy = b[1] - a[1];
    double len = std::sqrt(dx * dx + dy * dy);
    return 0.5 * k_ * (len - rest_) * (len - rest_);
  }
  void stretch(double factor) { rest_ *= factor; }
  double k() const { return k_; }
  double rest() const { return rest_; }

private:
  double k_, rest_;
};

/* Springs i connects points i and i+1 (2-D points, packed). */
double total_energy(Spring *s, int ns, const double *pts) {
  s[1].stretch(1.05 + 0.1 * s[0].rest());
  double e = 0.0;
  for (int i = 0; i < ns; i++)
    e += s[i].energy(pts + 2 * i, pts + 2 * i + 2);
  return e;
}

enum { NS = 3, NP = 2 * (NS + 1) };
/* w = [k0, r0, k1, r1, k2, r2, points...] */
static double eval(double *w, void *) {
  Spring s[NS] = {{w[0], w[1]}, {w[2], w[3]}, {w[4], w[5]}};
  return total_energy(s, NS, w + 2 * NS);
}

int main() {
  Spring s[NS] = {{2.0, 0.9}, {1.5, 1.1}, {3.0, 0.7}};
  Spring ds[NS] = {{0, 0}, {0, 0}, {0, 0}};
  double pts[NP] = {0.0, 0.0, 1.0, 0.2, 1.8, 1.1, 2.1, 2.0};
  double dpts[NP] = {0};
  double w[2 * NS + NP], got[2 * NS + NP];
  for (int i = 0; i < NS; i++) {
    w[2 * i] = s[i].k();
    w[2 * i + 1] = s[i].rest();
  }
  for (int j = 0; j < NP; j++)
    w[2 * NS + j] = pts[j];
  __capsule_autodiff<void>((void *)total_energy, capsule_dup, s, ds,
                           capsule_const, (int)NS, capsule_dup, pts, dpts);
  for (int i = 0; i < NS; i++) {
    got[2 * i] = ds[i].k();
    got[2 * i + 1] = ds[i].rest();
  }
  for (int j = 0; j < NP; j++)
    got[2 * NS + j] = dpts[j];
  check_grad_fd("d[k, rest, points]", got, eval, nullptr, w, 2 * NS + NP);
  return check_report();
}
