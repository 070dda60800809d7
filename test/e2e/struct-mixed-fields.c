// A struct with int, double, pointer and string fields passed by pointer (dup with a shadow struct holding the shadow data pointer); a field updated in place.
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
#include <math.h>
#include <capsule/capsule.h>
#include "include/check.h"

void __capsule_autodiff_v(void *, ...);

typedef struct {
  int n;
  double scale;
  double *data;
  const char *name;
  int flags;
  double offset;
} Model;

double f(const Model *m) {
  double s = 0.0;
  for (int i = 0; i < m->n; i++) {
    double v = m->data[i] + m->offset;
    s += m->scale * v * v;
    if (m->flags & 1)
      s += sin(m->data[i]);
  }
  return s * (1.0 + 0.1 * m->scale);
}

/* Overwrites a field, then evaluates: the gradient is with respect to the
 * field values on entry. */
double g(Model *m) {
  m->offset = m->offset * m->scale + 0.25;
  return f(m);
}

enum { N = 4 };
/* v = [scale, offset, data[0..N)] */
static double eval(double *v, void *ctx) {
  Model m = {N, v[0], v + 2, "fd", 1, v[1]};
  return ctx ? g(&m) : f(&m);
}

int main(void) {
  for (int which = 0; which < 2; which++) {
    double data[N] = {0.4, -1.1, 0.7, 1.6};
    double ddata[N] = {0};
    Model m = {N, 1.3, data, "model", 1, -0.35};
    Model dm = {N, 0.0, ddata, "model", 1, 0.0};
    double v[2 + N] = {m.scale, m.offset}, got[2 + N];
    memcpy(v + 2, data, sizeof data);
    if (which == 0)
      __capsule_autodiff_v((void *)f, capsule_dup, &m, &dm);
    else
      __capsule_autodiff_v((void *)g, capsule_dup, &m, &dm);
    got[0] = dm.scale;
    got[1] = dm.offset;
    memcpy(got + 2, ddata, sizeof ddata);
    check_grad_fd(which ? "g: d[scale, offset, data]" : "f: d[scale, offset, data]",
                  got, eval, which ? (void *)1 : 0, v, 2 + N);
    /* Non-floating fields of the shadow are left alone. */
    check_close(which ? "g: shadow n kept" : "f: shadow n kept", dm.n, N, 0, 0);
    check_close(which ? "g: shadow data pointer kept" : "f: shadow data pointer kept",
                dm.data == ddata, 1, 0, 0);
  }
  return check_report();
}
