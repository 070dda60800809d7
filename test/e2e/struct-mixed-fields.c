// A struct with int, double, pointer and string fields passed by pointer (dup with a shadow struct holding the shadow data pointer); a field updated in place (g).
// RUN: %clang -O0 -g %capsule_cflags %s -o %t0 %capsule_ldflags -lm && %t0
// RUN: %clang -O2 -g %capsule_cflags %s -o %t2 %capsule_ldflags -lm && %t2
// RUN: %check_checkpointed %clang %s %t.ck -O2 -g %capsule_cflags -- %capsule_ldflags
// RUN: %check_checkpointed %clang %s %t.ck0 -O0 -g %capsule_cflags -- %capsule_ldflags
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

static void check_case(const char *tag, const Model *dm, const double *ddata,
                       const double *v, void *ctx) {
  double got[2 + N];
  char name[64];
  got[0] = dm->scale;
  got[1] = dm->offset;
  memcpy(got + 2, ddata, N * sizeof(double));
  snprintf(name, sizeof name, "%s: d[scale, offset, data]", tag);
  check_grad_fd(name, got, eval, ctx, v, 2 + N);
  /* Non-floating fields of the shadow are left alone. */
  snprintf(name, sizeof name, "%s: shadow n kept", tag);
  check_close(name, dm->n, N, 0, 0);
  snprintf(name, sizeof name, "%s: shadow data pointer kept", tag);
  check_close(name, dm->data == ddata, 1, 0, 0);
}

int main(void) {
  const double data0[N] = {0.4, -1.1, 0.7, 1.6};
  double v[2 + N] = {1.3, -0.35};
  memcpy(v + 2, data0, sizeof data0);

  double data[N], ddata[N] = {0};
  memcpy(data, data0, sizeof data0);
  Model m = {N, 1.3, data, "model", 1, -0.35};
  Model dm = {N, 0.0, ddata, "model", 1, 0.0};
  __capsule_autodiff_v((void *)f, capsule_dup, &m, &dm);
  check_case("f", &dm, ddata, v, 0);

  double data2[N], ddata2[N] = {0};
  memcpy(data2, data0, sizeof data0);
  Model m2 = {N, 1.3, data2, "model", 1, -0.35};
  Model dm2 = {N, 0.0, ddata2, "model", 1, 0.0};
  __capsule_autodiff_v((void *)g, capsule_dup, &m2, &dm2);
  check_case("g", &dm2, ddata2, v, (void *)1);
  return check_report();
}
